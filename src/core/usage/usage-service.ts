// The usage use cases: faces record served requests (src/core/usage/recorder.ts) and
// the admin API asks for series, totals, CSV rows and one prompt's clients.
import { DomainError } from '../errors.js';
import type { Repositories } from '../ports.js';
import { createUsageRecorder, DAY_MS, HOUR_MS, type UsageRecorderOptions } from './recorder.js';
import { BUCKET_MS, buildPromptUsage, buildReport, csvRows, floorTo, toCsv, type PromptUsage, type UsageReport } from './report.js';
import type { UsageBucket, UsageFilter, UsageSum } from './types.js';

/** Buckets one answer may hold (minute buckets over about two weeks). */
export const MAX_SERIES_BUCKETS = 20_000;
export const DEFAULT_RANGE_MS = 30 * DAY_MS;

export interface UsageQuery {
  /** a prompt's current name: its usage under every name it had */
  prompt?: string;
  label?: string;
  /** a client's name: every version of it */
  client?: string;
  clientVersion?: string;
  /** default: `to` minus 30 days */
  from?: Date;
  /** default: now */
  to?: Date;
  /** default: day */
  bucket?: UsageBucket;
}

const invalid = (path: string, message: string) => new DomainError('validation', `${path}: ${message}`, [{ path, message }]);

/** `30d`, `12h`, `2w`, `90m` as milliseconds; undefined when it is not such a duration. */
export function parseDuration(s: string): number | undefined {
  const m = /^(\d{1,6})(m|h|d|w)$/.exec(s);
  if (!m) return undefined;
  const unit = { m: 60_000, h: HOUR_MS, d: DAY_MS, w: 7 * DAY_MS }[m[2] as 'm' | 'h' | 'd' | 'w'];
  return Number(m[1]) * unit;
}

export function createUsageService(opts: UsageRecorderOptions & { read: Repositories }) {
  const recorder = createUsageRecorder(opts);
  const now = opts.now ?? Date.now;
  const { read } = opts;

  function range(q: UsageQuery, maxBuckets?: { bucket: UsageBucket }) {
    const to = q.to ?? new Date(now());
    const from = q.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
    if (from.getTime() > to.getTime()) throw invalid('from', 'must not be after `to`');
    if (maxBuckets) {
      const b = maxBuckets.bucket;
      const n = (floorTo(to.getTime(), b) - floorTo(from.getTime(), b)) / BUCKET_MS[b] + 1;
      if (n > MAX_SERIES_BUCKETS) throw invalid('bucket', `${n} ${b} buckets from \`from\` to \`to\`; at most ${MAX_SERIES_BUCKETS}: use a larger bucket or a shorter range`);
    }
    return { from, to };
  }

  /**
   * Stored rows plus what this process holds unflushed. `prompt` names a prompt now: its
   * rows are found by its id (every name it was served under); a name no prompt has
   * finds the rows recorded under it without one ((unknown), a purged prompt).
   */
  async function sums(q: Omit<UsageFilter, 'promptId' | 'promptName'> & { prompt?: string; promptId?: number }): Promise<UsageSum[]> {
    const { prompt, ...rest } = q;
    const filter: UsageFilter = { ...rest };
    if (prompt !== undefined && filter.promptId === undefined) {
      const id = (await read.usage.promptIds([prompt])).get(prompt);
      if (id !== undefined) filter.promptId = id;
      else filter.promptName = prompt;
    }
    const pending = recorder.pending(filter);
    // Pending counts carry the version id or the name served under: resolved as a flush
    // resolves them (UsageRepository.append), and shown under the prompt's name now.
    const served = pending.filter((s) => s.version > 0);
    const byVersion = await read.usage.promptIdsOfVersions(served.flatMap((s) => (s.versionId !== undefined ? [s.versionId] : [])));
    const byName = await read.usage.promptIds(served.map((s) => s.prompt));
    const idOf = (s: UsageSum) => (s.versionId !== undefined ? byVersion.get(s.versionId) : undefined) ?? byName.get(s.prompt) ?? null;
    const resolved = pending.map((s): UsageSum => {
      const { versionId: _, ...rest } = s;
      return s.version > 0 ? { ...rest, promptId: idOf(s) } : rest;
    });
    const names = await read.usage.promptNames(resolved.flatMap((s) => (s.promptId !== null ? [s.promptId] : [])));
    const mine = resolved
      .map((s) => (s.promptId !== null ? { ...s, prompt: names.get(s.promptId) ?? s.prompt } : s))
      .filter((s) => (filter.promptId === undefined || s.promptId === filter.promptId) && (filter.promptName === undefined || (s.promptId === null && s.prompt === filter.promptName)));
    return [...(await read.usage.sums(filter)), ...mine];
  }

  return {
    /** Counts one served request: a Map increment, nothing else. */
    record: recorder.record,
    /** A session's counter of successful renders (recorder.ts): the same counts as record(), cheaper. */
    counter: recorder.counter,
    flush: recorder.flush,
    /** When each prompt (by name) was last served, from this process's unflushed counts (the prompt list merges them). */
    pendingLastServed: recorder.pendingLastServed,
    /** Rollup to hours and retention; runs hourly from the flush timer, tests call it. */
    maintain: recorder.maintain,
    start: recorder.start,
    stop: recorder.stop,

    async report(q: UsageQuery): Promise<UsageReport> {
      const bucket = q.bucket ?? 'day';
      const { from, to } = range(q, { bucket });
      return buildReport(await sums({ from, to, prompt: q.prompt, label: q.label, client: q.client, clientVersion: q.clientVersion }), { bucket, from, to, prompt: q.prompt });
    },

    /** GET /usage.csv: one line per bucket × prompt × version × label × client × outcome. */
    async csv(q: UsageQuery): Promise<string> {
      const bucket = q.bucket ?? 'day';
      const { from, to } = range(q);
      return toCsv(csvRows(await sums({ from, to, prompt: q.prompt, label: q.label, client: q.client, clientVersion: q.clientVersion }), bucket));
    },

    /** One prompt's fetches per version and per client (which clients still get an old version). */
    async ofPrompt(name: string, q: Pick<UsageQuery, 'from' | 'to'>): Promise<PromptUsage> {
      const head = await read.prompts.head(name);
      if (!head) throw new DomainError('not_found', `prompt "${name}" not found`, [{ path: 'name', message: 'no such prompt' }]);
      const { from, to } = range(q);
      // By id: the counts of every name it had (docs/usage.md).
      return buildPromptUsage(name, await sums({ from, to, promptId: head.id }));
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
