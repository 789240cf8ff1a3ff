import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import type * as routes from './settings.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<Extract<(typeof routes)[R], { method: string }>, AuthEnv>;

export function createHandlers(core: Core) {
  const get: H<'get'> = async (c) => c.json(await core.rateLimits.get(), 200);
  const put: H<'put'> = async (c) => c.json(await core.rateLimits.update(c.req.valid('json'), c.get('actor')), 200);
  return { get, put };
}
