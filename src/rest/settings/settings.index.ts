import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { validationHook } from '../validation-hook.js';
import * as routes from './settings.routes.js';
import { createHandlers } from './settings.handlers.js';

export function settingsRouter(core: Core) {
  const h = createHandlers(core);
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook }).openapi(routes.get, h.get).openapi(routes.put, h.put);
}
