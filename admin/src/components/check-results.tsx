// A version's checks (POST …/versions/{n}/check): lint and every test case, pass or fail,
// each case's rendered text on demand. Runs when shown (so right after a save) and on demand.
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../api';
import { contractsApi, type CheckReport, type TestCaseResult } from '../contracts-api';
import { Badge, Banner } from './bits';
import '../contracts.css';

const expectText = (e: TestCaseResult['expectations'][number]['expectation']) => {
  const [k, v] = Object.entries(e)[0] as [string, string | number];
  return k === 'contains' ? `contains "${v}"` : k === 'notContains' ? `does not contain "${v}"` : k === 'matches' ? `matches /${v}/` : `at most ${v} characters`;
};

export function CheckResults({ name, version, revision = 0 }: { name: string; version: number; revision?: number | string }) {
  const [report, setReport] = useState<CheckReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [run, setRun] = useState(0);
  const id = useId();

  useEffect(() => {
    const ctl = new AbortController();
    setRunning(true);
    contractsApi.check(name, version, undefined, ctl.signal).then(
      (r) => {
        setReport(r);
        setError(null);
        setRunning(false);
      },
      (err) => {
        if ((err as Error).name === 'AbortError') return;
        setError(errorMessage(err));
        setReport(null);
        setRunning(false);
      },
    );
    return () => ctl.abort();
  }, [name, version, revision, run]);

  const state = running ? 'running' : error ? 'error' : report ? (report.passed ? 'passed' : 'failed') : 'idle';
  const failedCases = report?.tests.filter((t) => !t.passed).length ?? 0;
  return (
    <section className="checks" aria-labelledby={`${id}-h`} aria-busy={running} data-testid="check-results" data-state={state} data-version={version}>
      <h3 id={`${id}-h`}>Checks of v{version}</h3>
      {error && <Banner kind="error" testId="check-error">Could not run the checks: {error}</Banner>}
      {report && (
        <>
          <p className="check-summary" data-testid="check-summary">
            {report.passed ? <Badge kind="active">passed</Badge> : <span className="badge badge-fail">failed</span>}
            <span>
              {report.tests.length === 0 ? 'No test cases' : `${report.tests.length - failedCases} of ${report.tests.length} test case${report.tests.length === 1 ? '' : 's'} passed`}
              {report.lint.errors.length ? `; ${report.lint.errors.length} lint error${report.lint.errors.length === 1 ? '' : 's'}` : ''}
              {report.lint.warnings.length ? `; ${report.lint.warnings.length} warning${report.lint.warnings.length === 1 ? '' : 's'}` : ''}
              {` (includes resolved under ${report.label})`}
            </span>
          </p>
          {(report.lint.errors.length > 0 || report.lint.warnings.length > 0) && (
            <ul className="check-failures" data-testid="check-lint">
              {report.lint.errors.map((e, i) => <li key={`e${i}`}><code>{e.path}</code>: {e.message}</li>)}
              {report.lint.warnings.map((e, i) => <li key={`w${i}`} className="muted">warning: <code>{e.path}</code>: {e.message}</li>)}
            </ul>
          )}
          <ul className="check-list">
            {report.tests.map((t, i) => (
              <li key={`${t.name}-${i}`} className="check-item" data-testid="check-case" data-name={t.name} data-passed={t.passed}>
                <div className="check-head">
                  {t.passed ? <span className="badge badge-pass">pass</span> : <span className="badge badge-fail">fail</span>}
                  <strong>{t.name}</strong>
                </div>
                {t.error && <p className="check-failures" data-testid="check-failure">Did not render: {t.error.message}</p>}
                {t.expectations.some((e) => !e.passed) && (
                  <ul className="check-failures">
                    {t.expectations.filter((e) => !e.passed).map((e, j) => (
                      <li key={j} data-testid="check-failure">{expectText(e.expectation)}: {e.message}</li>
                    ))}
                  </ul>
                )}
                {t.text !== null && (
                  <details className="check-output">
                    <summary data-testid="check-output-toggle">Rendered output of {t.name}</summary>
                    <pre className="rendered-text" data-testid="check-output">{t.text}</pre>
                  </details>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {running && !report && <p className="muted">Running checks…</p>}
      <button type="button" className="btn btn-small" data-testid="check-run" onClick={() => setRun((n) => n + 1)} disabled={running}>
        {running ? 'Running checks…' : 'Run checks again'}
      </button>
    </section>
  );
}
