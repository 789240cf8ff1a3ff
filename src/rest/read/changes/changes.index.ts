// The changes readers follow: a paged log and a server-sent stream of it. Streams
// have their own registry (caps per token and in total) apart from the admin UI's.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../../core/index.js';
import type { AuthEnv } from '../../auth.js';
import { validationHook } from '../../validation-hook.js';
import { closeOnRevocation } from '../../events/change-stream.js';
import { createStreamRegistry, DEFAULT_EVENT_STREAM_LIMITS, type EventStreamLimits } from '../../events/stream-registry.js';
import * as routes from './changes.routes.js';
import { createHandlers } from './changes.handlers.js';

export function changesRouter(core: Core, opts: { limits?: Partial<EventStreamLimits> } = {}) {
  const limits = { ...DEFAULT_EVENT_STREAM_LIMITS, ...opts.limits };
  const registry = createStreamRegistry(limits);
  closeOnRevocation(core, registry);
  const h = createHandlers(core, { registry, limits });
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook }).openapi(routes.list, h.list).openapi(routes.stream, h.stream);
}
