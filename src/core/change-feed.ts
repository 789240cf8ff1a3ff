// Watches the change log and hands new events to subscribers (cache invalidation,
// MCP notifications, the admin SSE stream), in this process and across processes.
// Local writes call poke() right after commit. Other processes' writes are found
// cheaply: on SQLite by polling `PRAGMA data_version` (it changes only when another
// connection commits); on PostgreSQL by LISTEN/NOTIFY, with a slow poll of the newest
// event id as a safety net. Events are read only when something changed.
import type { Db } from '../db/create-db.js';
import type { ChangeEvent } from './types.js';
import { eventsAfter, lastEventId } from './repo/events-repo.js';
import { listenForChanges, type PgListener } from './pg-listener.js';

export type ChangeListener = (events: ChangeEvent[]) => void | Promise<void>;

export interface ChangeFeed {
  subscribe(fn: ChangeListener): () => void;
  /** Reads and delivers events committed since the last delivery. */
  poke(): Promise<void>;
  start(): Promise<void>;
  /** Stops following; resolves once no query of the feed is in flight (so the database can be closed). */
  stop(): Promise<void>;
  lastId(): number;
  since(id: number, limit?: number): Promise<ChangeEvent[]>;
}

export function createChangeFeed(db: Db, opts: { pollMs?: number; onError?: (e: unknown) => void } = {}): ChangeFeed {
  const pollMs = opts.pollMs ?? (db.provider === 'sqlite' ? 25 : 1_000);
  let listener: PgListener | undefined;
  const listeners = new Set<ChangeListener>();
  let last = 0;
  let marker: unknown;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let ticking: Promise<void> = Promise.resolve();
  let queued = false;
  let stopped = false;
  // A query issued after the database is closed would quietly reopen its pool and keep
  // the process alive, so nothing runs once stop() has been called.
  const schedule = () => setTimeout(() => (ticking = tick()), pollMs).unref();

  async function readMarker(): Promise<unknown> {
    if (db.provider === 'sqlite') {
      const rows = await db.prisma.$queryRawUnsafe<{ data_version: bigint | number }[]>('PRAGMA data_version');
      return Number(rows[0]?.data_version ?? 0);
    }
    return lastEventId(db.prisma);
  }

  async function drain(): Promise<void> {
    for (;;) {
      const batch = await eventsAfter(db.prisma, last, 1000);
      if (!batch.length) return;
      last = batch.at(-1)!.id;
      for (const fn of listeners) {
        try {
          await fn(batch);
        } catch (e) {
          opts.onError?.(e);
        }
      }
      if (batch.length < 1000) return;
    }
  }

  // Serialised: a poke during a drain runs one more drain after it, so events
  // committed mid-drain are never skipped and never delivered twice.
  function poke(): Promise<void> {
    if (queued || stopped) return running;
    queued = true;
    running = running.then(() => {
      queued = false;
      return drain();
    }).catch((e) => opts.onError?.(e));
    return running;
  }

  async function tick() {
    if (stopped) return;
    try {
      const m = await readMarker();
      if (m !== marker) {
        marker = m;
        await poke();
      }
    } catch (e) {
      opts.onError?.(e);
    }
    if (timer !== undefined && !stopped) timer = schedule();
  }

  return {
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    poke,
    async start() {
      if (timer !== undefined) return;
      last = await lastEventId(db.prisma);
      marker = await readMarker();
      timer = schedule();
      if (db.provider === 'postgresql') listener = listenForChanges(db.url, () => void poke(), opts.onError);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      const l = listener;
      listener = undefined;
      await Promise.all([l?.close(), ticking, running]);
    },
    lastId: () => last,
    since: (id, limit = 1000) => eventsAfter(db.prisma, id, limit),
  };
}
