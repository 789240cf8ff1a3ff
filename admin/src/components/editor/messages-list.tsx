// Messages: add/remove/move; role; content type; template or resource binding per message.
import { useId } from 'react';
import { useFocusLater } from '../../lib/focus';
import type { Resource, ResourceTemplate, Role } from '../../types';
import { describe, FieldError, formatBytes, type Messages } from '../bits';
import { emptyMsg, type MsgRow, type MsgType } from './form-model';
import { IncludeEditor } from './include-editor';
import { MessageAnnotations } from './message-annotations';
import { ResourcePicker } from './resource-picker';
import { TemplateInput } from './template-input';

interface Props {
  messages: MsgRow[];
  onChange: (m: MsgRow[]) => void;
  errors: Messages;
  warnings: Messages;
  declared: Set<string>;
  onDeclare: (name: string) => void;
  resources: Resource[];
  templates: ResourceTemplate[];
  /** The prompt being edited (null for a new one): not offered as its own include. */
  self: string | null;
}

const TYPES: { value: MsgType; label: string }[] = [
  { value: 'text', label: 'Text (template)' },
  { value: 'resource', label: 'Embedded resource' },
  { value: 'resource_link', label: 'Resource link' },
  { value: 'image', label: 'Image' },
  { value: 'audio', label: 'Audio' },
  { value: 'include', label: 'Include another prompt' },
];

export function MessagesList({ messages, onChange, errors, warnings, declared, onDeclare, resources, templates, self }: Props) {
  const id = useId();
  const set = (i: number, patch: Partial<MsgRow>) => onChange(messages.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  const focusLater = useFocusLater();
  const byId = (s: string) => () => document.getElementById(s);
  // The moved row keeps focus on its arrow; at the top or bottom that arrow is disabled, so the other one takes it.
  const move = (i: number, d: -1 | 1) => {
    const next = [...messages];
    const [m] = next.splice(i, 1);
    next.splice(i + d, 0, m!);
    onChange(next);
    const to = i + d;
    focusLater(byId(`${id}-${to}-${d < 0 ? 'up' : 'down'}`), byId(`${id}-${to}-${d < 0 ? 'down' : 'up'}`));
  };
  const add = () => {
    onChange([...messages, emptyMsg(messages.at(-1)?.role === 'user' ? 'assistant' : 'user')]);
    focusLater(byId(`${id}-${messages.length}-text`));
  };
  const remove = (i: number) => {
    onChange(messages.filter((_, j) => j !== i));
    focusLater(byId(`${id}-${i}-remove`), byId(`${id}-${i - 1}-remove`), byId(`${id}-add`));
  };
  return (
    <div className="messages">
      <FieldError path="messages" errors={errors} warnings={warnings} />
      <ol className="msg-list">
        {messages.map((m, i) => {
          const p = `messages[${i}]`;
          const f = (k: string) => `${id}-${i}-${k}`;
          const label = `message ${i + 1}`;
          return (
            <li key={m.key} className={`msg-row role-${m.role}`} data-testid="msg-row">
              <div className="msg-head">
                <span className="msg-index">Message {i + 1}</span>
                <div className="field inline">
                  <label htmlFor={f('role')}>Role</label>
                  <select id={f('role')} data-testid={`msg-role-${i}`} value={m.role} onChange={(e) => set(i, { role: e.target.value as Role })}>
                    <option value="user">user</option>
                    <option value="assistant">assistant</option>
                  </select>
                </div>
                <div className="field inline">
                  <label htmlFor={f('type')}>Type</label>
                  <select id={f('type')} data-testid={`msg-type-${i}`} value={m.type} onChange={(e) => set(i, { type: e.target.value as MsgType })}>
                    {TYPES.map((t) => (
                      <option key={t.value} value={t.value}>
                        {t.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="msg-tools" role="group" aria-label={`Arrange ${label}`}>
                  <button type="button" className="btn btn-small btn-ghost" id={f('up')} data-testid={`msg-up-${i}`} disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move ${label} up`}>
                    ↑
                  </button>
                  <button type="button" className="btn btn-small btn-ghost" id={f('down')} data-testid={`msg-down-${i}`} disabled={i === messages.length - 1} onClick={() => move(i, 1)} aria-label={`Move ${label} down`}>
                    ↓
                  </button>
                  <button type="button" className="btn btn-small btn-ghost" id={f('remove')} data-testid={`msg-remove-${i}`} onClick={() => remove(i)} aria-label={`Remove ${label}`}>
                    Remove
                  </button>
                </div>
              </div>
              <FieldError path={`${p}.role`} errors={errors} />
              {m.type === 'text' ? (
                <div className="field">
                  <label htmlFor={f('text')}>Template</label>
                  <TemplateInput
                    id={f('text')}
                    testId={`msg-text-${i}`}
                    value={m.text}
                    onChange={(text) => set(i, { text })}
                    declared={declared}
                    onDeclare={onDeclare}
                    describedBy={describe(`${p}.content.text`, errors, warnings)}
                    self={self}
                  />
                  <FieldError path={`${p}.content.text`} errors={errors} warnings={warnings} />
                </div>
              ) : m.type === 'include' ? (
                <IncludeEditor idBase={f('inc')} index={i} row={m.include} onChange={(include) => set(i, { include })} errors={errors} warnings={warnings} self={self} />
              ) : (
                <>
                  <ResourcePicker
                    id={f('uri')}
                    index={i}
                    kind={m.type}
                    value={m.uri}
                    onChange={(uri) => set(i, { uri })}
                    resources={resources}
                    templates={templates}
                    declared={declared}
                    onDeclare={onDeclare}
                    describedBy={describe(`${p}.content.${m.type === 'image' || m.type === 'audio' ? 'resourceUri' : 'uri'}`, errors, warnings)}
                  />
                  {(m.type === 'image' || m.type === 'audio') && m.inline && !m.uri && (
                    <p className="muted small">
                      Keeps the inline {m.inline.mimeType} data ({formatBytes(Math.round((m.inline.data.length * 3) / 4))}) from the previous version. Choose a stored resource to replace it.
                    </p>
                  )}
                  <FieldError path={`${p}.content.uri`} errors={errors} warnings={warnings} />
                  <FieldError path={`${p}.content.resourceUri`} errors={errors} warnings={warnings} />
                  <FieldError path={`${p}.content.data`} errors={errors} />
                </>
              )}
              {m.type !== 'include' && <MessageAnnotations index={i} idBase={f('ann')} row={m} onChange={(patch) => set(i, patch)} errors={errors} warnings={warnings} />}
              <FieldError path={`${p}.content`} errors={errors} />
              <FieldError path={p} errors={errors} />
            </li>
          );
        })}
      </ol>
      <div className="row-gap">
        <button type="button" className="btn btn-small" id={`${id}-add`} data-testid="msg-add" onClick={add}>
          Add message
        </button>
      </div>
    </div>
  );
}
