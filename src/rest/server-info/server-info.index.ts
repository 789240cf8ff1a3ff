import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { validationHook } from '../validation-hook.js';
import * as routes from './server-info.routes.js';
import { createHandlers } from './server-info.handlers.js';

export function serverInfoRouter(core: Core) {
  const h = createHandlers(core);
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook }).openapi(routes.get, h.get).openapi(routes.me, h.me);
}
