// Open /admin/v1/events streams: caps per token and in total (each holds a
// connection and a queue), and closing every stream of a token when it is revoked.
import type { StreamPrincipal } from './stream-tickets.js';

export interface EventStreamLimits {
  /** Streams one token may hold open (PROMPTD_EVENTS_STREAMS_PER_TOKEN). */
  perToken: number;
  /** Streams open on this instance (PROMPTD_EVENTS_STREAMS_MAX). */
  total: number;
  /** A comment line this often keeps proxies from timing the stream out. */
  heartbeatMs: number;
  /** The server ends a stream after this long (PROMPTD_EVENTS_STREAM_LIFETIME); the UI reconnects. */
  maxLifetimeMs: number;
}

export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = { perToken: 10, total: 100, heartbeatMs: 25_000, maxLifetimeMs: 60 * 60_000 };

export interface StreamHandle {
  readonly principal: StreamPrincipal;
  readonly closed: boolean;
  /** Ends the stream (idempotent); the listeners run once. */
  close(): void;
  onClose(fn: () => void): void;
}

export interface StreamRegistry {
  open(principal: StreamPrincipal): StreamHandle | { refused: 'token' | 'total' };
  closeToken(tokenId: number): number;
  size(): number;
}

const keyOf = (p: StreamPrincipal) => (p.tokenId === null ? `actor:${p.actor}` : `token:${p.tokenId}`);

export function createStreamRegistry(limits: Pick<EventStreamLimits, 'perToken' | 'total'>): StreamRegistry {
  const open = new Set<StreamHandle>();
  const perKey = new Map<string, number>();
  return {
    open(principal) {
      const key = keyOf(principal);
      if ((perKey.get(key) ?? 0) >= limits.perToken) return { refused: 'token' };
      if (open.size >= limits.total) return { refused: 'total' };
      const listeners: (() => void)[] = [];
      let closed = false;
      const handle: StreamHandle = {
        principal,
        get closed() {
          return closed;
        },
        close() {
          if (closed) return;
          closed = true;
          open.delete(handle);
          const n = (perKey.get(key) ?? 1) - 1;
          if (n > 0) perKey.set(key, n);
          else perKey.delete(key);
          for (const fn of listeners.splice(0)) fn();
        },
        onClose(fn) {
          if (closed) fn();
          else listeners.push(fn);
        },
      };
      open.add(handle);
      perKey.set(key, (perKey.get(key) ?? 0) + 1);
      return handle;
    },
    closeToken(tokenId) {
      let n = 0;
      for (const h of [...open]) {
        if (h.principal.tokenId === tokenId) {
          h.close();
          n++;
        }
      }
      return n;
    },
    size: () => open.size,
  };
}
