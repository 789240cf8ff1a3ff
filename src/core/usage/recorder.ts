// The hot path of usage: each served request is one Map increment in memory. A timer
// flushes the counts as per-minute rows in ONE batched write (every 10 s and on stop),
// and now and then rolls old minutes up to hours and deletes what is past retention.
// Never a database write per request.
import { isDomainError } from '../errors.js';
import type { Store } from '../ports.js';
import { USAGE_TEXT_MAX, usageText, type UsageFilter, type UsageHit, type UsageRow, type UsageSum } from './types.js';

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
  /** Distinct counters one client may add between flushes (default MAX_CELLS_PER_CLIENT). */
  maxCellsPerClient?: number;
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
  /** flushes in which this row, written on its own, was refused */
  failures?: number;
}

const SEP = '\u0000';
/**
 * Distinct counters held between flushes. Prompt and client names come from requests
 * (an unknown prompt's name, a clientInfo), so a client inventing names could otherwise
 * grow memory and the next insert without bound: past this, new combinations are
 * counted under OVERFLOW.
 */
export const MAX_CELLS = 5_000;
/**
 * Distinct counters one client (by name) adds between flushes: past this, its
 * new combinations count under the prompt OVERFLOW with its name, so one client cannot
 * take the whole MAX_CELLS from the others.
 */
export const MAX_CELLS_PER_CLIENT = 1_000;
export const OVERFLOW = '(other)';
/** A row the database refuses on its own this many flushes running is dropped (and logged once). */
export const MAX_ROW_FAILURES = 3;
/** Writes one flush may spend finding the rows a failed batch could not take (the rest waits). */
const MAX_ISOLATING_WRITES = 64;

const text = (s: string, max: number) => usageText(s, max);
/** Every string of a hit as recorded (types.ts usageText): faces pass request text here. */
function cleanHit(h: UsageHit): UsageHit {
  const prompt = text(h.prompt, USAGE_TEXT_MAX.prompt);
  const label = text(h.label, USAGE_TEXT_MAX.label);
  const client = text(h.client, USAGE_TEXT_MAX.client) || 'unknown';
  const clientVersion = text(h.clientVersion ?? '', USAGE_TEXT_MAX.clientVersion);
  const token = h.token === null ? null : text(h.token, USAGE_TEXT_MAX.token);
  // usageText hands clean text back as is: a clean hit (the usual one) is not copied.
  if (prompt === h.prompt && label === h.label && client === h.client && clientVersion === h.clientVersion && token === h.token) return h;
  return { ...h, prompt, label, client, clientVersion, token };
}

export function createUsageRecorder(opts: UsageRecorderOptions) {
  const now = opts.now ?? Date.now;
  const rollupAfterMs = (opts.rollupAfterDays ?? 7) * DAY_MS;
  const maintainEveryMs = opts.maintainEveryMs ?? HOUR_MS;
  const maxCells = opts.maxCells ?? MAX_CELLS;
  const maxPerClient = opts.maxCellsPerClient ?? MAX_CELLS_PER_CLIENT;
  let cells = new Map<string, Cell>();
  /** Cells each client (by name) added since the last flush. */
  let perClient = new Map<string, number>();
  /** Bumped whenever `cells` is replaced: a counter's cached cells belong to one generation. */
  let generation = 0;
  let flushing: Promise<void> = Promise.resolve();
  let lastMaintained = -Infinity;
  let timer: ReturnType<typeof setInterval> | undefined;

  function record(hit: UsageHit): void {
    count(cleanHit(hit), now());
  }

  /** Counts `hit` (its strings clean) at time `t`; returns its cell (undefined: counted under OVERFLOW). */
  function count(hit: UsageHit, t: number): Cell | undefined {
    const start = t - (t % MINUTE_MS);
    // One string key per (minute, dimensions): the only work a request pays for. No
    // recorded string holds NUL (usageText), so the key is unambiguous.
    const key = start + SEP + hit.prompt + SEP + hit.version + SEP + (hit.versionId ?? '') + SEP + hit.label + SEP + hit.client + SEP + hit.clientVersion + SEP + (hit.token ?? '') + SEP + hit.transport + SEP + hit.outcome;
    let c = cells.get(key);
    if (!c) {
      // A client's share is per name: a new version string per session buys no more.
      const who = hit.client;
      const added = perClient.get(who) ?? 0;
      if (cells.size >= maxCells) {
        hit = { ...hit, prompt: OVERFLOW, version: 0, label: '', client: OVERFLOW, clientVersion: '', token: null };
        const k = start + SEP + OVERFLOW + SEP + hit.transport + SEP + hit.outcome;
        c = cells.get(k);
        if (!c) cells.set(k, (c = { start, hit, fetches: 0, latencyMs: 0, lastAt: t }));
      } else if (added >= maxPerClient) {
        // This client's share is spent: its further combinations count as one, under its name.
        hit = { ...hit, prompt: OVERFLOW, version: 0, label: '' };
        const k = start + SEP + OVERFLOW + SEP + who + SEP + hit.clientVersion + SEP + (hit.token ?? '') + SEP + hit.transport + SEP + hit.outcome;
        c = cells.get(k);
        if (!c) cells.set(k, (c = { start, hit, fetches: 0, latencyMs: 0, lastAt: t }));
      } else perClient.set(who, added + 1);
    }
    if (c) {
      c.fetches++;
      c.latencyMs += hit.latencyMs;
      c.lastAt = t;
      return hit.prompt === OVERFLOW ? undefined : c;
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
  function counter(dims: Pick<UsageHit, 'label' | 'client' | 'clientVersion' | 'token' | 'transport'>): (prompt: string, version: number, latencyMs: number, versionId?: number) => void {
    if (opts.enabled === false) return () => {};
    const { prompt: _, version: _v, outcome: _o, latencyMs: _l, ...fixed } = cleanHit({ ...dims, prompt: '', version: 0, outcome: 'ok', latencyMs: 0 });
    let gen = -1;
    let minute = -1;
    let held = new Map<string, Cell>();
    return (prompt, version, latencyMs, versionId) => {
      const t = now();
      const start = t - (t % MINUTE_MS);
      if (gen !== generation || minute !== start) {
        held = new Map();
        gen = generation;
        minute = start;
      }
      const c = held.get(prompt);
      if (c !== undefined && c.hit.version === version && c.hit.versionId === versionId) {
        c.fetches++;
        c.latencyMs += latencyMs;
        c.lastAt = t;
        return;
      }
      // `prompt` is a served prompt's name (src/mcp/usage.ts), bounded by the name schema.
      const cell = count({ prompt, version, ...(versionId !== undefined ? { versionId } : {}), ...fixed, outcome: 'ok', latencyMs }, t);
      if (cell) held.set(prompt, cell);
    };
  }

  const toRow = (c: Cell): UsageRow => ({
    instance: opts.instance,
    grain: 'minute',
    start: new Date(c.start),
    prompt: c.hit.prompt,
    // The write resolves it from the name (UsageRepository.append).
    promptId: null,
    ...(c.hit.versionId !== undefined ? { versionId: c.hit.versionId } : {}),
    version: c.hit.version,
    label: c.hit.label,
    client: c.hit.client,
    clientVersion: c.hit.clientVersion,
    token: c.hit.token ?? '',
    transport: c.hit.transport,
    outcome: c.hit.outcome,
    fetches: c.fetches,
    latencyMs: c.latencyMs,
    lastAt: new Date(c.lastAt),
  });

  /** Puts counts that could not be written back, so the next flush tries again. */
  function restore(taken: Iterable<[string, Cell]>) {
    for (const [key, c] of taken) {
      const cur = cells.get(key);
      if (!cur) cells.set(key, c);
      else {
        cur.fetches += c.fetches;
        cur.latencyMs += c.latencyMs;
        cur.lastAt = Math.max(cur.lastAt, c.lastAt);
        cur.failures = Math.max(cur.failures ?? 0, c.failures ?? 0);
      }
    }
  }

  type Entry = [string, Cell];
  const write = (entries: Entry[]) => opts.store.write((tx) => tx.usage.append(entries.map(([, c]) => toRow(c))));
  const alive = () => opts.store.ping().then(() => true, () => false);

  /**
   * After a batch failed while the database answers: writes the batch in halves, and
   * halves of a half that fails, down to single rows. Returns the rows refused on their
   * own and those left unwritten when the budget of writes ran out.
   */
  async function isolate(entries: Entry[], budget: { writes: number }): Promise<{ refused: [Entry, unknown][]; left: Entry[] }> {
    const refused: [Entry, unknown][] = [];
    const left: Entry[] = [];
    const split = async (part: Entry[]): Promise<void> => {
      if (budget.writes <= 0) return void left.push(...part);
      budget.writes--;
      try {
        await write(part);
      } catch (e) {
        if (part.length === 1) return void refused.push([part[0]!, e]);
        const mid = part.length >> 1;
        await split(part.slice(0, mid));
        await split(part.slice(mid));
      }
    };
    const mid = entries.length >> 1;
    await split(entries.slice(0, mid));
    await split(entries.slice(mid));
    return { refused, left };
  }

  async function flushOnce(): Promise<void> {
    if (!cells.size) return;
    const taken = cells;
    cells = new Map();
    perClient = new Map();
    generation++;
    if (opts.readOnly) return;
    const entries = [...taken];
    try {
      await write(entries);
      return;
    } catch (e) {
      // A database that is busy or does not answer refuses every row alike: all of them wait.
      if ((isDomainError(e) && e.code === 'unavailable') || !(await alive())) {
        restore(entries);
        throw e;
      }
      if (entries.length === 1) return keepOrDrop([[entries[0]!, e]], e);
      // It answers, so something in this batch is refused (PostgreSQL's 22021 for a NUL
      // was one): one such row must not hold back the others, nor itself forever.
      const { refused, left } = await isolate(entries, { writes: MAX_ISOLATING_WRITES });
      restore(left);
      return keepOrDrop(refused, e);
    }
  }

  /** Rows refused on their own: kept for the next flush, dropped (one log line each) after MAX_ROW_FAILURES. */
  function keepOrDrop(refused: [Entry, unknown][], batchError: unknown): void {
    let kept = false;
    for (const [[key, c], e] of refused) {
      c.failures = (c.failures ?? 0) + 1;
      if (c.failures < MAX_ROW_FAILURES) {
        restore([[key, c]]);
        kept = true;
        continue;
      }
      const h = c.hit;
      const why = e instanceof Error ? e.message : String(e);
      opts.onError?.(new Error(`usage: dropped ${c.fetches} fetches of "${h.prompt}" by "${h.client}" that the database refused ${c.failures} times: ${why}`, { cause: e }));
    }
    if (kept) throw batchError;
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
      if (filter.label !== undefined && h.label !== filter.label) continue;
      if (filter.client !== undefined && h.client !== filter.client) continue;
      if (filter.clientVersion !== undefined && h.clientVersion !== filter.clientVersion) continue;
      out.push({
        start: new Date(c.start), prompt: h.prompt, promptId: null, ...(h.versionId !== undefined ? { versionId: h.versionId } : {}), version: h.version, label: h.label, client: h.client, clientVersion: h.clientVersion,
        outcome: h.outcome, fetches: c.fetches, lastAt: new Date(c.lastAt),
      });
    }
    return out;
  }

  /** When each prompt this process served was last served, from the counts not flushed yet (by name). */
  function pendingLastServed(): Map<string, Date> {
    const out = new Map<string, Date>();
    for (const c of cells.values()) {
      if (c.hit.version === 0) continue; // nothing served: (unknown), (other)
      const seen = out.get(c.hit.prompt);
      if (!seen || seen.getTime() < c.lastAt) out.set(c.hit.prompt, new Date(c.lastAt));
    }
    return out;
  }

  return {
    record: opts.enabled === false ? (_hit: UsageHit) => {} : record,
    counter,
    flush,
    maintain,
    pending,
    pendingLastServed,
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
