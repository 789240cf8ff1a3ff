// Calls for usage (/admin/v1/usage, /usage.csv, /prompts/{name}/usage), through api.ts's typed client.
import type { InferRequestType } from 'hono/client';
import { client, request, requestRaw } from './api';
import type { Ok } from './types';

export type UsageReport = Ok<typeof client.usage.$get>;
export type PromptUsage = Ok<(typeof client.prompts)[':name']['usage']['$get']>;
export type UsageQuery = NonNullable<InferRequestType<typeof client.usage.$get>['query']>;
export type UsageBucket = NonNullable<UsageQuery['bucket']>;

const data = <T>(p: Promise<{ data: T }>) => p.then((r) => r.data);
/** Without empty values (the server would reject `from=`). */
const nonEmpty = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;

export const usageApi = {
  report: (q: UsageQuery, signal?: AbortSignal) => data(request(client.usage.$get, { query: nonEmpty(q) }, { signal })),
  prompt: (name: string, signal?: AbortSignal) =>
    data(request(client.prompts[':name'].usage.$get, { param: { name: encodeURIComponent(name) }, query: {} }, { signal })),
  /** The CSV as a Blob: fetched with the bearer header (the token never goes in a URL), saved by the caller. */
  csv: async (q: UsageQuery) => (await requestRaw(client['usage.csv'].$get, { query: nonEmpty(q) }, { headers: { Accept: 'text/csv' } })).blob(),
};

/** Saves a Blob as a file through a temporary object URL. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked after the click has been handled (Chromium reads the URL asynchronously).
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The time ranges the dashboard offers. */
export const RANGES = {
  '24h': { label: 'Last 24 hours', ms: 24 * 3600_000, bucket: 'hour', unusedFor: '1d' },
  '7d': { label: 'Last 7 days', ms: 7 * 86400_000, bucket: 'day', unusedFor: '7d' },
  '30d': { label: 'Last 30 days', ms: 30 * 86400_000, bucket: 'day', unusedFor: '30d' },
} as const satisfies Record<string, { label: string; ms: number; bucket: UsageBucket; unusedFor: string }>;
export type RangeKey = keyof typeof RANGES;

export const OUTCOME_LABELS: Record<UsageReport['totals']['byOutcome'][number]['outcome'], string> = {
  ok: 'Served', invalid_arguments: 'Invalid arguments', not_found: 'Not found', error: 'Server error',
};
