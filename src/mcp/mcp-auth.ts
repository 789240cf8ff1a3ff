// Who may use the MCP endpoints (/mcp, /mcp?label=…, the legacy /sse + /messages):
// - MCP client tokens (`promptd token create --mcp`, `pdm_…`, stored hashed): their
//   own scope (one label's view, optionally only some tags; docs/access.md);
// - the static PROMPTD_MCP_TOKEN: every view;
// - OAuth 2.1 access tokens from PROMPTD_OAUTH_ISSUER (docs/authorization.md).
// With none of these configured and no MCP client token stored, clients are
// anonymous; once any exists, a request without a valid one is refused. Errors follow
// RFC 6750 §3 and the MCP authorization spec: 401 + `WWW-Authenticate: Bearer
// resource_metadata="…"` points the client at our Protected Resource Metadata (RFC 9728).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { InsufficientScopeError, InvalidTokenError, type OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Core } from '../core/index.js';
import type { McpScope } from '../core/mcp-scope.js';
import type { McpTokenPrincipal } from '../core/services/token-service.js';
import { rpcError } from './json-body.js';
import type { OAuthVerifier } from './oauth-verifier.js';
import { READ_SCOPE, mcpScopeFromOAuth } from './oauth-scopes.js';

export interface McpAuthOptions {
  /** Where stored MCP client tokens are checked (none without it). */
  core?: Core;
  /** PROMPTD_MCP_TOKEN: one shared secret granting every label view. */
  token?: string;
  oauth?: {
    verifier: OAuthVerifier;
    /** Where our Protected Resource Metadata is served (absolute URL); read per response. */
    resourceMetadataUrl(): string;
  };
}

/** An admitted request: who sent it, and (OAuth) what its token grants. */
export interface McpPrincipal {
  /** Stable across a client's requests: a session is bound to the principal that opened it. */
  id: string;
  /** OAuth scopes; undefined for the static token (every view). */
  scopes?: string[];
  /** An MCP client token: who it is, its scope and its own rate limits. */
  token?: McpTokenPrincipal;
}

export interface McpAuth {
  /**
   * True when clients must authenticate: PROMPTD_MCP_TOKEN or OAuth is configured, or
   * an MCP client token is stored (cached, dropped on every token event of the change log).
   */
  required(): Promise<boolean>;
  /** The principal, or the refusal to send. */
  admit(c: Context): Promise<McpPrincipal | Response>;
  /**
   * The scope a new session of this principal gets for the label it asked for
   * (undefined: its default), or a 403 insufficient_scope refusal.
   */
  scopeFor(c: Context, principal: McpPrincipal, requestedLabel: string | undefined): McpScope | Response;
  /** Stops following the change log. */
  stop(): void;
}

/**
 * What a session is bound to: the principal, and for an OAuth token its scopes too. A
 * session opened with a broad token and used later with a narrower one of the same
 * subject would otherwise keep the broad scope (the session's scope is fixed at
 * initialize), so such a request is answered as for an unknown session (404): the
 * client initializes again and gets the scope its token grants now.
 */
export function sessionBinding(p: Pick<McpPrincipal, 'id' | 'scopes'>): string {
  return p.scopes ? `${p.id} ${[...new Set(p.scopes)].sort().join(' ')}` : p.id;
}

const quote = (s: string) => `"${s.replace(/["\\]/g, "'")}"`;
const digest = (s: string) => createHash('sha256').update(s).digest();

export function createMcpAuth(opts: McpAuthOptions): McpAuth {
  const expected = opts.token ? digest(opts.token) : undefined;
  const oauth = opts.oauth;

  const challenge = (error?: OAuthError, scope?: string): string => {
    if (!oauth) return 'Bearer realm="promptd-mcp"';
    const parts = [`resource_metadata=${quote(oauth.resourceMetadataUrl())}`];
    if (error) parts.unshift(`error=${quote(error.errorCode)}`, `error_description=${quote(error.message)}`);
    if (scope) parts.push(`scope=${quote(scope)}`);
    return `Bearer ${parts.join(', ')}`;
  };
  const unauthorized = (c: Context, message: string, error?: OAuthError) =>
    rpcError(c, 401, -32001, `Unauthorized: ${message}`, { 'WWW-Authenticate': challenge(error) });

  const what = ['an MCP token (promptd token create --mcp)', opts.token && 'PROMPTD_MCP_TOKEN', oauth && 'an OAuth access token (see the resource_metadata of WWW-Authenticate)']
    .filter(Boolean)
    .join(' or ');

  // Whether an MCP client token exists, cached and dropped on every token event of the
  // change log (which follows every instance's writes); a presented token is always
  // checked by core.tokens.authenticateMcp (kept in memory until a token event: docs/access.md).
  const core = opts.core;
  let exists: Promise<boolean> | undefined;
  const unsubscribe = core?.feed.subscribe((events) => {
    if (events.some((e) => e.entity === 'token')) exists = undefined;
  });
  const required = () => {
    if (expected || oauth || !core) return Promise.resolve(Boolean(expected || oauth));
    exists ??= core.tokens.mcpTokensExist().catch((e) => {
      exists = undefined;
      throw e;
    });
    return exists;
  };

  return {
    required,
    async admit(c) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
      const presented = m?.[1];
      // Comparing fixed-length digests keeps the comparison constant-time whatever the length.
      if (presented && expected && timingSafeEqual(digest(presented), expected)) return { id: 'static-token' };
      // MCP client tokens start `pdm_` (an OAuth JWT never does): only those cost a lookup.
      if (presented?.startsWith('pdm_') && core) {
        const token = await core.tokens.authenticateMcp(presented);
        if (token) return { id: `token:${token.tokenId}`, token };
      }
      if (!(await required())) return { id: 'anonymous' };
      // No credentials: no error code (RFC 6750 §3.1), only where to learn how to get one.
      if (!presented) return unauthorized(c, `send Authorization: Bearer <${what}>`);
      if (!oauth) return unauthorized(c, `the bearer token is not a valid MCP token (unknown, revoked, or an admin API token); send Authorization: Bearer <${what}>`);
      try {
        const info = await oauth.verifier.verify(presented);
        const extra = info.extra as { issuer?: string; subject?: string } | undefined;
        return { id: `oauth:${extra?.subject ?? info.clientId}`, scopes: info.scopes };
      } catch (e) {
        if (e instanceof InvalidTokenError) return unauthorized(c, e.message, e);
        // The issuer cannot be reached: our problem, not the client's token.
        return rpcError(c, 503, -32000, `Service unavailable: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    scopeFor(c, principal, requestedLabel) {
      if (principal.token) {
        const own = principal.token.scope;
        if (requestedLabel !== undefined && requestedLabel !== own.label) {
          return rpcError(c, 403, -32001, `Forbidden: this token sees label "${own.label}" only; drop ?label= or ask for that one`);
        }
        return own;
      }
      if (!principal.scopes) return { label: requestedLabel ?? 'production', tags: null };
      const decision = mcpScopeFromOAuth(principal.scopes, requestedLabel);
      if ('scope' in decision) return decision.scope;
      const error = new InsufficientScopeError(decision.insufficient);
      return rpcError(c, 403, -32001, `Forbidden: ${decision.insufficient}`, { 'WWW-Authenticate': challenge(error, decision.required || READ_SCOPE) });
    },
    stop: () => unsubscribe?.(),
  };
}

/** What of the configuration can authenticate MCP clients. */
export interface McpAuthConfig {
  mcpToken?: string;
  oauth?: { issuer: string; audience?: string };
}

/**
 * True when MCP clients must authenticate: `serve` on a non-loopback interface
 * refuses to start without it (unless --allow-unauthenticated-mcp). A stored MCP
 * client token counts: once one exists, /mcp refuses requests without a token.
 */
export async function hasMcpAuthentication(config: McpAuthConfig, core: Core): Promise<boolean> {
  if (config.mcpToken || config.oauth) return true;
  return core.tokens.mcpTokensExist();
}

/** Start-up refused: bound off loopback with nobody required to authenticate on MCP. */
export class UnauthenticatedMcpError extends Error {
  constructor(host: string) {
    super(`refusing to serve MCP without authentication on ${host}: create an MCP token (promptd token create --mcp), set PROMPTD_MCP_TOKEN or PROMPTD_OAUTH_ISSUER, bind to 127.0.0.1, or pass --allow-unauthenticated-mcp`);
    this.name = 'UnauthenticatedMcpError';
  }
}
