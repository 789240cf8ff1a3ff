import type { MiddlewareHandler } from 'hono';
import type { TokenService } from '../core/services/token-service.js';
import { problemResponse } from './problem.js';

export type AuthEnv = { Variables: { actor: string } };

/** Bearer auth for the admin API. `?access_token=` only where EventSource cannot send headers. */
export function adminAuth(tokens: TokenService, opts: { queryTokenPaths?: RegExp } = {}): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    let token = header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
    if (!token && opts.queryTokenPaths?.test(c.req.path)) token = c.req.query('access_token') ?? undefined;
    const actor = await tokens.verify(token);
    if (!actor) {
      const res = problemResponse(c, 401, 'Unauthorized', token ? 'the bearer token is not valid (unknown or revoked)' : 'send Authorization: Bearer <token>');
      res.headers.set('www-authenticate', 'Bearer realm="promptd-admin"');
      return res;
    }
    c.set('actor', actor);
    await next();
  };
}
