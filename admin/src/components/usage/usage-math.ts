// Small pure helpers for the usage screens (no imports: test/admin runs them under Node).

/** What the rule needs of GET /prompts/{name}/usage's clients. */
interface ClientUsage { client: string; lastVersion: number | null; lastLabel: string | null; lastServedAt: string | null }

export interface StaleClient { client: string; lastVersion: number; label: string; target: number; lastServedAt: string | null }

/**
 * Clients whose last fetch got another version than the one their label points at now:
 * the label they last asked for, or production (the default) when they named none or
 * that label is gone.
 */
export function staleClients(clients: readonly ClientUsage[], labels: Record<string, number>, productionVersion: number | null): StaleClient[] {
  const out: StaleClient[] = [];
  for (const c of clients) {
    if (c.lastVersion == null) continue;
    const own = c.lastLabel != null && labels[c.lastLabel] !== undefined ? c.lastLabel : null;
    const label = own ?? 'production';
    const target = own ? labels[own]! : (labels.production ?? productionVersion);
    if (target == null || target === c.lastVersion) continue;
    out.push({ client: c.client, lastVersion: c.lastVersion, label, target, lastServedAt: c.lastServedAt });
  }
  return out.sort((a, b) => a.client.localeCompare(b.client));
}

/** "2.5 %" of fetches that failed; "0 %" when nothing was fetched. */
export function errorRate(errors: number, fetches: number): string {
  if (!fetches) return '0 %';
  const pct = (errors / fetches) * 100;
  return `${pct < 10 && pct % 1 ? pct.toFixed(1) : Math.round(pct)} %`;
}

/** Colours of a chart's series, as CSS custom properties (usage.css defines them per theme). */
export const CHART_COLORS = ['--chart-1', '--chart-2', '--chart-3', '--chart-4', '--chart-5', '--chart-6'];

const fmt = {
  minute: new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }),
  hour: new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit' }),
  // Day buckets start at UTC midnight: shown as that UTC date, whatever the browser's zone.
  day: new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
};

/** A bucket's start as a short axis label. */
export function bucketLabel(iso: string, bucket: 'minute' | 'hour' | 'day'): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : fmt[bucket].format(t);
}
