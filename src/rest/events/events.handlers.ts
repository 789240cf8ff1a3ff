import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import { roleAllows } from '../../core/access.js';
import { ADMIN_ONLY_ACTIONS } from '../../core/services/activity-service.js';
import type { ChangeEvent } from '../../core/types.js';
import type { AuthEnv } from '../auth.js';
import type * as routes from './events.routes.js';
import type { EventStreamLimits, StreamRegistry } from './stream-registry.js';
import type { TicketStore } from './stream-tickets.js';
import { lastEventIdOf, refusedStream, streamChanges } from './change-stream.js';

type H<R extends 'ticket' | 'stream'> = RouteHandler<(typeof routes)[R], AuthEnv>;

const toWire = (e: ChangeEvent) => JSON.stringify({ id: e.id, at: e.at.toISOString(), actor: e.actor, action: e.action, entity: e.entity, entityKey: e.entityKey, served: e.served });

export function createHandlers(core: Core, deps: { registry: StreamRegistry; tickets: TicketStore; limits: EventStreamLimits }) {
  const { registry, tickets, limits } = deps;

  const ticket: H<'ticket'> = (c) => {
    const t = tickets.issue({ actor: c.get('actor'), tokenId: c.get('tokenId') ?? null, role: c.get('role'), display: c.get('display') });
    return c.json({ ticket: t.ticket, expiresAt: t.expiresAt.toISOString() }, 200);
  };

  // Resumes from Last-Event-ID (or ?lastEventId=, for a new EventSource after a reconnect).
  const stream: H<'stream'> = (c) => {
    const handle = registry.open({ actor: c.get('actor'), tokenId: c.get('tokenId') ?? null });
    if ('refused' in handle) return refusedStream(c, handle.refused, limits) as never;
    // Readers and editors do not see token, webhook and settings events (as in GET /activity).
    const admin = roleAllows(c.get('role'), 'admin');
    const encode = (e: ChangeEvent) => (admin || !ADMIN_ONLY_ACTIONS.includes(e.action) ? toWire(e) : undefined);
    return streamChanges(c, core, { handle, limits, lastEventId: lastEventIdOf(c, c.req.valid('query').lastEventId), encode }) as never;
  };

  return { ticket, stream };
}
