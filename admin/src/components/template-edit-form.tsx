// Edit a resource template (PUT, the full body): URI template, name, title, description, MIME type, content template.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { api } from '../api';
import type { ResourceTemplate, ResourceTemplateBody } from '../types';
import { Banner } from './bits';
import { Text, TextArea, useResourceSubmit } from './resource-forms';

interface Props {
  t: ResourceTemplate;
  onSaved: (msg: string) => void;
  onCancel: () => void;
}

export function TemplateEditForm({ t, onSaved, onCancel }: Props) {
  const id = useId();
  const head = useRef<HTMLHeadingElement>(null);
  const [f, setF] = useState({ uriTemplate: t.uriTemplate, name: t.name, title: t.title ?? '', description: t.description ?? '', mimeType: t.mimeType, text: t.text });
  const { errors, error, busy, submit } = useResourceSubmit((body: ResourceTemplateBody) => api.updateTemplate(t.id, body), onSaved, 'Saved template', 'uriTemplate');
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  useEffect(() => head.current?.focus(), []);

  const go = (e: FormEvent) => {
    e.preventDefault();
    const opt = (s: string) => s.trim() || undefined;
    void submit({ uriTemplate: f.uriTemplate.trim(), name: f.name.trim(), title: opt(f.title), description: opt(f.description), mimeType: f.mimeType.trim(), text: f.text }, () => {});
  };

  return (
    <form className="stack-sm edit-form" onSubmit={go} onKeyDown={(e) => e.key === 'Escape' && onCancel()} aria-labelledby={`${id}-h`} data-testid="template-edit-form">
      <h4 id={`${id}-h`} tabIndex={-1} ref={head}>
        Edit template
      </h4>
      {error && <Banner kind="error">{error}</Banner>}
      <Text id={`${id}-uri`} label="URI template" path="uriTemplate" value={f.uriTemplate} set={set('uriTemplate')} errors={errors} testId="tpl-edit-uri" mono />
      <Text id={`${id}-name`} label="Name" path="name" value={f.name} set={set('name')} errors={errors} testId="tpl-edit-name" />
      <Text id={`${id}-title`} label="Title (optional)" path="title" value={f.title} set={set('title')} errors={errors} testId="tpl-edit-title" />
      <TextArea id={`${id}-desc`} label="Description (optional)" path="description" value={f.description} set={set('description')} errors={errors} testId="tpl-edit-description" rows={2} />
      <Text id={`${id}-mime`} label="MIME type" path="mimeType" value={f.mimeType} set={set('mimeType')} errors={errors} testId="tpl-edit-mime" mono />
      <TextArea id={`${id}-text`} label="Content template" path="text" value={f.text} set={set('text')} errors={errors} testId="tpl-edit-text" rows={5} mono />
      <div className="row-gap">
        <button type="submit" className="btn btn-primary btn-small" data-testid="tpl-edit-save" disabled={busy}>
          {busy ? 'Saving…' : 'Save changes'}
        </button>
        <button type="button" className="btn btn-small" data-testid="tpl-edit-cancel" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
