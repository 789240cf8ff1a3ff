// MCP content annotations of one message: who it is for (audience) and how important it is (priority 0–1).
import { useState } from 'react';
import type { Role } from '../../types';
import { describe, FieldError, type Messages } from '../bits';
import type { MsgRow } from './form-model';

interface Props {
  index: number;
  idBase: string;
  row: MsgRow;
  onChange: (patch: Partial<MsgRow>) => void;
  errors: Messages;
  warnings: Messages;
}

const ROLES: Role[] = ['user', 'assistant'];

export function annotationSummary(row: Pick<MsgRow, 'audience' | 'priority'>): string {
  const parts = [];
  if (row.audience.length) parts.push(`for ${ROLES.filter((r) => row.audience.includes(r)).join(' and ')}`);
  if (row.priority.trim() !== '') parts.push(`priority ${row.priority.trim()}`);
  return parts.length ? parts.join(', ') : 'none';
}

export function MessageAnnotations({ index: i, idBase, row, onChange, errors, warnings }: Props) {
  const path = `messages[${i}].content.annotations`;
  const has = (p: string) => Object.keys({ ...errors, ...warnings }).some((k) => k === p || k.startsWith(`${p}.`) || k.startsWith(`${p}[`));
  const problem = has(path);
  const [open, setOpen] = useState(row.audience.length > 0 || row.priority !== '');
  const toggle = (r: Role, on: boolean) => onChange({ audience: on ? [...row.audience.filter((x) => x !== r), r] : row.audience.filter((x) => x !== r) });
  return (
    <details className="annotations" open={open || problem} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid={`msg-annotations-${i}`}>
      <summary>
        Annotations <span className="muted small" data-testid={`msg-annotations-summary-${i}`}>({annotationSummary(row)})</span>
      </summary>
      <div className="annotations-body">
        <fieldset className="field audience">
          <legend>Audience</legend>
          <div className="row-gap">
            {ROLES.map((r) => (
              <div className="field check" key={r}>
                <input
                  id={`${idBase}-aud-${r}`}
                  type="checkbox"
                  data-testid={`msg-audience-${r}-${i}`}
                  checked={row.audience.includes(r)}
                  onChange={(e) => toggle(r, e.target.checked)}
                />
                <label htmlFor={`${idBase}-aud-${r}`}>{r}</label>
              </div>
            ))}
          </div>
          <FieldError path={`${path}.audience`} errors={errors} prefix />
        </fieldset>
        <div className="field priority">
          <label htmlFor={`${idBase}-prio`}>Priority</label>
          <input
            id={`${idBase}-prio`}
            type="number"
            min={0}
            max={1}
            step="any"
            inputMode="decimal"
            placeholder="0–1"
            data-testid={`msg-priority-${i}`}
            value={row.priority}
            onChange={(e) => onChange({ priority: e.target.value })}
            {...describe(`${path}.priority`, errors, warnings)}
          />
          <FieldError path={`${path}.priority`} errors={errors} warnings={warnings} />
        </div>
        <p className="hint">Hints for MCP clients: leave both empty for none. 1 means most important.</p>
      </div>
      <FieldError path={path} errors={errors} />
    </details>
  );
}
