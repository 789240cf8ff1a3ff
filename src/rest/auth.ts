import type { MiddlewareHandler } from 'hono';
import type { Role } from '../core/access.js';
import type { ReadPrincipal, TokenService } from '../core/services/token-service.js';
import type { Actor } from '../core/types.js';
import type { TokenFace } from '../core/services/token-use.js';
import type { McpScope } from '../core/mcp-scope.js';
import type { TicketStore } from './events/stream-tickets.js';
import { problemResponse } from './problem.js';
import { callerSubject, problemTooMany, requestSubject, type RateLimitOptions } from '../http/rate-limit.js';
import { clientAddress } from '../http/client-address.js';
import type { AuthFailureLog } from '../core/services/auth-failures.js';

/** Where refused credentials are counted (core.authFailures: audit and metrics). */
type Failures = Pick<AuthFailureLog, 'record'>;

/** `scope`: the read API's app tokens only (one label, optionally some tags); unset or null: every prompt. */
export type AuthEnv = { Variables: { actor: string; tokenId: number | null; role: Role; display: string; scope: McpScope | null } };

/** The caller as the core sees it: the change log's actor, its role, how a 403 names it. */
export const actorOf = (c: { get(k: 'actor'): string; get(k: 'role'): Role; get(k: 'display'): string }): Actor => ({
  name: c.get('actor'),
  role: c.get('role'),
  display: c.get('display'),
});

/** Admin API methods that count as reads for the rate limits; every other one is a write. The read API (/v1, renders are POSTs) is all reads. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Bearer auth for the admin API. EventSource cannot send headers, so the event
 * stream (exactly `GET <eventsPath>`) also takes `?ticket=` from POST …/events/ticket;
 * no route takes a token in the URL. Which role a route needs is checked after this,
 * by requireRole (src/rest/access-table.ts).
 */
export function adminAuth(tokens: TokenService, opts: { tickets?: TicketStore; eventsPath?: string; rate?: RateLimitOptions; failures?: Failures } = {}): MiddlewareHandler<AuthEnv> {
  return bearerAuth(tokens, { ...opts, realm: 'promptd-admin', face: 'admin' });
}

/**
 * Bearer auth for the read API (/v1): every admin-API token, whatever its role (the
 * read API only reads), and app tokens, which read their scope only (`scope`). MCP
 * client tokens are refused here as on the admin API, and app tokens on the admin API.
 */
export function readAuth(tokens: TokenService, opts: { rate?: RateLimitOptions; failures?: Failures } = {}): MiddlewareHandler<AuthEnv> {
  return bearerAuth(tokens, { ...opts, realm: 'promptd', face: 'read' });
}

/**
 * Authenticates, then counts the request against the caller's bucket (the token,
 * else the client address, so guessing tokens is rate limited too): a 429 before
 * a 401 once an unauthenticated address is over its limit.
 */
function bearerAuth(tokens: TokenService, opts: { realm: string; face: TokenFace; tickets?: TicketStore; eventsPath?: string; rate?: RateLimitOptions; failures?: Failures }): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const token = header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
    const ticket = !header && opts.tickets && c.req.method === 'GET' && c.req.path === opts.eventsPath ? c.req.query('ticket') : undefined;
    const principal = ticket ? opts.tickets!.redeem(ticket) : opts.face === 'read' ? await tokens.authenticateRead(token) : await tokens.authenticate(token, opts.face);
    if (opts.rate) {
      const refused = opts.rate.limiter.check(principal ? callerSubject(principal) : requestSubject(c, opts.rate), opts.face === 'read' || READ_METHODS.has(c.req.method) ? 'read' : 'write');
      if (refused) return problemTooMany(c, refused);
    }
    if (!principal) {
      // Counted per minute, address and token prefix for the audit, and in the metrics (36.13).
      opts.failures?.record({
        face: opts.eventsPath !== undefined && c.req.path === opts.eventsPath ? 'events' : opts.face,
        address: clientAddress(c, opts.rate?.trustProxy), presented: token ?? ticket,
      });
      const detail = ticket
        ? 'the stream ticket is not valid (unknown, used or expired); POST /admin/v1/events/ticket for a new one'
        : token ? `the bearer token is not valid (unknown or revoked, or ${opts.face === 'read' ? 'an MCP client token, which only /mcp takes' : 'an MCP client token (only /mcp takes it) or an app token (only the read API /v1 takes it)'})` : 'send Authorization: Bearer <token>';
      const res = problemResponse(c, 401, 'Unauthorized', detail);
      res.headers.set('www-authenticate', `Bearer realm="${opts.realm}"`);
      return res;
    }
    c.set('actor', principal.actor);
    c.set('tokenId', principal.tokenId);
    c.set('role', principal.role ?? 'reader');
    c.set('display', principal.display ?? principal.actor);
    const scope = opts.face === 'read' && !ticket ? ((principal as ReadPrincipal).scope ?? null) : null;
    c.set('scope', scope);
    await next();
  };
}
