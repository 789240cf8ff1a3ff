// `promptd sync --watch` and `promptd serve --sync`: the directory tree is watched
// (dir-watch.ts: its directories, not its files' inodes, so saves that replace a file are
// seen), debounced so an editor's save or a `git checkout` touching many files becomes
// one sync run, and runs are serialized so two never plan against each other's
// half-written state.
import { watchTree } from './dir-watch.js';
import type { Core } from '../core/index.js';
import { syncOnce, type SyncOptions, type SyncReport } from './sync.js';

export const DEFAULT_DEBOUNCE_MS = 200;

export interface WatchOptions extends SyncOptions {
  debounceMs?: number;
  onReport?: (r: SyncReport) => void;
  onError?: (e: unknown) => void;
  /** the timer the debounce uses; tests inject fake ones */
  timers?: { setTimeout: (fn: () => void, ms: number) => unknown; clearTimeout: (t: unknown) => void };
}

export interface SyncWatcher {
  /** Runs a sync now (after any run in progress), cancelling a pending debounce. */
  flush(): Promise<SyncReport | undefined>;
  /** Whether a change is waiting for its debounce. */
  readonly pending: boolean;
  close(): Promise<void>;
}

/** Watches `dir`; the first sync runs at once, then one per debounced burst of changes. */
export function watchDirectory(core: Core, dir: string, opts: WatchOptions = {}): SyncWatcher {
  const timers = opts.timers ?? { setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimeout: (t: unknown) => clearTimeout(t as NodeJS.Timeout) };
  const debounceMs = opts.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  let timer: unknown;
  let closed = false;
  let chain: Promise<SyncReport | undefined> = Promise.resolve(undefined);

  const run = (): Promise<SyncReport | undefined> => {
    chain = chain.then(async () => {
      if (closed) return undefined;
      try {
        const r = await syncOnce(core, dir, opts);
        opts.onReport?.(r);
        return r;
      } catch (e) {
        opts.onError?.(e);
        return undefined;
      }
    });
    return chain;
  };
  const flush = () => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
    return run();
  };
  const watcher = watchTree(dir, () => {
    if (closed) return;
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = timers.setTimeout(() => {
      timer = undefined;
      void run();
    }, debounceMs);
  }, (e) => opts.onError?.(e));
  void run();
  return {
    flush,
    get pending() {
      return timer !== undefined;
    },
    async close() {
      closed = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      watcher.close();
      await chain;
    },
  };
}
