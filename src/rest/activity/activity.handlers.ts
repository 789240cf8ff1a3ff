import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { wire } from '../wire.js';
import type * as routes from './activity.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<Extract<(typeof routes)[R], { method: string }>, AuthEnv>;

export function createHandlers(core: Core) {
  const list: H<'list'> = async (c) => c.json(wire(await core.activity.list({ ...c.req.valid('query'), role: c.get('role') })), 200);
  return { list };
}
