// Watches the change log and hands new events to subscribers (cache invalidation,
// MCP notifications, the admin SSE stream), in this process and across processes.
// Local writes call poke() right after commit. Other processes' writes are found
// cheaply: by polling the store's change marker (SQLite's `PRAGMA data_version` changes
// only when another connection commits) and, where the database can push (PostgreSQL's
// LISTEN/NOTIFY), on a wake-up, with the poll as a safety net. Events are read only
// when something changed.
import type { ChangeEvent } from './types.js';
import type { Store } from './ports.js';

export type ChangeListener = (events: ChangeEvent[]) => void | Promise<void>;

export interface ChangeFeed {
  subscribe(fn: ChangeListener): () => void;
  /** Reads and delivers events committed since the last delivery. */
  poke(): Promise<void>;
  start(): Promise<void>;
  /** Stops following; resolves once no query of the feed is in flight (so the database can be closed). */
  stop(): Promise<void>;
  lastId(): number;
  /** Subscribers now held (benchmarks check they go back to baseline). */
  listenerCount(): number;
  since(id: number, limit?: number): Promise<ChangeEvent[]>;
}

type FeedStore = Pick<Store, 'read' | 'changeMarker' | 'pollMs' | 'listen'>;

export function createChangeFeed(store: FeedStore, opts: { pollMs?: number; onError?: (e: unknown) => void } = {}): ChangeFeed {
  const pollMs = opts.pollMs ?? store.pollMs;
  const events = store.read.events;
  let listener: { close(): Promise<void> } | undefined;
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

  const readMarker = () => store.changeMarker();

  async function drain(): Promise<void> {
    for (;;) {
      const batch = await events.after(last, 1000);
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
    listenerCount: () => listeners.size,
    async start() {
      if (timer !== undefined) return;
      last = await events.lastId();
      marker = await readMarker();
      timer = schedule();
      listener = store.listen(() => void poke(), opts.onError ?? (() => {}));
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
    since: (id, limit = 1000) => events.after(id, limit),
  };
}
