// The usage dashboard (/admin/usage): fetches over time, top prompts, errors, labels,
// clients and unused prompts for a chosen range, and the numbers as a CSV download.
import { useEffect, useId, useState, type ReactNode } from 'react';
import { api, errorMessage } from '../../api';
import { href, Link, navigate } from '../../router';
import type { PromptSummary } from '../../types';
import { OUTCOME_LABELS, RANGES, saveBlob, usageApi, type RangeKey, type UsageQuery, type UsageReport } from '../../usage-api';
import { Banner, Time } from '../bits';
import { BarChart } from './lazy-chart';
import { bucketLabel, errorRate } from './usage-math';
import '../../usage.css';

function rangeFrom(search: URLSearchParams): RangeKey {
  const r = search.get('range');
  return r && r in RANGES ? (r as RangeKey) : '30d';
}

/** The report's query for a range, ending now. */
function queryFor(range: RangeKey, now = Date.now()): UsageQuery {
  const r = RANGES[range];
  return { from: new Date(now - r.ms).toISOString(), to: new Date(now).toISOString(), bucket: r.bucket };
}

export function UsagePage({ search }: { search: URLSearchParams }) {
  const id = useId();
  const range = rangeFrom(search);
  // Pinned when the range is chosen (or Refresh is pressed): the CSV then matches what is shown.
  const [query, setQuery] = useState<UsageQuery | null>(null);
  const [report, setReport] = useState<UsageReport | null>(null);
  const [unused, setUnused] = useState<{ items: PromptSummary[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);

  useEffect(() => {
    document.title = 'Usage · promptd';
  }, []);
  useEffect(() => setQuery(queryFor(range)), [range]);

  useEffect(() => {
    if (!query) return;
    const ctl = new AbortController();
    setReport(null);
    Promise.all([usageApi.report(query, ctl.signal), api.listPrompts({ unusedFor: RANGES[range].unusedFor, limit: 50 }, ctl.signal)]).then(
      ([r, u]) => {
        setReport(r);
        setUnused(u);
        setError(null);
      },
      (err) => {
        if ((err as Error).name !== 'AbortError') setError(errorMessage(err));
      },
    );
    return () => ctl.abort();
  }, [query]); // eslint-disable-line react-hooks/exhaustive-deps

  const download = async () => {
    if (!query) return;
    setDownloading(true);
    try {
      saveBlob(await usageApi.csv(query), `promptd-usage-${range}.csv`);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section className="page usage-page" aria-labelledby={`${id}-h`}>
      <div className="page-head">
        <div>
          <h1 id={`${id}-h`}>Usage</h1>
          <p className="muted">What MCP clients fetch: prompts, versions, labels, clients and errors.</p>
        </div>
        <div className="toolbar usage-toolbar">
          <div className="field">
            <label htmlFor={`${id}-range`}>Time range</label>
            <select id={`${id}-range`} data-testid="usage-range" value={range} onChange={(e) => navigate(href.usage(e.target.value === '30d' ? '' : `range=${e.target.value}`), { replace: true })}>
              {(Object.keys(RANGES) as RangeKey[]).map((k) => <option key={k} value={k}>{RANGES[k].label}</option>)}
            </select>
          </div>
          <button type="button" className="btn" data-testid="usage-csv" onClick={download} disabled={downloading}>
            {downloading ? 'Preparing…' : 'Download CSV'}
          </button>
          <button type="button" className="btn" data-testid="usage-reload" onClick={() => setQuery(queryFor(range))}>
            Refresh
          </button>
        </div>
      </div>
      {error && <Banner kind="error">{error}</Banner>}
      <p className="sr-only" role="status">{report ? `Usage for the ${RANGES[range].label.toLowerCase()} loaded.` : ''}</p>
      {!report && !error && <p className="muted">Loading…</p>}
      {report && <Dashboard id={id} report={report} range={range} unused={unused} />}
    </section>
  );
}

function Dashboard({ id, report, range, unused }: { id: string; report: UsageReport; range: RangeKey; unused: { items: PromptSummary[]; total: number } | null }) {
  const t = report.totals;
  const what = RANGES[range].label.toLowerCase();
  const perBucket = report.bucket === 'hour' ? 'hour' : report.bucket === 'minute' ? 'minute' : 'day';
  const failing = t.byPrompt.filter((p) => p.errors > 0).sort((a, b) => b.errors - a.errors).slice(0, 10);
  return (
    <>
      <dl className="usage-stats card" data-testid="usage-totals">
        <div>
          <dt>Fetches</dt>
          <dd data-testid="usage-total-fetches">{t.fetches}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd data-testid="usage-total-errors">
            {t.errors} <span className="muted">({errorRate(t.errors, t.fetches)} of fetches)</span>
          </dd>
        </div>
        <div>
          <dt>Prompts fetched</dt>
          <dd>{t.byPrompt.length}</dd>
        </div>
        <div>
          <dt>Clients</dt>
          <dd>{t.byClient.length}</dd>
        </div>
      </dl>
      <section className="card" aria-labelledby={`${id}-over`}>
        <h2 id={`${id}-over`}>Fetches per {perBucket}, {what}</h2>
        {t.fetches === 0 ? (
          <p className="empty usage-empty" data-testid="usage-empty">No MCP client fetched a prompt in this range.</p>
        ) : (
          <BarChart
            title={`Fetches per ${perBucket}, ${what}`}
            labels={report.series.map((b) => bucketLabel(b.start, report.bucket))}
            series={[
              { label: 'Served', colorVar: '--chart-1', data: report.series.map((b) => b.fetches - b.errors) },
              { label: 'Errors', colorVar: '--chart-error', data: report.series.map((b) => b.errors) },
            ]}
            testId="usage-overall-chart"
          />
        )}
      </section>
      <div className="usage-grid">
        <Ranked id={`${id}-top`} title="Top prompts" testId="usage-top-prompts" empty="No prompt was fetched." cols={['Prompt', 'Fetches', 'Errors']}
          rows={[...t.byPrompt].sort((a, b) => b.fetches - a.fetches).slice(0, 10).map((p) => ({ key: p.prompt, cells: [<PromptLink name={p.prompt} />, p.fetches, p.errors] }))} />
        <section className="card" aria-labelledby={`${id}-err`} data-testid="usage-errors-card">
          <h2 id={`${id}-err`}>Errors</h2>
          <Table caption="Fetches by outcome" testId="usage-outcomes" cols={['Outcome', 'Fetches']}
            rows={t.byOutcome.map((o) => ({ key: o.outcome, cells: [OUTCOME_LABELS[o.outcome] ?? o.outcome, o.fetches] }))} />
          <h3>Top failing prompts</h3>
          {failing.length ? (
            <Table caption="Prompts with the most failed fetches" testId="usage-failing" cols={['Prompt', 'Errors', 'Error rate']}
              rows={failing.map((p) => ({ key: p.prompt, cells: [<PromptLink name={p.prompt} />, p.errors, errorRate(p.errors, p.fetches)] }))} />
          ) : (
            <p className="muted" data-testid="usage-no-failing">No failed fetches.</p>
          )}
        </section>
        <Ranked id={`${id}-lbl`} title="Fetches per label" testId="usage-labels" empty="No fetch named a label." cols={['Label', 'Fetches']}
          rows={[...t.byLabel].sort((a, b) => b.fetches - a.fetches).map((l) => ({ key: l.label, cells: [<span className="mono">{l.label}</span>, l.fetches] }))} />
        <Ranked id={`${id}-cli`} title="Top clients" testId="usage-top-clients" empty="No client fetched a prompt." cols={['Client', 'Versions', 'Fetches', 'Errors']}
          rows={[...t.byClient].sort((a, b) => b.fetches - a.fetches).slice(0, 10).map((c) => ({
            key: c.client,
            // One row per client name; its versions (most fetched first) beside it.
            cells: [<span className="mono">{c.client}</span>, <span className="mono muted">{clientVersions(c.versions)}</span>, c.fetches, c.errors],
          }))} />
        <section className="card" aria-labelledby={`${id}-unused`} data-testid="usage-unused">
          <h2 id={`${id}-unused`}>Unused prompts</h2>
          <p className="hint">Not fetched by any client in the {what}{unused && unused.total > unused.items.length ? ` (first ${unused.items.length} of ${unused.total})` : ''}.</p>
          {!unused ? null : unused.items.length === 0 ? (
            <p className="muted">Every prompt was fetched.</p>
          ) : (
            <ul className="usage-unused-list">
              {unused.items.map((p) => (
                <li key={p.name} data-testid="usage-unused-prompt" data-name={p.name}>
                  <PromptLink name={p.name} />{' '}
                  <span className="muted">{p.lastUsedAt ? <>last used <Time iso={p.lastUsedAt} /></> : 'never used'}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

const PromptLink = ({ name }: { name: string }) => <Link href={href.prompt(name)} className="mono">{name}</Link>;

type Row = { key: string; cells: ReactNode[] };

function Table({ caption, cols, rows, testId }: { caption: string; cols: string[]; rows: Row[]; testId: string }) {
  return (
    <div className="table-wrap">
      <table className="usage-table" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>{cols.map((c, i) => <th key={c} scope="col" className={i ? 'num' : undefined}>{c}</th>)}</tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-testid={`${testId}-row`} data-key={r.key}>
              {r.cells.map((c, i) => (i === 0 ? <th key={i} scope="row">{c}</th> : <td key={i} className="num">{c}</td>))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A client's versions as shown: most fetched first, at most three, '–' for none. */
function clientVersions(versions: readonly { clientVersion: string; fetches: number }[]): string {
  const named = versions.filter((v) => v.clientVersion);
  if (!named.length) return '–';
  return named.slice(0, 3).map((v) => v.clientVersion).join(', ') + (named.length > 3 ? ` +${named.length - 3}` : '');
}

function Ranked({ id, title, testId, empty, cols, rows }: { id: string; title: string; testId: string; empty: string; cols: string[]; rows: Row[] }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length ? <Table caption={title} cols={cols} rows={rows} testId={testId} /> : <p className="muted">{empty}</p>}
    </section>
  );
}
