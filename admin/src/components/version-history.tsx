// Version history: notes, authors, times, the active badge, and one-click activate / roll back.
import type { VersionSummary } from '../types';
import { Badge, Time } from './bits';
import { LabelChips } from './label-chips';

interface Props {
  versions: VersionSummary[];
  activeVersion: number | null;
  busy: boolean;
  headingId: (n: number) => string;
  /** Absent: the signed-in token may not activate (production is protected). */
  onActivate?: (n: number) => void;
  onCompare: (n: number) => void;
  onPreview: (n: number) => void;
  onLabels?: (n: number) => void;
}

export function activateLabel(n: number, active: number | null): string {
  return active != null && n < active ? `Roll back to v${n}` : `Activate v${n}`;
}

export function VersionHistory({ versions, activeVersion, busy, headingId, onActivate, onCompare, onPreview, onLabels }: Props) {
  return (
    <ol className="history" data-testid="version-history" aria-label="Version history, newest first">
      {versions.map((v) => (
        <li key={v.version} className={`history-item${v.active ? ' is-active' : ''}`} data-testid="version-row" data-version={v.version}>
          <div className="history-head">
            <h3 className="history-version" id={headingId(v.version)} tabIndex={-1}>
              v{v.version}
              {v.active && <span className="sr-only"> (active)</span>}
            </h3>
            {v.active && (
              <Badge kind="active">
                <span data-testid="version-active-badge" aria-hidden="true">active</span>
              </Badge>
            )}
            <LabelChips labels={v.labels} />
            <span className="history-title">{v.title || <span className="muted">untitled</span>}</span>
          </div>
          <p className="history-note">{v.note || <span className="muted">No note</span>}</p>
          <p className="history-meta muted">
            {v.author ? `${v.author} · ` : ''}
            <Time iso={v.createdAt} />
          </p>
          <div className="history-actions">
            {!v.active && onActivate && (
              <button
                type="button"
                className="btn btn-small btn-primary"
                data-testid="version-activate"
                disabled={busy}
                onClick={() => onActivate(v.version)}
              >
                {activateLabel(v.version, activeVersion)}
              </button>
            )}
            {versions.length > 1 && <button type="button" className="btn btn-small" data-testid="version-compare" onClick={() => onCompare(v.version)} aria-label={`Compare v${v.version}`}>
              Compare
            </button>}
            <button type="button" className="btn btn-small" data-testid="version-preview" onClick={() => onPreview(v.version)} aria-label={`Preview v${v.version}`}>
              Preview
            </button>
            {onLabels && (
              <button type="button" className="btn btn-small" data-testid="version-labels" disabled={busy} onClick={() => onLabels(v.version)} aria-label={`Labels of v${v.version}`}>
                Labels…
              </button>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
