// The version editor: a new prompt (v1) or a new version starting from the latest one.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiError, api, errorMessage } from '../../api';
import { pushFlash } from '../../flash';
import { useLive } from '../../live';
import { scanTemplate, uriTemplateVars } from '../../lib/template-vars';
import { href, Link, navigate } from '../../router';
import type { Resource, ResourceTemplate } from '../../types';
import { Banner, describe, FieldError, type Messages } from '../bits';
import { ArgumentsTable } from './arguments-table';
import { DraftPreview } from './draft-preview';
import { IconsEditor } from './icons-editor';
import { checkForm, emptyArg, emptyForm, formFromVersion, toBody, type Form } from './form-model';
import { MessagesList } from './messages-list';
import { SaveBar } from './save-bar';

export function EditorPage({ name }: { name: string | null }) {
  const isNew = name === null;
  const [form, setForm] = useState<Form | null>(isNew ? emptyForm() : null);
  const [base, setBase] = useState<{ etag: string | null; version: number } | null>(null);
  const [stale, setStale] = useState<{ latest: number; newVersion: boolean } | null>(null);
  const [resources, setResources] = useState<Resource[]>([]);
  const [templates, setTemplates] = useState<ResourceTemplate[]>([]);
  const [errors, setErrors] = useState<Messages>({});
  const [banner, setBanner] = useState<{ kind: 'error' | 'warning'; text: string; conflict?: boolean } | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = useRef(false);
  const { revision } = useLive();
  const id = useId();

  const loadPrompt = async () => {
    if (isNew) return;
    try {
      const { data, etag } = await api.getPrompt(name);
      setForm(formFromVersion(data.latest));
      setBase({ etag, version: data.latestVersion });
      setStale(null);
      setBanner(null);
      setErrors({});
      dirty.current = false;
    } catch (err) {
      setBanner({ kind: 'error', text: errorMessage(err) });
    }
  };
  useEffect(() => {
    void loadPrompt();
    document.title = `${isNew ? 'New prompt' : `Edit ${name}`} · promptd`;
  }, [name]);

  // The library for the resource picker; refreshed on live changes.
  useEffect(() => {
    api.listResources({ limit: 200 }).then((p) => setResources(p.items), () => {});
    api.listTemplates().then((p) => setTemplates(p.items), () => {});
  }, [revision]);

  // Someone else saved meanwhile? Tell the author before they hit 412.
  useEffect(() => {
    if (isNew || !base || revision === 0) return;
    api.getPrompt(name).then(({ data, etag }) => {
      if (etag !== base.etag) setStale({ latest: data.latestVersion, newVersion: data.latestVersion !== base.version });
    }, () => {});
  }, [revision]);

  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (dirty.current) e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  // Keep the edits but take the current ETag: the next save goes on top of the other author's version.
  const keepMine = async () => {
    if (isNew) return;
    try {
      const { data, etag } = await api.getPrompt(name);
      setBase({ etag, version: data.latestVersion });
      setStale(null);
      setBanner(null);
    } catch (err) {
      setBanner({ kind: 'error', text: errorMessage(err) });
    }
  };

  const warnings = useMemo(() => (form ? checkForm(form, isNew) : {}), [form, isNew]);
  const declared = useMemo(() => new Set(form?.args.map((a) => a.name.trim()).filter(Boolean)), [form?.args]);
  const used = useMemo(() => {
    const s = new Set<string>();
    for (const m of form?.messages ?? []) (m.type === 'text' ? scanTemplate(m.text).names : uriTemplateVars(m.uri)).forEach((n) => s.add(n));
    return s;
  }, [form?.messages]);

  if (!form) {
    return (
      <section className="page">
        <h1>Edit {name}</h1>
        {banner ? <Banner kind="error">{banner.text}</Banner> : <p className="muted">Loading…</p>}
      </section>
    );
  }

  const update = (patch: Partial<Form>) => {
    dirty.current = true;
    setForm((f) => (f ? { ...f, ...patch } : f));
  };
  const declare = (n: string) => update({ args: [...form.args, emptyArg(n)] });

  const save = async () => {
    setSaving(true);
    setBanner(null);
    setErrors({});
    try {
      const body = toBody(form);
      if (isNew) {
        const created = await api.createPrompt({ ...body, name: form.name.trim() });
        dirty.current = false;
        navigate(href.prompt(created.name));
        pushFlash(`Created ${created.name} v1${created.activeVersion ? ', now served to MCP clients' : ' as a draft (not served yet)'}.`);
      } else {
        const v = await api.createVersion(name, body, base?.etag ?? null);
        dirty.current = false;
        navigate(href.prompt(name));
        pushFlash(`Saved v${v.version}${form.activate ? ', now served to MCP clients' : ' as a draft (not served yet)'}.`);
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 412) {
        setBanner({ kind: 'warning', conflict: true, text: 'Someone else changed this prompt after you opened the editor, so your version was not saved (nothing is lost: versions never change). Your edits are still here.' });
      } else if (err instanceof ApiError && (err.status === 422 || err.status === 409 || err.status === 400) && err.problem.errors?.length) {
        setErrors(err.fieldErrors);
        setBanner({ kind: 'error', text: `${err.problem.title ?? 'Not saved'}: fix the ${err.problem.errors.length === 1 ? 'field' : `${err.problem.errors.length} fields`} marked below.` });
        requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      } else if (err instanceof ApiError && err.status === 409 && isNew) {
        setErrors({ name: err.problem.detail ?? 'A prompt with this name already exists.' });
        setBanner({ kind: 'error', text: 'Not saved: that name is taken.' });
      } else setBanner({ kind: 'error', text: `Not saved. ${errorMessage(err)}` });
    } finally {
      setSaving(false);
    }
  };

  const errorCount = Object.keys(errors).length;
  return (
    <section className="page editor" aria-labelledby={`${id}-h`}>
      <nav aria-label="Breadcrumb" className="crumbs">
        <Link href={href.prompts()}>Prompts</Link> <span aria-hidden="true">/</span>{' '}
        {isNew ? <span>New</span> : <><Link href={href.prompt(name)}>{name}</Link> <span aria-hidden="true">/</span> <span>New version</span></>}
      </nav>
      <h1 id={`${id}-h`}>{isNew ? 'New prompt' : <>New version of <span className="mono">{name}</span></>}</h1>
      {!isNew && base && <p className="muted">Starting from v{base.version}. Saving creates v{base.version + 1}; older versions never change.</p>}
      {stale !== null && !banner?.conflict && (
        <Banner kind="warning" testId="editor-stale">
          {stale.newVersion ? `Someone else just saved v${stale.latest} of this prompt.` : 'Someone else just changed this prompt (activation, archive or rename).'} Saving now will be refused.{' '}
          <button type="button" className="btn-link" onClick={loadPrompt}>Start over from v{stale.latest}</button> (discards your edits) or{' '}
          <button type="button" className="btn-link" onClick={keepMine}>keep my edits</button> and save them on top.
        </Banner>
      )}
      {banner && (
        <Banner kind={banner.kind} testId="editor-message">
          {banner.text}{' '}
          {banner.conflict && (
            <>
              <button type="button" className="btn-link" onClick={loadPrompt} data-testid="editor-reload">Start over from the latest</button> or{' '}
              <button type="button" className="btn-link" onClick={keepMine} data-testid="editor-keep">keep my edits and save on top</button>
            </>
          )}
          {errorCount > 0 && (
            <ul className="error-summary">
              {Object.entries(errors).map(([p, m]) => (
                <li key={p}><code>{p}</code>: {m}</li>
              ))}
            </ul>
          )}
        </Banner>
      )}
      <div className="editor-grid">
        <form className="stack" noValidate onSubmit={(e) => { e.preventDefault(); void save(); }} aria-label="Version">
          <fieldset className="card">
            <legend>Metadata</legend>
            {isNew && (
              <div className="field">
                <label htmlFor={`${id}-name`}>Name</label>
                <input id={`${id}-name`} className="mono" data-testid="editor-name" value={form.name} autoFocus onChange={(e) => update({ name: e.target.value })} {...describe('name', errors, warnings)} />
                <p className="hint">What MCP clients call it: letters, digits, <code>_ - .</code></p>
                <FieldError path="name" errors={errors} warnings={warnings} />
              </div>
            )}
            <div className="field">
              <label htmlFor={`${id}-title`}>Title</label>
              <input id={`${id}-title`} data-testid="editor-title" value={form.title} onChange={(e) => update({ title: e.target.value })} {...describe('title', errors)} />
              <FieldError path="title" errors={errors} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-desc`}>Description</label>
              <textarea id={`${id}-desc`} rows={2} data-testid="editor-description" value={form.description} onChange={(e) => update({ description: e.target.value })} {...describe('description', errors)} />
              <FieldError path="description" errors={errors} />
            </div>
            <IconsEditor icons={form.icons} onChange={(icons) => update({ icons })} errors={errors} warnings={warnings} />
          </fieldset>
          <fieldset className="card">
            <legend>Arguments</legend>
            <ArgumentsTable args={form.args} onChange={(args) => update({ args })} errors={errors} warnings={warnings} used={used} />
          </fieldset>
          <fieldset className="card">
            <legend>Messages</legend>
            <MessagesList messages={form.messages} onChange={(messages) => update({ messages })} errors={errors} warnings={warnings} declared={declared} onDeclare={declare} resources={resources} templates={templates} />
          </fieldset>
          <SaveBar form={form} update={update} errors={errors} warnings={warnings} saving={saving} isNew={isNew} />
        </form>
        <aside className="card preview-card" aria-labelledby={`${id}-prev`}>
          <h2 id={`${id}-prev`}>Preview</h2>
          <DraftPreview form={form} resources={resources} templates={templates} saved={!isNew && base ? { name, version: base.version } : null} />
        </aside>
      </div>
    </section>
  );
}
