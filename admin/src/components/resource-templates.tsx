// Resource templates: list, create, edit, delete.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError, api, errorMessage } from '../api';
import { useLive } from '../live';
import type { ResourceTemplate } from '../types';
import { Banner, describe, FieldError, type Messages } from './bits';
import { useDialog } from './dialog';
import { TemplateEditForm } from './template-edit-form';

const EMPTY = { uriTemplate: '', name: '', mimeType: 'text/plain', text: '' };

export function ResourceTemplates() {
  const id = useId();
  const [items, setItems] = useState<ResourceTemplate[]>([]);
  const [f, setF] = useState(EMPTY);
  const [errors, setErrors] = useState<Messages>({});
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [ask, dialog] = useDialog();
  const { revision } = useLive();
  const [tick, setTick] = useState(0);
  const [editing, setEditing] = useState<ResourceTemplate['id'] | null>(null);
  const editBtns = useRef(new Map<ResourceTemplate['id'], HTMLButtonElement>());
  const refocus = useRef<ResourceTemplate['id'] | null>(null);
  const closeEditor = (tid: ResourceTemplate['id']) => {
    refocus.current = tid;
    setEditing(null);
  };
  useEffect(() => {
    const btn = refocus.current != null && editing == null ? editBtns.current.get(refocus.current) : undefined;
    if (!btn) return;
    refocus.current = null;
    btn.focus();
  });

  useEffect(() => {
    api.listTemplates().then((p) => setItems(p.items), (err) => setError(errorMessage(err)));
  }, [revision, tick]);

  const set = (k: keyof typeof EMPTY) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    setError(null);
    try {
      const t = await api.createTemplate({ uriTemplate: f.uriTemplate.trim(), name: f.name.trim(), mimeType: f.mimeType.trim(), text: f.text });
      setF(EMPTY);
      setInfo(`Added template ${t.uriTemplate}.`);
      setTick((n) => n + 1);
    } catch (err) {
      if (err instanceof ApiError && err.problem.errors?.length) setErrors(err.fieldErrors);
      setError(errorMessage(err));
    }
  };
  const remove = async (t: ResourceTemplate) => {
    const a = await ask({ title: 'Delete resource template?', message: <p>Prompts binding <code>{t.uriTemplate}</code> will fail to render.</p>, confirmLabel: 'Delete', danger: true });
    if (!a.ok) return;
    try {
      await api.deleteTemplate(t.id);
      setInfo(`Deleted template ${t.uriTemplate}.`);
      setTick((n) => n + 1);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const input = (k: keyof typeof EMPTY, label: string, testId: string, mono = false) => (
    <div className="field">
      <label htmlFor={`${id}-${k}`}>{label}</label>
      <input id={`${id}-${k}`} className={mono ? 'mono' : undefined} data-testid={testId} value={f[k]} onChange={(e) => set(k)(e.target.value)} {...describe(k, errors)} />
      <FieldError path={k} errors={errors} />
    </div>
  );

  return (
    <section className="card" aria-labelledby={`${id}-h`}>
      {dialog}
      <h2 id={`${id}-h`}>Resource templates</h2>
      <p className="muted small">
        A URI template such as <code>{'logs://recent?timeframe={timeframe}'}</code> whose content is rendered from the URI&apos;s variables.
      </p>
      {info && <Banner kind="success">{info}</Banner>}
      {error && <Banner kind="error">{error}</Banner>}
      <div className="split">
        {items.length === 0 ? (
          <p className="muted">No templates yet.</p>
        ) : (
          <ul className="res-list" data-testid="template-list">
            {items.map((t) => (
              <li key={t.id} className="res-row" data-testid="template-row" data-uri={t.uriTemplate}>
                <div className="grow">
                  <code className="res-uri">{t.uriTemplate}</code>
                  <div className="muted small">
                    {t.name} · {t.mimeType}
                  </div>
                </div>
                {editing !== t.id && (
                  <div className="row-gap">
                    <button
                      type="button"
                      className="btn btn-small"
                      data-testid="template-edit"
                      ref={(el) => void (el ? editBtns.current.set(t.id, el) : editBtns.current.delete(t.id))}
                      onClick={() => setEditing(t.id)}
                      aria-label={`Edit template ${t.uriTemplate}`}
                    >
                      Edit
                    </button>
                    <button type="button" className="btn btn-small btn-danger-outline" onClick={() => remove(t)} aria-label={`Delete template ${t.uriTemplate}`}>
                      Delete
                    </button>
                  </div>
                )}
                {editing === t.id && (
                  <div className="res-detail">
                    <TemplateEditForm
                      t={t}
                      onCancel={() => closeEditor(t.id)}
                      onSaved={(msg) => {
                        closeEditor(t.id);
                        setInfo(msg);
                        setTick((n) => n + 1);
                      }}
                    />
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
        <form className="stack-sm" onSubmit={create} aria-label="New resource template">
          <h3>New template</h3>
          {input('uriTemplate', 'URI template', 'tpl-uri', true)}
          {input('name', 'Name', 'tpl-name')}
          {input('mimeType', 'MIME type', 'tpl-mime', true)}
          <div className="field">
            <label htmlFor={`${id}-text`}>Content template</label>
            <textarea id={`${id}-text`} rows={4} className="mono" data-testid="tpl-text" value={f.text} onChange={(e) => set('text')(e.target.value)} {...describe('text', errors)} />
            <FieldError path="text" errors={errors} />
          </div>
          <button type="submit" className="btn btn-primary" data-testid="tpl-create">
            Add template
          </button>
        </form>
      </div>
    </section>
  );
}
