import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { validationHook } from '../validation-hook.js';
import * as routes from './checks.routes.js';
import { createHandlers } from './checks.handlers.js';

export function checksRouter(core: Core) {
  const h = createHandlers(core);
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook }).openapi(routes.check, h.check);
}
