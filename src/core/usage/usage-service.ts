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
  prompt?: string;
  label?: string;
  client?: string;
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

  /** Stored rows plus what this process holds unflushed. */
  async function sums(filter: UsageFilter): Promise<UsageSum[]> {
    return [...(await read.usage.sums(filter)), ...recorder.pending(filter)];
  }

  return {
    /** Counts one served request: a Map increment, nothing else. */
    record: recorder.record,
    /** A session's counter of successful renders (recorder.ts): the same counts as record(), cheaper. */
    counter: recorder.counter,
    flush: recorder.flush,
    /** Rollup to hours and retention; runs hourly from the flush timer, tests call it. */
    maintain: recorder.maintain,
    start: recorder.start,
    stop: recorder.stop,

    async report(q: UsageQuery): Promise<UsageReport> {
      const bucket = q.bucket ?? 'day';
      const { from, to } = range(q, { bucket });
      return buildReport(await sums({ from, to, prompt: q.prompt, label: q.label, client: q.client }), { bucket, from, to, prompt: q.prompt });
    },

    /** GET /usage.csv: one line per bucket × prompt × version × label × client × outcome. */
    async csv(q: UsageQuery): Promise<string> {
      const bucket = q.bucket ?? 'day';
      const { from, to } = range(q);
      return toCsv(csvRows(await sums({ from, to, prompt: q.prompt, label: q.label, client: q.client }), bucket));
    },

    /** One prompt's fetches per version and per client (which clients still get an old version). */
    async ofPrompt(name: string, q: Pick<UsageQuery, 'from' | 'to'>): Promise<PromptUsage> {
      if (!(await read.prompts.head(name))) throw new DomainError('not_found', `prompt "${name}" not found`, [{ path: 'name', message: 'no such prompt' }]);
      const { from, to } = range(q);
      return buildPromptUsage(name, await sums({ from, to, prompt: name }));
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
