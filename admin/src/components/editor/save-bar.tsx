// The bottom of the editor: change note, "Activate on save", Save, and the outcome of the last save right next to it.
import { forwardRef, useId } from 'react';
import { describe, FieldError, type Messages } from '../bits';
import type { Form } from './form-model';

export interface SaveStatus {
  kind: 'error' | 'info';
  text: string;
  /** Offer a Retry button (the save failed for a network reason). */
  retry?: boolean;
}

interface Props {
  form: Form;
  update: (patch: Partial<Form>) => void;
  errors: Messages;
  warnings: Messages;
  saving: boolean;
  isNew: boolean;
  status: SaveStatus | null;
  onRetry: () => void;
}

export const SaveBar = forwardRef<HTMLDivElement, Props>(function SaveBar({ form, update, errors, warnings, saving, isNew, status, onRetry }, ref) {
  const id = useId();
  const problems = Object.keys(warnings).length;
  return (
    <div className="card save-bar" ref={ref} data-testid="save-bar">
      <div className="field">
        <label htmlFor={`${id}-note`}>Change note</label>
        <input id={`${id}-note`} data-testid="editor-note" placeholder="What changed and why" value={form.note} onChange={(e) => update({ note: e.target.value })} {...describe('note', errors)} />
        <FieldError path="note" errors={errors} />
      </div>
      <div className="save-row">
        <div className="field check">
          <input id={`${id}-act`} type="checkbox" data-testid="editor-activate" checked={form.activate} onChange={(e) => update({ activate: e.target.checked })} />
          <label htmlFor={`${id}-act`}>Activate on save (serve it to MCP clients right away)</label>
        </div>
        {problems > 0 && (
          <p className="field-warning" data-testid="editor-warnings">
            {problems} {problems === 1 ? 'problem' : 'problems'} flagged above: the server will likely refuse to save.
          </p>
        )}
        <div className="save-actions">
          <span className="muted small kbd-hint" aria-hidden="true">Ctrl+S</span>
          {/* Never `disabled` while saving: a disabled button drops keyboard focus to <body>. */}
          <button
            type="submit"
            className="btn btn-primary"
            data-testid="editor-save"
            aria-disabled={saving || undefined}
            aria-describedby={status ? `${id}-status` : undefined}
            aria-keyshortcuts="Control+S Meta+S"
          >
            {saving ? 'Saving…' : isNew ? 'Create prompt' : 'Save new version'}
          </button>
        </div>
      </div>
      {/* Always mounted, so what is put in it is announced. */}
      <div role="status" aria-live="polite" className="save-status-region">
        {status && (
          <p id={`${id}-status`} className={status.kind === 'error' ? 'save-status save-error' : 'save-status save-info'} data-testid="save-status" data-kind={status.kind}>
            {status.text}{' '}
            {status.retry && (
              <button type="button" className="btn btn-small" data-testid="save-retry" onClick={onRetry}>
                Retry
              </button>
            )}
          </p>
        )}
      </div>
    </div>
  );
});
