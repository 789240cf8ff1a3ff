// The prompt page's usage panel: fetches per day stacked by version, error rate, top
// clients, and the clients still on a version their label no longer points at.
import { useEffect, useId, useState } from 'react';
import { api, errorMessage } from '../../api';
import { usageApi, type PromptUsage, type UsageReport } from '../../usage-api';
import { Banner, Time } from '../bits';
import { BarChart } from './lazy-chart';
import { bucketLabel, CHART_COLORS, errorRate, staleClients, type StaleClient } from './usage-math';
import '../../usage.css';

interface Loaded { usage: PromptUsage; report: UsageReport; labels: Record<string, number> }

export function UsagePanel({ name, activeVersion, revision }: { name: string; activeVersion: number | null; revision: string | number }) {
  const id = useId();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const ctl = new AbortController();
    Promise.all([usageApi.prompt(name, ctl.signal), usageApi.report({ prompt: name, bucket: 'day' }, ctl.signal), api.promptLabels(name)]).then(
      ([usage, report, labels]) => {
        setLoaded({ usage, report, labels: Object.fromEntries(labels.items.map((l) => [l.label, l.version])) });
        setError(null);
      },
      (err) => {
        if ((err as Error).name !== 'AbortError') setError(errorMessage(err));
      },
    );
    return () => ctl.abort();
  }, [name, revision, tick]);

  return (
    <section aria-labelledby={`${id}-h`} className="card usage-panel" data-testid="usage-panel" aria-busy={!loaded && !error}>
      <div className="usage-head">
        <h2 id={`${id}-h`}>Usage</h2>
        <button type="button" className="btn btn-small" data-testid="usage-refresh" onClick={() => setTick((t) => t + 1)}>
          Refresh
        </button>
      </div>
      {error && <Banner kind="error">{error}</Banner>}
      {!loaded && !error && <p className="muted">Loading…</p>}
      {loaded && <UsageBody id={id} loaded={loaded} activeVersion={activeVersion} />}
      <p className="hint">MCP prompts/get, tool calls, the read API and API renders count as fetches; previews in this UI do not.</p>
    </section>
  );
}

function UsageBody({ id, loaded: { usage, report, labels }, activeVersion }: { id: string; loaded: Loaded; activeVersion: number | null }) {
  if (usage.fetches === 0) {
    return (
      <p className="empty usage-empty" data-testid="usage-empty">
        No MCP client has fetched this prompt yet. Fetches, errors and clients show here once one does.
      </p>
    );
  }
  const versions = [...new Set(report.series.flatMap((b) => Object.keys(b.byVersion ?? {})))].map(Number).sort((a, b) => a - b);
  const series = versions.map((v, i) => ({ label: `v${v}`, colorVar: CHART_COLORS[i % CHART_COLORS.length]!, data: report.series.map((b) => b.byVersion?.[String(v)] ?? 0) }));
  const stale = staleClients(usage.clients, labels, activeVersion);
  const clients = [...usage.clients].sort((a, b) => b.fetches - a.fetches);
  return (
    <>
      <dl className="usage-stats" data-testid="usage-stats">
        <div>
          <dt>Fetches</dt>
          <dd data-testid="usage-fetches">{usage.fetches}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd data-testid="usage-errors">
            {usage.errors} <span className="muted">({errorRate(usage.errors, usage.fetches)} of fetches)</span>
          </dd>
        </div>
        <div>
          <dt>Last served</dt>
          <dd>{usage.lastServedAt ? <Time iso={usage.lastServedAt} /> : 'never'}</dd>
        </div>
      </dl>
      <h3 id={`${id}-chart`}>Fetches per day by version, last 30 days</h3>
      {series.length ? (
        <BarChart title="Fetches per day by version, last 30 days" labels={report.series.map((b) => bucketLabel(b.start, report.bucket))} series={series} testId="usage-chart" />
      ) : (
        <p className="muted">No fetches in the last 30 days.</p>
      )}
      {stale.length > 0 && <StaleList id={id} stale={stale} />}
      <h3 id={`${id}-clients`}>Top clients</h3>
      <div className="table-wrap">
        <table className="usage-table" aria-labelledby={`${id}-clients`} data-testid="usage-clients">
          <thead>
            <tr>
              <th scope="col">Client (version)</th>
              <th scope="col" className="num">Fetches</th>
              <th scope="col" className="num">Errors</th>
              <th scope="col">Last got</th>
              <th scope="col">Last fetch</th>
            </tr>
          </thead>
          <tbody>
            {clients.slice(0, 10).map((c) => (
              <tr key={c.client} data-testid="usage-client-row" data-client={c.client}>
                <th scope="row" className="mono">
                  {c.client}
                  {c.clientVersion ? <span className="muted" data-testid="usage-client-version"> {c.clientVersion}</span> : null}
                </th>
                <td className="num" data-testid="usage-client-fetches">{c.fetches}</td>
                <td className="num">{c.errors}</td>
                <td>
                  {c.lastVersion != null ? `v${c.lastVersion}` : '–'}
                  {c.lastLabel ? <span className="muted"> via {c.lastLabel}</span> : null}
                </td>
                <td>{c.lastServedAt ? <Time iso={c.lastServedAt} /> : '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {clients.length > 10 && <p className="hint">{clients.length - 10} more clients not shown.</p>}
    </>
  );
}

function StaleList({ id, stale }: { id: string; stale: StaleClient[] }) {
  return (
    <div className="usage-stale" data-testid="usage-stale">
      <h3 id={`${id}-stale`}>Clients still on an older version</h3>
      <ul aria-labelledby={`${id}-stale`}>
        {stale.map((s) => (
          <li key={s.client} data-testid="usage-stale-client" data-client={s.client} data-version={s.lastVersion}>
            <span className="mono">{s.client}</span> still on <strong>v{s.lastVersion}</strong>
            <span className="muted">
              {' '}
              ({s.label} now points at v{s.target}
              {s.lastServedAt ? <>; last fetched <Time iso={s.lastServedAt} /></> : null})
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
