// Side-by-side diff between any two versions of a prompt.
import { useEffect, useId, useMemo, useState } from 'react';
import { api, errorMessage } from '../api';
import { diffLines, sideBySide, type Row } from '../lib/diff';
import { versionSections } from '../lib/version-text';
import type { Version } from '../types';
import { Banner } from './bits';

interface Props {
  name: string;
  versions: number[]; // newest first
  from: number | null;
  to: number | null;
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
  return n == null ? { v: null, error: null } : state;
}

function Cell({ side, kind }: { side: Row['left']; kind: string }) {
  return (
    <>
      <td className="diff-no" aria-hidden="true">{side?.no ?? ''}</td>
      <td className={`diff-text ${side ? kind : 'diff-empty'}`}>
        {side && kind && <span className="sr-only">{kind === 'diff-old' ? 'removed: ' : 'added: '}</span>}
        {side?.text ?? ''}
      </td>
    </>
  );
}

export function VersionDiff({ name, versions, from, to, onChange, revision }: Props) {
  const id = useId();
  const a = useVersion(name, from, revision);
  const b = useVersion(name, to, revision);
  const sections = useMemo(() => {
    if (!a.v || !b.v) return [];
    const left = versionSections(a.v);
    const right = versionSections(b.v);
    return left.map((s, i) => ({ title: s.title, rows: sideBySide(diffLines(s.lines, right[i]!.lines)) }));
  }, [a.v, b.v]);
  const changed = sections.reduce((n, s) => n + s.rows.filter((r) => r.kind !== 'same').length, 0);

  if (versions.length < 2) return <p className="muted">Only one version so far: nothing to compare yet.</p>;
  const pick = (label: string, value: number | null, set: (n: number) => void, testId: string) => (
    <div className="field">
      <label htmlFor={`${id}-${testId}`}>{label}</label>
      <select id={`${id}-${testId}`} data-testid={testId} value={value ?? ''} onChange={(e) => set(Number(e.target.value))}>
        {versions.map((n) => (
          <option key={n} value={n}>
            v{n}{n === versions[0] ? ' (latest)' : ''}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <div className="diff">
      <div className="toolbar" role="group" aria-label="Versions to compare">
        {pick('From version (left)', from, (n) => onChange(n, to ?? n), 'diff-from')}
        <span className="toolbar-sep" aria-hidden="true">→</span>
        {pick('To version (right)', to, (n) => onChange(from ?? n, n), 'diff-to')}
        <button type="button" className="btn btn-small" data-testid="diff-swap" aria-label="Swap left and right versions" onClick={() => from != null && to != null && onChange(to, from)}>
          Swap
        </button>
      </div>
      {(a.error || b.error) && <Banner kind="error">{a.error ?? b.error}</Banner>}
      {sections.length > 0 && (
        <>
          <p className="muted" data-testid="diff-summary" role="status">
            {changed === 0 ? `v${from} and v${to} are identical.` : `${changed} line${changed === 1 ? '' : 's'} differ between v${from} and v${to}.`}
          </p>
          <div className="diff-scroll">
            <table className="diff-table" data-testid="diff-view">
              <caption className="sr-only">
                Differences between version {from} (left) and version {to} (right)
              </caption>
              <colgroup>
                <col className="diff-no-col" />
                <col />
                <col className="diff-no-col" />
                <col />
              </colgroup>
              <thead>
                <tr>
                  <th colSpan={2} scope="col">v{from}</th>
                  <th colSpan={2} scope="col">v{to}</th>
                </tr>
              </thead>
              {sections.map((s) => (
                <tbody key={s.title}>
                  <tr className="diff-section">
                    <th colSpan={4} scope="rowgroup">{s.title}</th>
                  </tr>
                  {s.rows.map((r, i) => (
                    <tr key={i} className={`diff-row diff-${r.kind}`} data-testid="diff-row" data-kind={r.kind}>
                      <Cell side={r.left} kind={r.kind === 'same' ? '' : 'diff-old'} />
                      <Cell side={r.right} kind={r.kind === 'same' ? '' : 'diff-new'} />
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          </div>
        </>
      )}
    </div>
  );
}
