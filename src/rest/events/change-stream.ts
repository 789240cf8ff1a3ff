// One server-sent stream of the change log, shared by /admin/v1/events and
// /v1/changes/stream: a `ready` event, then `change` events (resumed after
// Last-Event-ID), keep-alive comments, and an end at the stream's maximum lifetime or
// when its handle is closed (revocation, client gone).
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Core } from '../../core/index.js';
import type { ChangeEvent } from '../../core/types.js';
import { problemResponse } from '../problem.js';
import type { EventStreamLimits, StreamHandle, StreamRegistry } from './stream-registry.js';
import type { TicketStore } from './stream-tickets.js';

/** Events replayed after Last-Event-ID at most; a reader further behind pages the log instead. */
const RESUME_MAX = 500;

export interface ChangeStreamOptions {
  handle: StreamHandle;
  limits: EventStreamLimits;
  /** Resume after this id (Last-Event-ID); undefined starts at the newest event. */
  lastEventId: number | undefined;
  /** The event's `data`, or undefined to leave the event out of this stream. */
  encode: (e: ChangeEvent) => string | undefined;
  /** How the stream hears of new events (default: the change feed, as it is). */
  subscribe?: (fn: (events: ChangeEvent[]) => void) => () => void;
}

/** The 429 for a stream the registry refused. */
export function refusedStream(c: Context, refused: 'token' | 'total', limits: EventStreamLimits): Response {
  const detail = refused === 'token' ? `this token already holds ${limits.perToken} event streams; close one` : `this instance already serves ${limits.total} event streams; retry later`;
  const res = problemResponse(c, 429, 'Too many event streams', detail);
  res.headers.set('retry-after', '30');
  return res;
}

/** Last-Event-ID, else the query's fallback (a new EventSource cannot set the header). */
export function lastEventIdOf(c: Context, fallback: number | undefined): number | undefined {
  const header = c.req.header('last-event-id');
  if (header === undefined) return fallback;
  return /^\d{1,15}$/.test(header.trim()) ? Number(header) : undefined;
}

export function streamChanges(c: Context, core: Core, { handle, limits, lastEventId, encode, subscribe = core.feed.subscribe }: ChangeStreamOptions): Response {
  return streamSSE(c, async (sse) => {
    const started = Date.now();
    const queue: ChangeEvent[] = [];
    let wake: (() => void) | undefined;
    const unsubscribe = subscribe((events) => {
      queue.push(...events);
      wake?.();
    });
    const finished = () => handle.closed || sse.aborted || sse.closed;
    handle.onClose(() => wake?.());
    sse.onAbort(() => {
      handle.close();
      wake?.();
    });
    try {
      let sent = lastEventId ?? core.feed.lastId();
      if (lastEventId !== undefined) queue.unshift(...(await core.feed.since(lastEventId, RESUME_MAX)));
      await sse.writeSSE({ event: 'ready', data: JSON.stringify({ lastEventId: sent }) });
      while (!finished()) {
        while (queue.length && !finished()) {
          const e = queue.shift()!;
          if (e.id <= sent) continue;
          sent = e.id;
          const data = encode(e);
          if (data !== undefined) await sse.writeSSE({ event: 'change', id: String(e.id), data });
        }
        const left = started + limits.maxLifetimeMs - Date.now();
        if (left <= 0) break;
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, Math.min(limits.heartbeatMs, left));
        });
        clearTimeout(timer);
        wake = undefined;
        if (!queue.length && !finished() && started + limits.maxLifetimeMs > Date.now()) await sse.write(': keep-alive\n\n');
      }
    } finally {
      unsubscribe();
      handle.close();
    }
  });
}

/**
 * Every instance follows the change log, so a revocation made anywhere (another
 * instance, the CLI) closes this instance's streams of that token and its tickets.
 */
export function closeOnRevocation(core: Core, registry: StreamRegistry, tickets?: TicketStore): void {
  core.feed.subscribe((events) => {
    for (const e of events) {
      if (e.action !== 'token.revoked' || !/^\d+$/.test(e.entityKey)) continue;
      registry.closeToken(Number(e.entityKey));
      tickets?.revokeToken(Number(e.entityKey));
    }
  });
}
