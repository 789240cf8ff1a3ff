// Server-sent events of the change log, for live UIs. Resumes from Last-Event-ID.
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { Core } from '../../core/index.js';
import type { ChangeEvent } from '../../core/types.js';
import type { AuthEnv } from '../auth.js';
import { errorResponses } from '../schemas.js';

const route = createRoute({
  method: 'get', path: '/events', tags: ['Events'], summary: 'Server-sent events of the change log (event: change)',
  responses: { 200: { description: 'text/event-stream of ChangeEvent JSON', content: { 'text/event-stream': { schema: { type: 'string' } } } }, 401: errorResponses[401] },
});

const toWire = (e: ChangeEvent) => JSON.stringify({ id: e.id, at: e.at.toISOString(), actor: e.actor, action: e.action, entity: e.entity, entityKey: e.entityKey, served: e.served });

export function eventsRouter(core: Core, opts: { heartbeatMs?: number } = {}) {
  return new OpenAPIHono<AuthEnv>().openapi(route, (c) =>
    streamSSE(c, async (stream) => {
      const queue: ChangeEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = core.feed.subscribe((events) => {
        queue.push(...events);
        wake?.();
      });
      stream.onAbort(() => {
        unsubscribe();
        wake?.();
      });
      const lastId = Number(c.req.header('last-event-id') ?? NaN);
      let sent = Number.isFinite(lastId) ? lastId : core.feed.lastId();
      if (Number.isFinite(lastId)) queue.unshift(...(await core.feed.since(lastId, 500)));
      await stream.writeSSE({ event: 'ready', data: JSON.stringify({ lastEventId: sent }) });
      while (!stream.aborted && !stream.closed) {
        while (queue.length) {
          const e = queue.shift()!;
          if (e.id <= sent) continue;
          sent = e.id;
          await stream.writeSSE({ event: 'change', id: String(e.id), data: toWire(e) });
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, opts.heartbeatMs ?? 15_000).unref();
        });
        wake = undefined;
        if (!queue.length && !stream.aborted) await stream.write(': keep-alive\n\n');
      }
      unsubscribe();
    }),
  );
}
