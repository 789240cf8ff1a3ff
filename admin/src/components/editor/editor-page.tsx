// The version editor: a new prompt (v1) or a new version starting from the latest one.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiError, api, errorMessage } from '../../api';
import { pushFlash } from '../../flash';
import { useLive } from '../../live';
import { clearDraft, loadDraft } from '../../lib/drafts';
import { useFocusLater } from '../../lib/focus';
import { href, Link, navigate } from '../../router';
import type { Resource, ResourceTemplate, Version } from '../../types';
import { Banner, describe, FieldError, Time, type Messages } from '../bits';
import { useDialog } from '../dialog';
import { ArgumentsTable } from './arguments-table';
import { ConflictDiff } from './conflict-diff';
import { DraftPreview } from './draft-preview';
import { ErrorSummary } from './error-summary';
import { IconsEditor } from './icons-editor';
import { checkForm, emptyArg, emptyForm, formFromVersion, messageVars, rekey, toBody, type Form } from './form-model';
import { MessagesList } from './messages-list';
import { SaveBar, type SaveStatus } from './save-bar';
import { TestCases } from './test-cases';
import '../../contracts.css';
import { useEditorGuards } from './use-editor-guards';
import { useKeepFocusVisible } from './use-keep-focus-visible';
import { visibleWarnings } from './touched';

type Base = { etag: string | null; version: number };

/** Saved, but the server thinks it may not be meant (e.g. a required argument no template uses). */
const warningText = (w: { path: string; message: string }[] | undefined) => (w?.length ? ` Note: ${w.map((x) => x.message).join('; ')}.` : '');

export function EditorPage({ name }: { name: string | null }) {
  const isNew = name === null;
  const [initialDraft] = useState(() => loadDraft(name));
  const [form, setForm] = useState<Form | null>(isNew ? (initialDraft ? rekey(initialDraft.form) : emptyForm()) : null);
  const [restored, setRestored] = useState<string | null>(isNew && initialDraft ? initialDraft.savedAt : null);
  const [base, setBase] = useState<Base | null>(null);
  const [stale, setStale] = useState<{ latest: number; newVersion: boolean } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [resources, setResources] = useState<Resource[]>([]);
  const [templates, setTemplates] = useState<ResourceTemplate[]>([]);
  const [errors, setErrors] = useState<Messages>({});
  const [banner, setBanner] = useState<{ kind: 'error' | 'warning'; text: string; conflict?: boolean } | null>(null);
  const [theirs, setTheirs] = useState<Version | null>(null);
  const [status, setStatus] = useState<SaveStatus | null>(null);
  const [saving, setSaving] = useState(false);
  const [touched, setTouched] = useState<Set<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const dirty = useRef(isNew && !!initialDraft);
  const formRef = useRef<HTMLFormElement>(null);
  const barRef = useRef<HTMLDivElement>(null);
  const { revision, status: liveStatus } = useLive();
  const [ask, dialog] = useDialog();
  const focusLater = useFocusLater();
  const id = useId();

  const loadPrompt = useCallback(async (opts: { discardDraft?: boolean } = {}) => {
    if (name === null) return;
    const draft = opts.discardDraft ? null : loadDraft(name);
    const restore = (d: NonNullable<typeof draft>) => {
      setForm(rekey(d.form));
      setBase(d.base);
      setRestored(d.savedAt);
      dirty.current = true;
    };
    try {
      const { data, etag } = await api.getPrompt(name);
      if (draft?.base) {
        restore(draft);
        setStale(draft.base.etag !== etag ? { latest: data.latestVersion, newVersion: data.latestVersion !== draft.base.version } : null);
      } else {
        setForm(formFromVersion(data.latest));
        setBase({ etag, version: data.latestVersion });
        setStale(null);
        setRestored(null);
        dirty.current = false;
      }
      setLoadError(null);
      setBanner(null);
      setTheirs(null);
      setErrors({});
      setStatus(null);
    } catch (err) {
      // Offline (or the server is down): the local draft is still the author's work, show it.
      if (draft?.base) restore(draft);
      setLoadError(errorMessage(err));
    }
  }, [name]);

  useEffect(() => {
    void loadPrompt();
    document.title = `${isNew ? 'New prompt' : `Edit ${name}`} · promptd`;
  }, [loadPrompt]);

  // The library for the resource picker; refreshed on live changes.
  useEffect(() => {
    api.listResources({ limit: 200 }).then((p) => setResources(p.items), () => {});
    api.listTemplates().then((p) => setTemplates(p.items), () => {});
  }, [revision]);

  // Someone else saved meanwhile? Tell the author before they hit 412.
  const checkStale = useCallback(() => {
    if (name === null || !base) return;
    api.getPrompt(name).then(({ data, etag }) => {
      setStale(etag !== base.etag ? { latest: data.latestVersion, newVersion: data.latestVersion !== base.version } : null);
    }, () => {});
  }, [name, base]);
  useEffect(() => {
    if (revision !== 0) checkStale();
  }, [revision]);

  // The connection came back: load what could not be loaded, re-check the base, offer the failed save again.
  const sawError = useRef(false);
  useEffect(() => {
    if (liveStatus === 'error') sawError.current = true;
    if (liveStatus !== 'open' || !sawError.current) return;
    sawError.current = false;
    if (loadError || !form) void loadPrompt();
    else checkStale();
    setStatus((s) => (s?.retry ? { kind: 'info', text: 'The server is reachable again. Your edits are still here: press Retry to save them.', retry: true } : s));
  }, [liveStatus]);

  useEditorGuards({ name, dirty, draft: form ? { form, base } : null, ask, formRef });
  useKeepFocusVisible(barRef, form !== null);

  // Keep my edits but take the current ETag: the next save goes on top of the other author's version.
  const keepMine = async () => {
    if (name === null) return;
    try {
      const { data, etag } = await api.getPrompt(name);
      setBase({ etag, version: data.latestVersion });
      setStale(null);
      setBanner(null);
      setTheirs(null);
    } catch (err) {
      setStatus({ kind: 'error', text: `Could not reach the server. ${errorMessage(err)}`, retry: false });
    }
  };
  const startOver = async () => {
    clearDraft(name);
    setTouched(new Set());
    setSubmitted(false);
    await loadPrompt({ discardDraft: true });
  };
  const discardDraft = async () => {
    clearDraft(name);
    setRestored(null);
    if (isNew) {
      dirty.current = false;
      setForm(emptyForm());
    } else await loadPrompt({ discardDraft: true });
  };

  const warnings = useMemo(() => (form ? checkForm(form, isNew) : {}), [form, isNew]);
  const shown = useMemo(() => visibleWarnings(warnings, touched, submitted), [warnings, touched, submitted]);
  const declared = useMemo(() => new Set(form?.args.map((a) => a.name.trim()).filter(Boolean)), [form?.args]);
  const used = useMemo(() => {
    const s = new Set<string>();
    for (const m of form?.messages ?? []) messageVars(m).forEach((n) => s.add(n));
    return s;
  }, [form?.messages]);

  if (!form) {
    return (
      <section className="page">
        <h1>Edit {name}</h1>
        {loadError ? (
          <Banner kind="error" testId="editor-load-error">
            Could not load this prompt: {loadError}{' '}
            <button type="button" className="btn btn-small" data-testid="editor-load-retry" onClick={() => void loadPrompt()}>Retry</button>
          </Banner>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>
    );
  }

  const update = (patch: Partial<Form>) => {
    dirty.current = true;
    setForm((f) => (f ? { ...f, ...patch } : f));
  };
  // The "Add argument" chip disappears once the variable is declared: focus goes to the new argument's description.
  const declare = (n: string) => {
    update({ args: [...form.args, emptyArg(n)] });
    focusLater(() => document.querySelector<HTMLElement>(`[data-path="arguments[${form.args.length}].description"]`));
  };
  const touch = (el: EventTarget) => {
    const p = el instanceof HTMLElement ? el.dataset.path : undefined;
    if (p && !touched.has(p)) setTouched((t) => new Set(t).add(p));
  };

  const save = async () => {
    if (saving) return;
    setSaving(true);
    setSubmitted(true);
    setStatus(null);
    setErrors({});
    try {
      const body = toBody(form);
      if (name === null) {
        const created = await api.createPrompt({ ...body, name: form.name.trim() });
        dirty.current = false;
        clearDraft(null);
        navigate(href.prompt(created.name));
        pushFlash(`Created ${created.name} v1${created.activeVersion ? ', now served to MCP clients' : ' as a draft (not served yet)'}.${warningText(created.warnings)}`);
      } else {
        const v = await api.createVersion(name, body, base?.etag ?? null);
        dirty.current = false;
        clearDraft(name);
        navigate(`${href.prompt(name)}?version=${v.version}`);
        pushFlash(`Saved v${v.version}${form.activate ? ', now served to MCP clients' : ' as a draft (not served yet)'}.${warningText(v.warnings)}`);
      }
    } catch (err) {
      setBanner(null);
      if (err instanceof ApiError && err.status === 412 && name !== null) {
        setBanner({ kind: 'warning', conflict: true, text: 'Someone else changed this prompt after you opened the editor, so your version was not saved (nothing is lost: versions never change). Your edits are still here.' });
        setStatus({ kind: 'error', text: 'Not saved: someone else saved first. Compare and choose above.' });
        api.getPrompt(name).then(({ data }) => setTheirs(data.latest), () => {});
      } else if (err instanceof ApiError && (err.status === 422 || err.status === 409 || err.status === 400) && err.problem.errors?.length) {
        const n = err.problem.errors.length;
        setErrors(err.fieldErrors);
        setBanner({ kind: 'error', text: `${err.problem.title ?? 'Not saved'}: fix the ${n === 1 ? 'field' : `${n} fields`} marked below.` });
        setStatus({ kind: 'error', text: `Not saved: ${n === 1 ? 'one field needs' : `${n} fields need`} fixing (marked above).` });
        requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      } else if (err instanceof ApiError && err.status === 409 && isNew) {
        setErrors({ name: err.problem.detail ?? 'A prompt with this name already exists.' });
        setStatus({ kind: 'error', text: 'Not saved: that name is taken.' });
      } else if (err instanceof ApiError && err.status === 0) {
        setStatus({ kind: 'error', text: 'Not saved: the server cannot be reached. Your edits are kept in this browser; Retry when it is back.', retry: true });
      } else setStatus({ kind: 'error', text: `Not saved. ${errorMessage(err)}`, retry: true });
    } finally {
      setSaving(false);
    }
  };

  const nextVersion = stale?.newVersion ? stale.latest + 1 : (base?.version ?? 0) + 1;
  return (
    <section className="page editor" aria-labelledby={`${id}-h`}>
      {dialog}
      <nav aria-label="Breadcrumb" className="crumbs">
        <Link href={href.prompts()}>Prompts</Link> <span aria-hidden="true">/</span>{' '}
        {isNew ? <span>New</span> : <><Link href={href.prompt(name)}>{name}</Link> <span aria-hidden="true">/</span> <span>New version</span></>}
      </nav>
      <h1 id={`${id}-h`}>{isNew ? 'New prompt' : <>New version of <span className="mono">{name}</span></>}</h1>
      {!isNew && base && (
        <p className="muted" data-testid="editor-base">
          Starting from v{base.version}.{' '}
          {stale?.newVersion
            ? `v${stale.latest} was saved elsewhere since: keep your edits (below) to save them as v${nextVersion}.`
            : `Saving creates v${nextVersion}; older versions never change.`}
        </p>
      )}
      {restored && (
        <Banner kind="info" testId="draft-restored">
          Restored your unsaved edits from this browser (<Time iso={restored} />).{' '}
          <button type="button" className="btn-link" data-testid="draft-discard" onClick={() => void discardDraft()}>Discard them</button>
        </Banner>
      )}
      {loadError && (
        <Banner kind="warning" testId="editor-load-error">
          Could not reach the server ({loadError}). You are editing your local copy; it is saved here as you type.
        </Banner>
      )}
      {stale !== null && !banner?.conflict && (
        <Banner kind="warning" testId="editor-stale">
          {stale.newVersion ? `Someone else just saved v${stale.latest} of this prompt.` : 'Someone else just changed this prompt (activation, archive or rename).'} Saving now will be refused.{' '}
          <button type="button" className="btn-link" onClick={() => void startOver()}>Start over from v{stale.latest}</button> (discards your edits) or{' '}
          <button type="button" className="btn-link" onClick={keepMine}>keep my edits</button> and save them on top.
        </Banner>
      )}
      {banner && (
        <Banner kind={banner.kind} testId="editor-message">
          {banner.text}{' '}
          {banner.conflict && (
            <>
              <button type="button" className="btn-link" onClick={() => void startOver()} data-testid="editor-reload">Start over from the latest</button> or{' '}
              <button type="button" className="btn-link" onClick={keepMine} data-testid="editor-keep">keep my edits and save on top</button>
              {theirs && <ConflictDiff theirs={theirs} mine={form} />}
            </>
          )}
          <ErrorSummary errors={errors} />
        </Banner>
      )}
      <div className="editor-grid">
        <form
          ref={formRef}
          className="stack"
          noValidate
          onSubmit={(e) => { e.preventDefault(); void save(); }}
          // Touched = typed into. Not on blur: a warning appearing on blur shifts the layout under a click in progress.
          onInput={(e) => touch(e.target)}
          aria-label="Version"
        >
          <fieldset className="card">
            <legend>Metadata</legend>
            {isNew && (
              <div className="field">
                <label htmlFor={`${id}-name`}>Name</label>
                <input id={`${id}-name`} className="mono" data-testid="editor-name" value={form.name} autoFocus onChange={(e) => update({ name: e.target.value })} {...describe('name', errors, shown)} />
                <p className="hint">What MCP clients call it: letters, digits, <code>_ - .</code></p>
                <FieldError path="name" errors={errors} warnings={shown} />
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
            <IconsEditor icons={form.icons} onChange={(icons) => update({ icons })} errors={errors} warnings={shown} />
          </fieldset>
          <fieldset className="card">
            <legend>Arguments</legend>
            <ArgumentsTable args={form.args} onChange={(args) => update({ args })} errors={errors} warnings={shown} used={used} />
          </fieldset>
          <fieldset className="card">
            <legend>Messages</legend>
            <MessagesList messages={form.messages} onChange={(messages) => update({ messages })} errors={errors} warnings={shown} declared={declared} onDeclare={declare} resources={resources} templates={templates} self={name} />
          </fieldset>
          <fieldset className="card">
            <legend>Test cases</legend>
            <TestCases tests={form.tests} args={form.args} onChange={(tests) => update({ tests })} errors={errors} warnings={shown} />
          </fieldset>
          <SaveBar ref={barRef} form={form} update={update} errors={errors} warnings={shown} saving={saving} isNew={isNew} status={status} onRetry={() => formRef.current?.requestSubmit()} />
        </form>
        <aside className="card preview-card" aria-labelledby={`${id}-prev`}>
          <h2 id={`${id}-prev`}>Preview</h2>
          <DraftPreview form={form} resources={resources} templates={templates} saved={!isNew && base ? { name, version: base.version } : null} sampleKey={name} />
        </aside>
      </div>
    </section>
  );
}
