import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { validationHook } from '../validation-hook.js';
import * as routes from './webhooks.routes.js';
import { createHandlers } from './webhooks.handlers.js';

export function webhooksRouter(core: Core) {
  const h = createHandlers(core);
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook })
    .openapi(routes.list, h.list)
    .openapi(routes.create, h.create)
    .openapi(routes.get, h.get)
    .openapi(routes.update, h.update)
    .openapi(routes.remove, h.remove)
    .openapi(routes.deliveries, h.deliveries)
    .openapi(routes.redeliver, h.redeliver)
    .openapi(routes.ping, h.ping);
}
