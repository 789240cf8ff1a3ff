// Validates OAuth 2.1 access tokens (JWTs) for the MCP endpoints: promptd is a
// resource server of one issuer (PROMPTD_OAUTH_ISSUER). The issuer's metadata is
// discovered once (RFC 8414, then OpenID Connect discovery); its jwks_uri keys
// verify signatures through jose, which also refetches the key set when a token
// names an unknown key (rotation).
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { InvalidTokenError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

/** Asymmetric algorithms only: no `none`, no HMAC (a shared secret would make every holder an issuer). */
export const DEFAULT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export interface OAuthVerifierOptions {
  /** PROMPTD_OAUTH_ISSUER: the `iss` every token must carry, and where metadata is discovered. */
  issuer: string;
  /** The `aud` every token must carry: promptd's resource URI (PROMPTD_OAUTH_AUDIENCE). Read on each check. */
  readonly audience: string;
  algorithms?: string[];
  /** Seconds of clock skew tolerated on exp/nbf (default 30). */
  clockToleranceSec?: number;
}

export interface OAuthVerifier {
  /** The token's AuthInfo (scopes, client, expiry), or InvalidTokenError / ServerError. */
  verify(token: string): Promise<AuthInfo>;
}

/** The discovery documents to try, in order: RFC 8414 §3.1 (path inserted), then OpenID Connect. */
export function metadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
  const at = (wellKnown: string) => new URL(`/.well-known/${wellKnown}${path}`, u).href;
  return [at('oauth-authorization-server'), at('openid-configuration'), `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`].filter((v, i, a) => a.indexOf(v) === i);
}

async function discoverJwksUri(issuer: string): Promise<URL> {
  const failures: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(10_000) });
      if (!res.ok) {
        failures.push(`${url}: HTTP ${res.status}`);
        continue;
      }
      const meta = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
      // RFC 8414 §3.3: the document must name the issuer it was fetched for.
      if (meta.issuer !== issuer) throw new Error(`${url} names issuer ${JSON.stringify(meta.issuer)}, not ${issuer}`);
      if (typeof meta.jwks_uri !== 'string') throw new Error(`${url} has no jwks_uri`);
      return new URL(meta.jwks_uri);
    } catch (e) {
      failures.push(`${url}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  throw new Error(`no usable authorization server metadata for ${issuer} (${failures.join('; ')})`);
}

const scopesOf = (p: JWTPayload): string[] => {
  const raw = p.scope ?? p.scp;
  if (typeof raw === 'string') return raw.split(' ').filter(Boolean);
  return Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string') : [];
};

export function createOAuthVerifier(opts: OAuthVerifierOptions): OAuthVerifier {
  const algorithms = opts.algorithms ?? DEFAULT_ALGORITHMS;
  // Discovered on first use and kept; a failure is not kept, so the next request retries.
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keySet = () =>
    (keys ??= discoverJwksUri(opts.issuer).then((uri) => createRemoteJWKSet(uri)).catch((e) => {
      keys = undefined;
      throw e;
    }));

  return {
    async verify(token) {
      let jwks: Awaited<ReturnType<typeof keySet>>;
      try {
        jwks = await keySet();
      } catch (e) {
        throw new ServerError(`the authorization server's keys are unavailable: ${e instanceof Error ? e.message : String(e)}`);
      }
      try {
        const { payload } = await jwtVerify(token, jwks, {
          issuer: opts.issuer,
          audience: opts.audience,
          algorithms,
          requiredClaims: ['exp'],
          clockTolerance: opts.clockToleranceSec ?? 30,
        });
        const clientId = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : (payload.sub ?? 'unknown');
        return {
          token,
          clientId,
          scopes: scopesOf(payload),
          expiresAt: payload.exp,
          resource: new URL(opts.audience),
          extra: { issuer: payload.iss, subject: payload.sub },
        };
      } catch (e) {
        // The key set could not be fetched (network, timeout, garbage): not the token's fault.
        if (!(e instanceof joseErrors.JOSEError) || e instanceof joseErrors.JWKSTimeout || e instanceof joseErrors.JWKSInvalid) {
          throw new ServerError(`the authorization server's keys are unavailable: ${e instanceof Error ? e.message : String(e)}`);
        }
        throw new InvalidTokenError(tokenProblem(e));
      }
    },
  };
}

/** A description of why a token was refused that names the claim but leaks nothing of the key set. */
function tokenProblem(e: unknown): string {
  if (e instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (e instanceof joseErrors.JWTClaimValidationFailed) return `the token's "${e.claim}" claim is not accepted (${e.reason})`;
  if (e instanceof joseErrors.JWSSignatureVerificationFailed || e instanceof joseErrors.JWKSNoMatchingKey) return 'the token is not signed by the issuer';
  if (e instanceof joseErrors.JOSEAlgNotAllowed) return 'the token is signed with an algorithm that is not accepted';
  return 'the token is not a valid access token';
}
