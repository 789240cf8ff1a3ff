import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { validationHook } from '../validation-hook.js';
import * as routes from './usage.routes.js';
import { createHandlers } from './usage.handlers.js';

export function usageRouter(core: Core) {
  const h = createHandlers(core);
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook }).openapi(routes.report, h.report).openapi(routes.csv, h.csv).openapi(routes.ofPrompt, h.ofPrompt);
}
