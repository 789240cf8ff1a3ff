import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { validationHook } from '../validation-hook.js';
import * as routes from './tokens.routes.js';
import { createHandlers, type McpRequired } from './tokens.handlers.js';

export function tokensRouter(core: Core, mcpRequired?: McpRequired) {
  const h = createHandlers(core, mcpRequired);
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook })
    .openapi(routes.list, h.list)
    .openapi(routes.create, h.create)
    .openapi(routes.update, h.update)
    .openapi(routes.revoke, h.revoke);
}
