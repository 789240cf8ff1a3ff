// The hot path of usage: each served request is one Map increment in memory. A timer
// flushes the counts as per-minute rows in ONE batched write (every 10 s and on stop),
// and now and then rolls old minutes up to hours and deletes what is past retention.
// Never a database write per request.
import type { Store } from '../ports.js';
import type { UsageFilter, UsageHit, UsageRow, UsageSum } from './types.js';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export interface UsageRecorderOptions {
  store: Store;
  /** This process's id in the rows it writes (instances sharing a database each flush their own). */
  instance: string;
  /** Days rows are kept (PROMPTD_USAGE_RETENTION_DAYS, default 90). */
  retentionDays: number;
  /** Minute rows older than this many days become hour rows (default 7). */
  rollupAfterDays?: number;
  /** Flush period (default 10 s; 0: only when flush() is called, as tests do). */
  flushMs?: number;
  /** How often a flush tick also rolls up and prunes (default hourly). */
  maintainEveryMs?: number;
  /** Distinct counters held between flushes (default MAX_CELLS). */
  maxCells?: number;
  /** false: nothing is recorded (PROMPTD_USAGE=off); record() does nothing. */
  enabled?: boolean;
  /** Nothing is written (a read-only database): counts are dropped at flush. */
  readOnly?: boolean;
  now?: () => number;
  onError?: (e: unknown) => void;
}

interface Cell {
  start: number;
  hit: UsageHit;
  fetches: number;
  latencyMs: number;
  lastAt: number;
}

const SEP = '\u0000';
/**
 * Distinct counters held between flushes. Prompt and client names come from requests
 * (an unknown prompt's name, a clientInfo), so a client inventing names could otherwise
 * grow memory and the next insert without bound: past this, new combinations are
 * counted under OVERFLOW.
 */
export const MAX_CELLS = 5_000;
export const OVERFLOW = '(other)';

export function createUsageRecorder(opts: UsageRecorderOptions) {
  const now = opts.now ?? Date.now;
  const rollupAfterMs = (opts.rollupAfterDays ?? 7) * DAY_MS;
  const maintainEveryMs = opts.maintainEveryMs ?? HOUR_MS;
  const maxCells = opts.maxCells ?? MAX_CELLS;
  let cells = new Map<string, Cell>();
  /** Bumped whenever `cells` is replaced: a counter's cached cells belong to one generation. */
  let generation = 0;
  let flushing: Promise<void> = Promise.resolve();
  let lastMaintained = -Infinity;
  let timer: ReturnType<typeof setInterval> | undefined;

  function record(hit: UsageHit): void {
    count(hit, now());
  }

  /** Counts `hit` at time `t`; returns its cell (undefined: counted under OVERFLOW). */
  function count(hit: UsageHit, t: number): Cell | undefined {
    const start = t - (t % MINUTE_MS);
    // One string key per (minute, dimensions): the only work a request pays for.
    const key = start + SEP + hit.prompt + SEP + hit.version + SEP + hit.label + SEP + hit.client + SEP + (hit.token ?? '') + SEP + hit.transport + SEP + hit.outcome;
    let c = cells.get(key);
    if (!c && cells.size >= maxCells) {
      hit = { ...hit, prompt: OVERFLOW, version: 0, label: '', client: OVERFLOW, token: null };
      c = cells.get(start + SEP + OVERFLOW + SEP + hit.transport + SEP + hit.outcome);
      if (!c) cells.set(start + SEP + OVERFLOW + SEP + hit.transport + SEP + hit.outcome, (c = { start, hit, fetches: 0, latencyMs: 0, lastAt: t }));
    }
    if (c) {
      c.fetches++;
      c.latencyMs += hit.latencyMs;
      c.lastAt = t;
      return hit.prompt === OVERFLOW && hit.client === OVERFLOW ? undefined : c;
    }
    cells.set(key, (c = { start, hit, fetches: 1, latencyMs: hit.latencyMs, lastAt: t }));
    return c;
  }

  /**
   * A counter for one session's successful renders (the hot path of prompts/get): the
   * dimensions that never change for the session are given once, and the cell of each
   * prompt is kept for the current minute, so a repeated fetch is three field updates,
   * with no key string and no object built.
   */
  function counter(fixed: Pick<UsageHit, 'label' | 'client' | 'token' | 'transport'>): (prompt: string, version: number, latencyMs: number) => void {
    if (opts.enabled === false) return () => {};
    let gen = -1;
    let minute = -1;
    let held = new Map<string, Cell>();
    return (prompt, version, latencyMs) => {
      const t = now();
      const start = t - (t % MINUTE_MS);
      if (gen !== generation || minute !== start) {
        held = new Map();
        gen = generation;
        minute = start;
      }
      const c = held.get(prompt);
      if (c !== undefined && c.hit.version === version) {
        c.fetches++;
        c.latencyMs += latencyMs;
        c.lastAt = t;
        return;
      }
      const cell = count({ prompt, version, ...fixed, outcome: 'ok', latencyMs }, t);
      if (cell) held.set(prompt, cell);
    };
  }

  const toRow = (c: Cell): UsageRow => ({
    instance: opts.instance,
    grain: 'minute',
    start: new Date(c.start),
    prompt: c.hit.prompt,
    version: c.hit.version,
    label: c.hit.label,
    client: c.hit.client,
    token: c.hit.token ?? '',
    transport: c.hit.transport,
    outcome: c.hit.outcome,
    fetches: c.fetches,
    latencyMs: c.latencyMs,
    lastAt: new Date(c.lastAt),
  });

  /** Puts counts that could not be written back, so the next flush tries again. */
  function restore(taken: Map<string, Cell>) {
    for (const [key, c] of taken) {
      const cur = cells.get(key);
      if (!cur) cells.set(key, c);
      else {
        cur.fetches += c.fetches;
        cur.latencyMs += c.latencyMs;
        cur.lastAt = Math.max(cur.lastAt, c.lastAt);
      }
    }
  }

  async function flushOnce(): Promise<void> {
    if (!cells.size) return;
    const taken = cells;
    cells = new Map();
    generation++;
    if (opts.readOnly) return;
    const rows = [...taken.values()].map(toRow);
    try {
      await opts.store.write((tx) => tx.usage.append(rows));
    } catch (e) {
      restore(taken);
      throw e;
    }
  }

  /** Writes the counts held in memory as one batched insert (flushes run one at a time). */
  function flush(): Promise<void> {
    const next = flushing.then(flushOnce);
    flushing = next.catch(() => {});
    return next;
  }

  /** Rolls minute rows older than the rollup age up to hours and deletes rows past retention. */
  async function maintain(): Promise<{ rolledUp: number; pruned: number }> {
    if (opts.readOnly) return { rolledUp: 0, pruned: 0 };
    const t = now();
    lastMaintained = t;
    // Whole hours only, so an hour is never split between a minute part and an hour row.
    const cutoff = t - rollupAfterMs;
    const rollBefore = new Date(cutoff - (cutoff % HOUR_MS));
    const pruneBefore = new Date(t - opts.retentionDays * DAY_MS);
    return opts.store.write(async (tx) => ({ pruned: await tx.usage.prune(pruneBefore), rolledUp: await tx.usage.rollUp(rollBefore) }));
  }

  async function tick() {
    try {
      await flush();
      if (now() - lastMaintained >= maintainEveryMs) await maintain();
    } catch (e) {
      opts.onError?.(e);
    }
  }

  /** The counts not flushed yet, summed like UsageRepository.sums (so answers include them). */
  function pending(filter: UsageFilter): UsageSum[] {
    const from = filter.from.getTime();
    const to = filter.to.getTime();
    const out: UsageSum[] = [];
    for (const c of cells.values()) {
      const h = c.hit;
      if (c.start < from || c.start > to) continue;
      if (filter.prompt !== undefined && h.prompt !== filter.prompt) continue;
      if (filter.label !== undefined && h.label !== filter.label) continue;
      if (filter.client !== undefined && h.client !== filter.client) continue;
      out.push({ start: new Date(c.start), prompt: h.prompt, version: h.version, label: h.label, client: h.client, outcome: h.outcome, fetches: c.fetches, lastAt: new Date(c.lastAt) });
    }
    return out;
  }

  return {
    record: opts.enabled === false ? (_hit: UsageHit) => {} : record,
    counter,
    flush,
    maintain,
    pending,
    start() {
      if (timer || !opts.flushMs) return;
      timer = setInterval(() => void tick(), opts.flushMs);
      timer.unref?.();
    },
    /** Stops the timer and flushes what is held (graceful shutdown). */
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flush();
    },
  };
}

export type UsageRecorder = ReturnType<typeof createUsageRecorder>;
