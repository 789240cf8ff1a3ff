// A prompt's label moves from the change log (GET /prompts/{name}/label-history), newest first.
import { useEffect, useState } from 'react';
import { api, errorMessage } from '../api';
import type { LabelMove } from '../types';
import { Banner, Time } from './bits';
import '../labels.css';

const v = (n: number | null) => (n === null ? 'none' : `v${n}`);

/** "staging v1 → v2", "production removed (was v1)", "production v1 → v2 (promoted from staging)". */
export function describeMove(m: LabelMove): string {
  if (m.to === null) return `${m.label} removed (was ${v(m.from)})`;
  const what = m.from === null ? `${m.label} set on v${m.to}` : `${m.label} moved ${v(m.from)} → v${m.to}`;
  return m.source ? `${what} (promoted from ${m.source})` : what;
}

export function LabelHistory({ name, revision }: { name: string; revision: unknown }) {
  const [items, setItems] = useState<LabelMove[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.labelHistory(name).then(
      (p) => live && (setItems(p.items), setCursor(p.nextCursor), setError(null)),
      (err) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [name, revision]);
  const more = async () => {
    try {
      const p = await api.labelHistory(name, cursor);
      setItems((x) => [...(x ?? []), ...p.items]);
      setCursor(p.nextCursor);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  if (error) return <Banner kind="error">{error}</Banner>;
  if (!items) return <p className="muted small">Loading…</p>;
  if (items.length === 0) return <p className="muted small" data-testid="label-moves-empty">No label has moved yet.</p>;
  return (
    <>
      <ol className="label-moves" data-testid="label-moves" aria-label="Label moves, newest first">
        {items.map((m) => (
          <li key={m.id} data-testid="label-move" data-action={m.action}>
            <span className="mono">{describeMove(m)}</span>
            <span className="muted"> · {m.actor} · <Time iso={m.at} /></span>
          </li>
        ))}
      </ol>
      {cursor && (
        <button type="button" className="btn btn-small" onClick={more}>
          Older moves
        </button>
      )}
    </>
  );
}
