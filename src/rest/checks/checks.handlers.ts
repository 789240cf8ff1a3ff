import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { wire } from '../wire.js';
import type * as routes from './checks.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<Extract<(typeof routes)[R], { method: string }>, AuthEnv>;

export function createHandlers(core: Core) {
  const check: H<'check'> = async (c) => {
    const { name, n } = c.req.valid('param');
    // The body is optional: an empty POST checks under ?label= (or production).
    const body = (c.req.valid('json') as { label?: string } | undefined) ?? {};
    const label = body.label ?? c.req.valid('query').label;
    // The request's signal aborts when the client goes away: its patterns stop running.
    return c.json(wire(await core.checks.check(name, n, label, { signal: c.req.raw.signal })), 200);
  };
  return { check };
}
