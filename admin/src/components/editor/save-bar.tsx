// The bottom of the editor: change note, "Activate on save", and Save.
import { useId } from 'react';
import { describe, FieldError, type Messages } from '../bits';
import type { Form } from './form-model';

interface Props {
  form: Form;
  update: (patch: Partial<Form>) => void;
  errors: Messages;
  warnings: Messages;
  saving: boolean;
  isNew: boolean;
}

export function SaveBar({ form, update, errors, warnings, saving, isNew }: Props) {
  const id = useId();
  const problems = Object.keys(warnings).length;
  return (
    <div className="card save-bar">
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
        <button type="submit" className="btn btn-primary" data-testid="editor-save" disabled={saving}>
          {saving ? 'Saving…' : isNew ? 'Create prompt' : 'Save new version'}
        </button>
      </div>
    </div>
  );
}
