import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import type * as routes from './server-info.routes.js';

export function createHandlers(core: Core) {
  // SQLite paths are absolute (a desktop client starts elsewhere); a PostgreSQL password never leaves the server.
  const get: RouteHandler<typeof routes.get, AuthEnv> = (c) => c.json({ database: core.database(), deletedRetentionDays: core.prompts.deletedRetentionDays }, 200);
  const me: RouteHandler<typeof routes.me, AuthEnv> = (c) => c.json({ actor: c.get('actor'), tokenId: c.get('tokenId'), role: c.get('role') }, 200);
  return { get, me };
}
