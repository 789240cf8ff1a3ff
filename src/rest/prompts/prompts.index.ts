import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { validationHook } from '../validation-hook.js';
import * as routes from './prompts.routes.js';
import { createHandlers } from './prompts.handlers.js';

export function promptsRouter(core: Core) {
  const h = createHandlers(core);
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook })
    .openapi(routes.list, h.list)
    .openapi(routes.create, h.create)
    .openapi(routes.get, h.get)
    .openapi(routes.update, h.update)
    .openapi(routes.setTags, h.setTags)
    .openapi(routes.remove, h.remove)
    .openapi(routes.restore, h.restore)
    .openapi(routes.listVersions, h.listVersions)
    .openapi(routes.createVersion, h.createVersion)
    .openapi(routes.getVersion, h.getVersion)
    .openapi(routes.activate, h.activate)
    .openapi(routes.deactivate, h.deactivate)
    .openapi(routes.render, h.render);
}
