import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../../core/index.js';
import type { AuthEnv } from '../../auth.js';
import { validationHook } from '../../validation-hook.js';
import * as routes from './served.routes.js';
import { createHandlers } from './served.handlers.js';

export function servedRouter(core: Core, opts: { onServed?: (label: string) => void } = {}) {
  const h = createHandlers(core, opts);
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook }).openapi(routes.definition, h.definition).openapi(routes.render, h.render);
}
