// Failed authentications for the audit and the metrics (issue 36.13). A guessing client
// can fail thousands of times a minute, so failures are counted in memory per (minute,
// face, address, token prefix) and written once a minute as one `auth.failed` change
// event per key, in one transaction. Distinct keys per minute are capped (the rest are
// counted under one overflow key), and only a short prefix of a presented token is kept,
// never the token: a prefix of a real token is what listings show already.
import type { Store } from '../ports.js';

/** Where the credential was refused; a closed set, so the metrics label stays bounded. */
export const AUTH_FACES = ['admin', 'mcp', 'read', 'events'] as const;
export type AuthFace = (typeof AUTH_FACES)[number];

export const AUTH_FAILED = 'auth.failed';
/** Distinct (face, address, prefix) keys counted per minute; past it, failures go to one overflow key. */
export const MAX_FAILURE_KEYS = 200;
/** Characters of a presented token kept at most (`pd_` and 5 more): enough to tell a stale token from noise. */
export const FAILURE_PREFIX = 8;
const MINUTE_MS = 60_000;
const OVERFLOW = '(other)';

export interface AuthFailure {
  face: AuthFace;
  /** The client address as the face sees it (X-Forwarded-For's last entry behind a trusted proxy). */
  address: string;
  /** The credential presented, if any: only its prefix is kept. */
  presented?: string;
}

/** At most FAILURE_PREFIX characters and at most a quarter of the token (a short token keeps less), printable only. */
export function failurePrefix(presented: string | undefined): string {
  if (!presented) return '';
  const n = Math.min(FAILURE_PREFIX, Math.floor(presented.length / 4));
  return presented.slice(0, n).replace(/[^\x21-\x7e]/g, '?');
}

interface Count {
  minute: number;
  face: AuthFace;
  address: string;
  prefix: string;
  count: number;
}

export function createAuthFailureLog({ store, now = () => Date.now(), flushMs = MINUTE_MS, maxKeys = MAX_FAILURE_KEYS, onError }: {
  store: Pick<Store, 'write' | 'readOnly'>;
  now?: () => number;
  /** How often the counts are written (0: only by flush()). */
  flushMs?: number;
  maxKeys?: number;
  onError?: (e: unknown) => void;
}) {
  const counts = new Map<string, Count>();
  const listeners = new Set<(face: AuthFace) => void>();
  let writing: Promise<void> = Promise.resolve();

  async function flush(): Promise<void> {
    if (!counts.size) return writing;
    const rows = [...counts.values()];
    counts.clear();
    // A read-only store (a replica) records nothing; the metrics still count.
    if (store.readOnly) return writing;
    writing = writing.then(() =>
      store
        .write((tx) =>
          tx.events.append(rows.map((r) => ({
            actor: 'anonymous', action: AUTH_FAILED, entity: 'token' as const, entityKey: r.address,
            details: { face: r.face, address: r.address, prefix: r.prefix, count: r.count, minute: new Date(r.minute).toISOString() },
          }))),
        )
        .then(() => undefined, (e) => onError?.(e)),
    );
    return writing;
  }

  const timer = flushMs > 0 ? setInterval(() => void flush(), flushMs) : undefined;
  timer?.unref();

  return {
    /** Counts one refused request; never waits and never fails it. */
    record(f: AuthFailure): void {
      const face = (AUTH_FACES as readonly string[]).includes(f.face) ? f.face : 'admin';
      for (const fn of listeners) fn(face);
      const minute = Math.floor(now() / MINUTE_MS) * MINUTE_MS;
      let address = f.address.slice(0, 64);
      let prefix = failurePrefix(f.presented);
      let key = `${minute}|${face}|${address}|${prefix}`;
      if (!counts.has(key) && counts.size >= maxKeys) {
        address = OVERFLOW;
        prefix = '';
        key = `${minute}|${face}|${address}|`;
      }
      const c = counts.get(key);
      if (c) c.count++;
      else counts.set(key, { minute, face, address, prefix, count: 1 });
    },
    /** Told of every failure as it happens (the metrics counter). */
    subscribe(fn: (face: AuthFace) => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    /** Writes the counts so far (the timer does it every minute; tests and shutdown call it). */
    flush,
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      await flush();
    },
  };
}

export type AuthFailureLog = ReturnType<typeof createAuthFailureLog>;
