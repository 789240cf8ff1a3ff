import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { validationHook } from '../validation-hook.js';
import * as routes from './audit.routes.js';
import { createHandlers } from './audit.handlers.js';

export function auditRouter(core: Core) {
  const h = createHandlers(core);
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook }).openapi(routes.list, h.list).openapi(routes.csv, h.csv);
}
