// Create a text resource, or upload a binary file (read as base64).
import { useId, useState, type FormEvent } from 'react';
import { ApiError, api, errorMessage } from '../api';
import { Banner, describe, FieldError, formatBytes, type Messages } from './bits';
import { VisibilityField, type Visibility } from './visibility-field';

/** Sends a resource body; field errors (422, or 409 on a taken URI) land next to their inputs. */
export function useResourceSubmit<B>(send: (body: B) => Promise<{ uri?: string; uriTemplate?: string }>, onDone: (msg: string) => void, verb = 'Added', conflictPath = 'uri') {
  const [errors, setErrors] = useState<Messages>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (body: B, reset: () => void) => {
    setBusy(true);
    setErrors({});
    setError(null);
    try {
      const r = await send(body);
      reset();
      onDone(`${verb} ${r.uri ?? r.uriTemplate}.`);
    } catch (err) {
      if (err instanceof ApiError && err.problem.errors?.length) setErrors(err.fieldErrors);
      else if (err instanceof ApiError && err.status === 409) setErrors({ [conflictPath]: err.problem.detail ?? 'Another one already has this URI.' });
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return { errors, error, busy, submit };
}

interface FieldProps { id: string; label: string; path: string; value: string; set: (v: string) => void; errors: Messages; warnings?: Messages; testId: string; placeholder?: string; mono?: boolean }

export function Text({ id, label, path, value, set, errors, warnings, testId, placeholder, mono }: FieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className={mono ? 'mono' : undefined} data-testid={testId} value={value} placeholder={placeholder} onChange={(e) => set(e.target.value)} {...describe(path, errors, warnings)} />
      <FieldError path={path} errors={errors} warnings={warnings} />
    </div>
  );
}

export function TextArea({ id, label, path, value, set, errors, testId, mono, rows = 3 }: FieldProps & { rows?: number }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={rows} className={mono ? 'mono' : undefined} data-testid={testId} value={value} onChange={(e) => set(e.target.value)} {...describe(path, errors)} />
      <FieldError path={path} errors={errors} />
    </div>
  );
}

export function TextResourceForm({ onCreated }: { onCreated: (msg: string) => void }) {
  const id = useId();
  const [f, setF] = useState({ uri: '', name: '', title: '', mimeType: 'text/plain', text: '' });
  const [visibility, setVisibility] = useState<Visibility>('bound');
  const { errors, error, busy, submit } = useResourceSubmit(api.createResource, onCreated);
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  const go = (e: FormEvent) => {
    e.preventDefault();
    void submit({ uri: f.uri.trim(), name: f.name.trim(), title: f.title.trim() || undefined, mimeType: f.mimeType.trim(), text: f.text, visibility }, () => {
      setF({ uri: '', name: '', title: '', mimeType: 'text/plain', text: '' });
      setVisibility('bound');
    });
  };
  return (
    <form className="card stack-sm" onSubmit={go} aria-labelledby={`${id}-h`} data-testid="resource-text-form">
      <h3 id={`${id}-h`}>New text resource</h3>
      {error && <Banner kind="error">{error}</Banner>}
      <Text id={`${id}-uri`} label="URI" path="uri" value={f.uri} set={set('uri')} errors={errors} testId="res-uri" placeholder="docs://style-guide" mono />
      <Text id={`${id}-name`} label="Name" path="name" value={f.name} set={set('name')} errors={errors} testId="res-name" />
      <Text id={`${id}-title`} label="Title (optional)" path="title" value={f.title} set={set('title')} errors={errors} testId="res-title" />
      <Text id={`${id}-mime`} label="MIME type" path="mimeType" value={f.mimeType} set={set('mimeType')} errors={errors} testId="res-mime" mono />
      <TextArea id={`${id}-text`} label="Text" path="text" value={f.text} set={set('text')} errors={errors} testId="res-text" rows={5} mono />
      <VisibilityField value={visibility} set={setVisibility} errors={errors} testId="res-visibility" />
      <button type="submit" className="btn btn-primary" data-testid="res-create" disabled={busy}>
        {busy ? 'Adding…' : 'Add text resource'}
      </button>
    </form>
  );
}

export function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(r.error ?? new Error('Could not read the file'));
    r.readAsDataURL(file);
  });
}

export function UploadForm({ onCreated }: { onCreated: (msg: string) => void }) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [f, setF] = useState({ uri: '', name: '', mimeType: '' });
  const [inputKey, setInputKey] = useState(0);
  const [visibility, setVisibility] = useState<Visibility>('bound');
  const { errors, error, busy, submit } = useResourceSubmit(api.createResource, onCreated);
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  const pick = (file: File | null) => {
    setFile(file);
    if (file) setF({ uri: `files://${file.name.replace(/\s+/g, '-')}`, name: file.name, mimeType: file.type || 'application/octet-stream' });
  };
  const go = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    const blob = await readBase64(file);
    await submit({ uri: f.uri.trim(), name: f.name.trim(), mimeType: f.mimeType.trim(), blob, visibility }, () => {
      setVisibility('bound');
      setFile(null);
      setF({ uri: '', name: '', mimeType: '' });
      setInputKey((k) => k + 1);
    });
  };
  return (
    <form className="card stack-sm" onSubmit={go} aria-labelledby={`${id}-h`} data-testid="resource-upload-form">
      <h3 id={`${id}-h`}>Upload a file</h3>
      <p className="muted small">Images and audio can be used in image/audio messages; any file can be embedded.</p>
      {error && <Banner kind="error">{error}</Banner>}
      <div className="field">
        <label htmlFor={`${id}-file`}>File</label>
        <input key={inputKey} id={`${id}-file`} type="file" data-testid="res-file" onChange={(e) => pick(e.target.files?.[0] ?? null)} {...describe('blob', errors)} />
        {file && <p className="hint">{formatBytes(file.size)}</p>}
        <FieldError path="blob" errors={errors} />
      </div>
      {file && (
        <>
          <Text id={`${id}-uri`} label="URI" path="uri" value={f.uri} set={set('uri')} errors={errors} testId="res-upload-uri" mono />
          <Text id={`${id}-name`} label="Name" path="name" value={f.name} set={set('name')} errors={errors} testId="res-upload-name" />
          <Text id={`${id}-mime`} label="MIME type" path="mimeType" value={f.mimeType} set={set('mimeType')} errors={errors} testId="res-upload-mime" mono />
          <VisibilityField value={visibility} set={setVisibility} errors={errors} testId="res-upload-visibility" />
        </>
      )}
      <button type="submit" className="btn btn-primary" data-testid="res-upload" disabled={busy || !file}>
        {busy ? 'Uploading…' : 'Upload'}
      </button>
    </form>
  );
}
