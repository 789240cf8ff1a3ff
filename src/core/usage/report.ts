// Answers from summed usage rows: the time series and totals of GET /usage, its CSV
// rows, and one prompt's versions and clients. Pure functions over UsageSum[].
import { DAY_MS, HOUR_MS, MINUTE_MS } from './recorder.js';
import { USAGE_OUTCOMES, type UsageBucket, type UsageOutcome, type UsageSum } from './types.js';

export const BUCKET_MS: Record<UsageBucket, number> = { minute: MINUTE_MS, hour: HOUR_MS, day: DAY_MS };

/** Start of the (UTC) bucket holding `t`. */
export const floorTo = (t: number, bucket: UsageBucket) => t - (t % BUCKET_MS[bucket]);

export interface UsageReport {
  bucket: UsageBucket;
  from: Date;
  to: Date;
  series: { start: Date; fetches: number; errors: number; byVersion: Record<string, number> }[];
  totals: {
    fetches: number;
    errors: number;
    byPrompt: { prompt: string; fetches: number; errors: number }[];
    byVersion: { prompt: string; version: number; fetches: number }[];
    byLabel: { label: string; fetches: number }[];
    /** per client name (every version), with its versions' fetches */
    byClient: { client: string; fetches: number; errors: number; versions: { clientVersion: string; fetches: number }[] }[];
    byOutcome: { outcome: UsageOutcome; fetches: number }[];
  };
}

export interface PromptUsage {
  prompt: string;
  fetches: number;
  errors: number;
  lastServedAt: Date | null;
  versions: { version: number; fetches: number; lastServedAt: Date }[];
  clients: { client: string; clientVersion: string; fetches: number; errors: number; lastVersion: number | null; lastLabel: string | null; lastServedAt: Date }[];
}

const byFetches = <T extends { fetches: number }>(key: (x: T) => string) => (a: T, b: T) => b.fetches - a.fetches || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
const errorsOf = (s: UsageSum) => (s.outcome === 'ok' ? 0 : s.fetches);

function tally<T extends { fetches: number; errors?: number }>(map: Map<string, T>, key: string, make: () => T, s: UsageSum) {
  let t = map.get(key);
  if (!t) map.set(key, (t = make()));
  t.fetches += s.fetches;
  if (t.errors !== undefined) t.errors += errorsOf(s);
}

export function buildReport(sums: UsageSum[], q: { bucket: UsageBucket; from: Date; to: Date; prompt?: string }): UsageReport {
  const size = BUCKET_MS[q.bucket];
  const first = floorTo(q.from.getTime(), q.bucket);
  const count = Math.floor((floorTo(q.to.getTime(), q.bucket) - first) / size) + 1;
  // Every bucket of the range, zero-filled, so a chart has no gaps to guess at.
  const series = Array.from({ length: count }, (_, i) => ({ start: new Date(first + i * size), fetches: 0, errors: 0, byVersion: {} as Record<string, number> }));
  const prompts = new Map<string, { prompt: string; fetches: number; errors: number }>();
  const versions = new Map<string, { prompt: string; version: number; fetches: number }>();
  const labels = new Map<string, { label: string; fetches: number }>();
  const clients = new Map<string, { client: string; fetches: number; errors: number; byVersion: Map<string, number> }>();
  const outcomes = new Map<UsageOutcome, number>(USAGE_OUTCOMES.map((o) => [o, 0]));
  let fetches = 0;
  let errors = 0;
  for (const s of sums) {
    const i = Math.floor((s.start.getTime() - first) / size);
    const point = series[i];
    if (point) {
      point.fetches += s.fetches;
      point.errors += errorsOf(s);
      if (q.prompt !== undefined && s.version > 0) point.byVersion[s.version] = (point.byVersion[s.version] ?? 0) + s.fetches;
    }
    fetches += s.fetches;
    errors += errorsOf(s);
    tally(prompts, s.prompt, () => ({ prompt: s.prompt, fetches: 0, errors: 0 }), s);
    // No version was served for an unknown prompt; a pinned version has no label.
    if (s.version > 0) tally(versions, `${s.prompt}\u0000${s.version}`, () => ({ prompt: s.prompt, version: s.version, fetches: 0 }), s);
    if (s.label) tally(labels, s.label, () => ({ label: s.label, fetches: 0 }), s);
    tally(clients, s.client, () => ({ client: s.client, fetches: 0, errors: 0, byVersion: new Map() }), s);
    const cv = clients.get(s.client)!.byVersion;
    cv.set(s.clientVersion, (cv.get(s.clientVersion) ?? 0) + s.fetches);
    outcomes.set(s.outcome, (outcomes.get(s.outcome) ?? 0) + s.fetches);
  }
  return {
    bucket: q.bucket,
    from: q.from,
    to: q.to,
    series,
    totals: {
      fetches,
      errors,
      byPrompt: [...prompts.values()].sort(byFetches((x) => x.prompt)),
      byVersion: [...versions.values()].sort(byFetches((x) => `${x.prompt}\u0000${String(x.version).padStart(10, '0')}`)),
      byLabel: [...labels.values()].sort(byFetches((x) => x.label)),
      byClient: [...clients.values()].sort(byFetches((x) => x.client)).map(({ byVersion, ...c }) => ({
        ...c,
        versions: [...byVersion].map(([clientVersion, fetches]) => ({ clientVersion, fetches })).sort(byFetches((x) => x.clientVersion)),
      })),
      byOutcome: USAGE_OUTCOMES.map((outcome) => ({ outcome, fetches: outcomes.get(outcome) ?? 0 })),
    },
  };
}

export interface UsageCsvRow {
  start: Date;
  prompt: string;
  version: number;
  label: string;
  client: string;
  clientVersion: string;
  outcome: UsageOutcome;
  fetches: number;
}

/** One row per bucket × prompt × version × label × client × outcome, in that order. */
export function csvRows(sums: UsageSum[], bucket: UsageBucket): UsageCsvRow[] {
  const rows = new Map<string, UsageCsvRow>();
  for (const s of sums) {
    const start = floorTo(s.start.getTime(), bucket);
    const key = [start, s.prompt, s.version, s.label, s.client, s.clientVersion, s.outcome].join('\u0000');
    const r = rows.get(key);
    if (r) r.fetches += s.fetches;
    else rows.set(key, { start: new Date(start), prompt: s.prompt, version: s.version, label: s.label, client: s.client, clientVersion: s.clientVersion, outcome: s.outcome, fetches: s.fetches });
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...rows.values()].sort(
    (a, b) => a.start.getTime() - b.start.getTime() || cmp(a.prompt, b.prompt) || a.version - b.version || cmp(a.label, b.label) || cmp(a.client, b.client) || cmp(a.clientVersion, b.clientVersion) || cmp(a.outcome, b.outcome),
  );
}

/**
 * A cell as CSV. Client names come from User-Agents and clientInfo, and rows written
 * before recording cleaned them may hold anything: control and format characters
 * (ESC sequences, NUL, bidi overrides) are removed, and a cell that starts with =, +,
 * - or @, after any leading whitespace (spreadsheets skip it: " =3+3" is a formula),
 * gets a leading '. Then quoted when needed.
 */
export function csvCell(v: string | number): string {
  if (typeof v === 'number') return String(v);
  let s = v.replace(/\p{C}/gu, '');
  if (/^\s*[=+\-@]/u.test(s)) s = `'${s}`;
  return /[",\u2028\u2029]|^\s|\s$/u.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_HEADER = ['start', 'prompt', 'version', 'label', 'client', 'clientVersion', 'outcome', 'fetches'] as const;

export function toCsv(rows: UsageCsvRow[]): string {
  const lines = [CSV_HEADER.join(',')];
  for (const r of rows) lines.push([r.start.toISOString(), r.prompt, r.version > 0 ? r.version : '', r.label, r.client, r.clientVersion, r.outcome, r.fetches].map(csvCell).join(','));
  return lines.join('\r\n') + '\r\n';
}

export function buildPromptUsage(prompt: string, sums: UsageSum[]): PromptUsage {
  let fetches = 0;
  let errors = 0;
  let last = 0;
  const versions = new Map<number, { version: number; fetches: number; lastServedAt: number }>();
  const clients = new Map<string, { client: string; clientVersion: string; fetches: number; errors: number; lastVersion: number | null; lastLabel: string | null; lastServedAt: number; lastServedVersionAt: number }>();
  for (const s of sums) {
    const at = s.lastAt.getTime();
    fetches += s.fetches;
    errors += errorsOf(s);
    last = Math.max(last, at);
    if (s.version > 0) {
      const v = versions.get(s.version) ?? { version: s.version, fetches: 0, lastServedAt: 0 };
      v.fetches += s.fetches;
      v.lastServedAt = Math.max(v.lastServedAt, at);
      versions.set(s.version, v);
    }
    const c = clients.get(s.client) ?? { client: s.client, clientVersion: s.clientVersion, fetches: 0, errors: 0, lastVersion: null, lastLabel: null, lastServedAt: 0, lastServedVersionAt: 0 };
    c.fetches += s.fetches;
    c.errors += errorsOf(s);
    // One entry per client name across its upgrades; the version it last ran is shown.
    if (at >= c.lastServedAt) c.clientVersion = s.clientVersion;
    c.lastServedAt = Math.max(c.lastServedAt, at);
    // The version this client got most recently: after a label moved, an old number here
    // is a client still fetching the old version.
    if (s.version > 0 && at >= c.lastServedVersionAt) {
      c.lastServedVersionAt = at;
      c.lastVersion = s.version;
      c.lastLabel = s.label || null;
    }
    clients.set(s.client, c);
  }
  return {
    prompt,
    fetches,
    errors,
    lastServedAt: last ? new Date(last) : null,
    versions: [...versions.values()].sort((a, b) => b.version - a.version).map((v) => ({ ...v, lastServedAt: new Date(v.lastServedAt) })),
    clients: [...clients.values()]
      .sort(byFetches((x) => x.client))
      .map(({ lastServedVersionAt: _, ...c }) => ({ ...c, lastServedAt: new Date(c.lastServedAt) })),
  };
}
