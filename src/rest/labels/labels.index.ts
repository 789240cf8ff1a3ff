import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { validationHook } from '../validation-hook.js';
import * as routes from './labels.routes.js';
import { createHandlers } from './labels.handlers.js';

export function labelsRouter(core: Core) {
  const h = createHandlers(core);
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook })
    .openapi(routes.listForPrompt, h.listForPrompt)
    .openapi(routes.set, h.set)
    .openapi(routes.remove, h.remove)
    .openapi(routes.history, h.history)
    .openapi(routes.summary, h.summary)
    .openapi(routes.promote, h.promote);
}
