// Diff between any two versions of a prompt; the change notes shown apart from the content.
import { useEffect, useId, useMemo, useState } from 'react';
import { api, errorMessage } from '../api';
import type { Version } from '../types';
import { Banner } from './bits';
import { diffSections, DiffTable } from './diff-table';

interface Props {
  name: string;
  versions: number[]; // newest first
  from: number | null;
  to: number | null;
  /** The version MCP clients get, for "Compare with what is served". */
  served: number | null;
  onChange: (from: number, to: number) => void;
  revision: number;
}

function useVersion(name: string, n: number | null, revision: number) {
  const [state, setState] = useState<{ v: Version | null; error: string | null }>({ v: null, error: null });
  useEffect(() => {
    if (n == null) return;
    let live = true;
    api.getVersion(name, n).then(
      (v) => live && setState({ v, error: null }),
      (err) => live && setState({ v: null, error: errorMessage(err) }),
    );
    return () => {
      live = false;
    };
  }, [name, n, revision]);
  return n == null || (state.v && state.v.version !== n) ? { v: null, error: state.error } : state;
}

export function VersionDiff({ name, versions, from, to, served, onChange, revision }: Props) {
  const id = useId();
  const a = useVersion(name, from, revision);
  const b = useVersion(name, to, revision);
  const changed = useMemo(() => (a.v && b.v ? diffSections(a.v, b.v).reduce((n, s) => n + s.rows.filter((r) => r.kind !== 'same').length, 0) : 0), [a.v, b.v]);

  if (versions.length < 2) return <p className="muted">Only one version so far: nothing to compare yet.</p>;
  const pick = (label: string, value: number | null, set: (n: number) => void, testId: string) => (
    <div className="field">
      <label htmlFor={`${id}-${testId}`}>{label}</label>
      <select id={`${id}-${testId}`} data-testid={testId} value={value ?? ''} onChange={(e) => set(Number(e.target.value))}>
        {versions.map((n) => (
          <option key={n} value={n}>
            v{n}{n === versions[0] ? ' (latest)' : ''}{n === served ? ' (served)' : ''}
          </option>
        ))}
      </select>
    </div>
  );
  const latest = versions[0]!;
  return (
    <div className="diff">
      <div className="toolbar" role="group" aria-label="Versions to compare">
        {pick('From version (left)', from, (n) => onChange(n, to ?? n), 'diff-from')}
        <span className="toolbar-sep" aria-hidden="true">→</span>
        {pick('To version (right)', to, (n) => onChange(from ?? n, n), 'diff-to')}
        <button type="button" className="btn btn-small" data-testid="diff-swap" aria-label="Swap left and right versions" onClick={() => from != null && to != null && onChange(to, from)}>
          Swap
        </button>
        {served != null && served !== latest && (
          <button type="button" className="btn btn-small" data-testid="diff-served" onClick={() => onChange(served, latest)}>
            Latest vs served (v{served})
          </button>
        )}
      </div>
      {(a.error || b.error) && <Banner kind="error">{a.error ?? b.error}</Banner>}
      {a.v && b.v && (
        <>
          <p className="muted" data-testid="diff-summary" role="status">
            {changed === 0 ? `v${from} and v${to} have the same content.` : `${changed} line${changed === 1 ? '' : 's'} differ between v${from} and v${to}.`}
          </p>
          <dl className="diff-notes" data-testid="diff-notes" aria-label="Change notes">
            {[a.v, b.v].map((v, i) => (
              <div key={i}>
                <dt>v{v.version} change note</dt>
                <dd data-testid={`diff-note-${i === 0 ? 'from' : 'to'}`}>{v.note || <span className="muted">No note</span>}</dd>
              </div>
            ))}
          </dl>
          <DiffTable a={a.v} b={b.v} leftLabel={`v${from}`} rightLabel={`v${to}`} caption={`Differences between version ${from} (left) and version ${to} (right)`} />
        </>
      )}
    </div>
  );
}
