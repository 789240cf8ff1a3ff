// Edit a stored resource (PUT, the full body): metadata, the text of a text resource, or a new file for a binary one.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { api } from '../api';
import type { ResourceDetail } from '../types';
import { Banner, describe, FieldError, formatBytes, type Messages } from './bits';
import { readBase64, Text, TextArea, useResourceSubmit } from './resource-forms';
import { VisibilityField, type Visibility } from './visibility-field';

interface Props {
  d: ResourceDetail;
  onSaved: (msg: string) => void;
  onCancel: () => void;
}

export function ResourceEditForm({ d, onSaved, onCancel }: Props) {
  const id = useId();
  const first = useRef<HTMLHeadingElement>(null);
  const [f, setF] = useState({ uri: d.uri, name: d.name, title: d.title ?? '', description: d.description ?? '', mimeType: d.mimeType, text: d.text ?? '' });
  const [file, setFile] = useState<File | null>(null);
  const [visibility, setVisibility] = useState<Visibility>(d.visibility);
  const { errors, error, busy, submit } = useResourceSubmit((body: Parameters<typeof api.updateResource>[1]) => api.updateResource(d.id, body), onSaved, 'Saved');
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  useEffect(() => first.current?.focus(), []);

  const warnings: Messages = {};
  if (f.uri.trim() !== d.uri && d.usedBy.length > 0) {
    const who = d.usedBy.map((u) => `${u.prompt} v${u.version}${u.active ? ' (active)' : ''}`).join(', ');
    warnings.uri = `Bound by ${who}: those versions keep the old URI and will stop resolving it.`;
  }

  const pick = (next: File | null) => {
    setFile(next);
    if (next?.type) set('mimeType')(next.type);
  };
  const go = async (e: FormEvent) => {
    e.preventDefault();
    const content = d.binary ? { blob: file ? await readBase64(file) : d.blob ?? '' } : { text: f.text };
    const opt = (s: string) => s.trim() || undefined;
    await submit({ uri: f.uri.trim(), name: f.name.trim(), title: opt(f.title), description: opt(f.description), mimeType: f.mimeType.trim(), visibility, ...content }, () => {});
  };

  return (
    <form className="stack-sm edit-form" onSubmit={go} onKeyDown={(e) => e.key === 'Escape' && onCancel()} aria-labelledby={`${id}-h`} data-testid="resource-edit-form">
      <h4 id={`${id}-h`} tabIndex={-1} ref={first}>
        Edit resource
      </h4>
      {error && <Banner kind="error">{error}</Banner>}
      <Text id={`${id}-uri`} label="URI" path="uri" value={f.uri} set={set('uri')} errors={errors} warnings={warnings} testId="res-edit-uri" mono />
      <Text id={`${id}-name`} label="Name" path="name" value={f.name} set={set('name')} errors={errors} testId="res-edit-name" />
      <Text id={`${id}-title`} label="Title (optional)" path="title" value={f.title} set={set('title')} errors={errors} testId="res-edit-title" />
      <TextArea id={`${id}-desc`} label="Description (optional)" path="description" value={f.description} set={set('description')} errors={errors} testId="res-edit-description" rows={2} />
      <Text id={`${id}-mime`} label="MIME type" path="mimeType" value={f.mimeType} set={set('mimeType')} errors={errors} testId="res-edit-mime" mono />
      {d.binary ? (
        <div className="field">
          <label htmlFor={`${id}-file`}>Replace file (optional)</label>
          <input id={`${id}-file`} type="file" data-testid="res-edit-file" onChange={(e) => pick(e.target.files?.[0] ?? null)} {...describe('blob', errors)} />
          <p className="hint" data-testid="res-edit-file-status">
            {file ? `New file: ${file.name}, ${formatBytes(file.size)}` : `Keeps the current ${formatBytes(d.size)} file.`}
          </p>
          <FieldError path="blob" errors={errors} />
        </div>
      ) : (
        <TextArea id={`${id}-text`} label="Text" path="text" value={f.text} set={set('text')} errors={errors} testId="res-edit-text" rows={8} mono />
      )}
      <VisibilityField value={visibility} set={setVisibility} errors={errors} testId="res-edit-visibility" />
      <div className="row-gap">
        <button type="submit" className="btn btn-primary btn-small" data-testid="res-edit-save" disabled={busy}>
          {busy ? 'Saving…' : 'Save changes'}
        </button>
        <button type="button" className="btn btn-small" data-testid="res-edit-cancel" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
