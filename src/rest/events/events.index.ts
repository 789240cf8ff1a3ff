// Server-sent events of the change log, for live UIs, and the tickets that open them.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { validationHook } from '../validation-hook.js';
import * as routes from './events.routes.js';
import { createHandlers } from './events.handlers.js';
import { createStreamRegistry, DEFAULT_EVENT_STREAM_LIMITS, type EventStreamLimits } from './stream-registry.js';
import type { TicketStore } from './stream-tickets.js';
import { closeOnRevocation } from './change-stream.js';

export function eventsRouter(core: Core, opts: { tickets: TicketStore; limits?: Partial<EventStreamLimits> }) {
  const limits = { ...DEFAULT_EVENT_STREAM_LIMITS, ...opts.limits };
  const registry = createStreamRegistry(limits);
  closeOnRevocation(core, registry, opts.tickets);
  const h = createHandlers(core, { registry, tickets: opts.tickets, limits });
  return new OpenAPIHono<AuthEnv>({ defaultHook: validationHook }).openapi(routes.ticket, h.ticket).openapi(routes.stream, h.stream);
}
