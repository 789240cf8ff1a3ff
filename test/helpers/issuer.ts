// A real OAuth authorization server for tests, on 127.0.0.1: RFC 8414 metadata and a
// JWKS over HTTP (node:http), keys generated here with jose; it signs access tokens.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';

export interface TestIssuer {
  issuer: string;
  /** Requests the issuer answered, by path (discovery and key fetches are observable). */
  hits: string[];
  /** A token signed by the issuer's key (defaults: iss = issuer, exp in 5 min, scope prompts:read). */
  token(claims: JWTPayload & { aud: string | string[] }, opts?: { key?: CryptoKey; kid?: string; alg?: string; expiresIn?: string | number | null }): Promise<string>;
  /** A key the issuer does not publish (a forger's). */
  foreignKey: CryptoKey;
  close(): Promise<void>;
}

export async function startIssuer(opts: { discovery?: 'oauth' | 'openid' } = {}): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const hits: string[] = [];
  let issuer = '';
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const send = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const metadata = { issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] };
    const wanted = opts.discovery === 'openid' ? '/.well-known/openid-configuration' : '/.well-known/oauth-authorization-server';
    if (req.url === wanted) return send(opts.discovery === 'openid' ? { ...metadata, subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'] } : metadata);
    if (req.url === '/jwks') return send({ keys: [jwk] });
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    hits,
    foreignKey: foreign.privateKey,
    async token(claims, o = {}) {
      const jwt = new SignJWT({ scope: 'prompts:read', sub: 'user-1', client_id: 'client-1', ...claims })
        .setProtectedHeader({ alg: o.alg ?? 'RS256', kid: o.kid ?? 'k1', typ: 'at+jwt' })
        .setIssuer((claims.iss as string | undefined) ?? issuer)
        .setIssuedAt();
      // null: no exp claim at all.
      if (o.expiresIn !== null) jwt.setExpirationTime(o.expiresIn ?? '5m');
      return jwt.sign(o.key ?? privateKey);
    },
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
