// The diff of two version-like documents: side by side (wide) or unified (narrow, or by choice), words marked inside changed lines.
import { useEffect, useId, useMemo, useState } from 'react';
import { diffLines, diffWords, sideBySide, unified, type Row, type Seg } from '../lib/diff';
import { versionSections } from '../lib/version-text';
import type { Version } from '../types';

export type DiffDoc = Pick<Version, 'title' | 'description' | 'icons' | 'arguments' | 'messages'>;

function useNarrow(query = '(max-width: 700px)'): boolean {
  const [m, setM] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const on = () => setM(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return m;
}

function Segs({ segs, kind }: { segs: Seg[] | undefined; kind: 'del' | 'add' }) {
  if (!segs) return null;
  return (
    <>
      {segs.map((s, i) =>
        s.changed ? (
          kind === 'del' ? <del key={i} className="diff-word" data-testid="diff-word" data-kind="del">{s.text}</del> : <ins key={i} className="diff-word" data-testid="diff-word" data-kind="add">{s.text}</ins>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

function Cell({ side, kind, segs }: { side: Row['left']; kind: string; segs?: Seg[] }) {
  return (
    <>
      <td className="diff-no" aria-hidden="true">{side?.no ?? ''}</td>
      <td className={`diff-text ${side ? kind : 'diff-empty'}`}>
        {side && kind && <span className="sr-only">{kind === 'diff-old' ? 'removed: ' : 'added: '}</span>}
        {segs ? <Segs segs={segs} kind={kind === 'diff-old' ? 'del' : 'add'} /> : side?.text ?? ''}
      </td>
    </>
  );
}

export function diffSections(a: DiffDoc, b: DiffDoc) {
  const left = versionSections(a as Version);
  const right = versionSections(b as Version);
  // A section only one side has (test cases) diffs against nothing.
  const titles = [...new Set([...left, ...right].map((s) => s.title))];
  const lines = (ss: typeof left, t: string) => ss.find((s) => s.title === t)?.lines ?? [];
  return titles.map((t) => ({ title: t, rows: sideBySide(diffLines(lines(left, t), lines(right, t))) }));
}

export function DiffTable({ a, b, leftLabel, rightLabel, caption, testId = 'diff-view' }: { a: DiffDoc; b: DiffDoc; leftLabel: string; rightLabel: string; caption: string; testId?: string }) {
  const id = useId();
  const narrow = useNarrow();
  const [choice, setChoice] = useState<'split' | 'unified' | null>(null);
  const mode = choice ?? (narrow ? 'unified' : 'split');
  const sections = useMemo(() => diffSections(a, b), [a, b]);
  return (
    <div className="diff-body">
      <div className="segmented" role="radiogroup" aria-label="Diff layout">
        <label>
          <input type="radio" name={`${id}-mode`} checked={mode === 'split'} onChange={() => setChoice('split')} data-testid="diff-mode-split" /> Side by side
        </label>
        <label>
          <input type="radio" name={`${id}-mode`} checked={mode === 'unified'} onChange={() => setChoice('unified')} data-testid="diff-mode-unified" /> Unified
        </label>
      </div>
      <div className="diff-scroll">
        {mode === 'split' ? (
          <table className="diff-table" data-testid={testId} data-mode="split">
            <caption className="sr-only">{caption}</caption>
            <colgroup>
              <col className="diff-no-col" />
              <col />
              <col className="diff-no-col" />
              <col />
            </colgroup>
            <thead>
              <tr>
                <th colSpan={2} scope="col">{leftLabel}</th>
                <th colSpan={2} scope="col">{rightLabel}</th>
              </tr>
            </thead>
            {sections.map((s) => (
              <tbody key={s.title}>
                <tr className="diff-section">
                  <th colSpan={4} scope="rowgroup">{s.title}</th>
                </tr>
                {s.rows.map((r, i) => {
                  const w = r.kind === 'changed' ? diffWords(r.left!.text, r.right!.text) : null;
                  return (
                    <tr key={i} className={`diff-row diff-${r.kind}`} data-testid="diff-row" data-kind={r.kind}>
                      <Cell side={r.left} kind={r.kind === 'same' ? '' : 'diff-old'} segs={w?.left} />
                      <Cell side={r.right} kind={r.kind === 'same' ? '' : 'diff-new'} segs={w?.right} />
                    </tr>
                  );
                })}
              </tbody>
            ))}
          </table>
        ) : (
          <table className="diff-table diff-unified" data-testid={testId} data-mode="unified">
            <caption className="sr-only">{caption}</caption>
            <colgroup>
              <col className="diff-no-col" />
              <col />
            </colgroup>
            <thead>
              <tr>
                <th colSpan={2} scope="col">{leftLabel} → {rightLabel}</th>
              </tr>
            </thead>
            {sections.map((s) => (
              <tbody key={s.title}>
                <tr className="diff-section">
                  <th colSpan={2} scope="rowgroup">{s.title}</th>
                </tr>
                {unified(s.rows).map((l, i) => (
                  <tr key={i} className={`diff-row diff-u-${l.kind}`} data-testid="diff-row" data-kind={l.kind}>
                    <td className="diff-no" aria-hidden="true">{l.no}</td>
                    <td className={`diff-text ${l.kind === 'del' ? 'diff-old' : l.kind === 'add' ? 'diff-new' : ''}`}>
                      {l.kind !== 'same' && <span className="sr-only">{l.kind === 'del' ? 'removed: ' : 'added: '}</span>}
                      {l.segs ? <Segs segs={l.segs} kind={l.kind === 'del' ? 'del' : 'add'} /> : l.text}
                    </td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        )}
      </div>
    </div>
  );
}
