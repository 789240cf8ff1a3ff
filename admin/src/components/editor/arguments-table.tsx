// Arguments: name, type, default, title, description, required, choices (comma list), max length; add/remove.
import { useId } from 'react';
import { useFocusLater } from '../../lib/focus';
import { describe, FieldError, type Messages } from '../bits';
import { ARG_TYPES, type ArgType } from './arg-types';
import { emptyArg, type ArgRow } from './form-model';

interface Props {
  args: ArgRow[];
  onChange: (args: ArgRow[]) => void;
  errors: Messages;
  warnings: Messages;
  used: Set<string>;
}

export function ArgumentsTable({ args, onChange, errors, warnings, used }: Props) {
  const id = useId();
  const focusLater = useFocusLater();
  const byId = (s: string) => () => document.getElementById(s);
  const set = (i: number, patch: Partial<ArgRow>) => onChange(args.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  // Focus follows the change: into the new row's name; after a removal, to the row that took its place, else the one before, else "Add argument".
  const add = () => {
    onChange([...args, emptyArg()]);
    focusLater(byId(`${id}-${args.length}-name`));
  };
  const remove = (i: number) => {
    onChange(args.filter((_, j) => j !== i));
    focusLater(byId(`${id}-${i}-remove`), byId(`${id}-${i - 1}-remove`), byId(`${id}-add`));
  };
  return (
    <div className="args">
      <FieldError path="arguments" errors={errors} warnings={warnings} />
      {args.length === 0 && <p className="muted">No arguments. Add one for every <code>{'{{variable}}'}</code> your messages use.</p>}
      <ol className="arg-list">
        {args.map((a, i) => {
          const p = `arguments[${i}]`;
          const f = (k: string) => `${id}-${i}-${k}`;
          const unused = a.name.trim() !== '' && !used.has(a.name.trim());
          return (
            <li key={a.key} className="arg-row" data-testid="arg-row">
              <div className="arg-head">
                <span className="arg-index">Argument {i + 1}</span>
                {unused && <span className="muted small">not used by any message</span>}
                <button type="button" className="btn btn-small btn-ghost" id={f('remove')} data-testid={`arg-remove-${i}`} aria-label={`Remove argument ${i + 1}${a.name ? ` (${a.name})` : ''}`} onClick={() => remove(i)}>
                  Remove
                </button>
              </div>
              <div className="arg-grid">
                <div className="field">
                  <label htmlFor={f('name')}>Name</label>
                  <input id={f('name')} className="mono" data-testid={`arg-name-${i}`} value={a.name} onChange={(e) => set(i, { name: e.target.value })} {...describe(`${p}.name`, errors, warnings)} />
                  <FieldError path={`${p}.name`} errors={errors} warnings={warnings} />
                </div>
                <div className="field">
                  <label htmlFor={f('type')}>Type</label>
                  <select id={f('type')} data-testid={`arg-type-${i}`} value={a.type} onChange={(e) => set(i, { type: e.target.value as ArgType })} {...describe(`${p}.type`, errors)}>
                    {ARG_TYPES.map((t) => (
                      <option key={t.value} value={t.value}>{t.label} ({t.value})</option>
                    ))}
                  </select>
                  <FieldError path={`${p}.type`} errors={errors} />
                </div>
                <div className="field">
                  <label htmlFor={f('default')}>Default</label>
                  <DefaultInput id={f('default')} index={i} row={a} onChange={(d) => set(i, { default: d })} describedBy={describe(`${p}.default`, errors, warnings)} />
                  <FieldError path={`${p}.default`} errors={errors} warnings={warnings} />
                </div>
                <div className="field">
                  <label htmlFor={f('title')}>Title</label>
                  <input id={f('title')} data-testid={`arg-title-${i}`} value={a.title} onChange={(e) => set(i, { title: e.target.value })} {...describe(`${p}.title`, errors)} />
                  <FieldError path={`${p}.title`} errors={errors} />
                </div>
                <div className="field span-2">
                  <label htmlFor={f('desc')}>Description</label>
                  <input id={f('desc')} data-testid={`arg-description-${i}`} value={a.description} onChange={(e) => set(i, { description: e.target.value })} {...describe(`${p}.description`, errors)} />
                  <FieldError path={`${p}.description`} errors={errors} />
                </div>
                <div className="field">
                  <label htmlFor={f('choices')}>Choices</label>
                  <input id={f('choices')} data-testid={`arg-choices-${i}`} placeholder="a, b, c" value={a.choices} onChange={(e) => set(i, { choices: e.target.value })} {...describe(`${p}.choices`, errors)} />
                  <FieldError path={`${p}.choices`} errors={errors} prefix />
                </div>
                <div className="field">
                  <label htmlFor={f('max')}>Max length</label>
                  <input id={f('max')} type="number" min={1} inputMode="numeric" data-testid={`arg-maxlength-${i}`} value={a.maxLength} onChange={(e) => set(i, { maxLength: e.target.value })} {...describe(`${p}.maxLength`, errors)} />
                  <FieldError path={`${p}.maxLength`} errors={errors} />
                </div>
                <div className="field check">
                  <input id={f('req')} type="checkbox" data-testid={`arg-required-${i}`} checked={a.required} onChange={(e) => set(i, { required: e.target.checked })} />
                  <label htmlFor={f('req')}>Required</label>
                </div>
              </div>
              <FieldError path={p} errors={errors} />
            </li>
          );
        })}
      </ol>
      <button type="button" className="btn btn-small" id={`${id}-add`} data-testid="arg-add" onClick={add}>
        Add argument
      </button>
    </div>
  );
}

type Described = ReturnType<typeof describe>;

/** Yes/no: a select (none, true, false); choices: a select of them; numbers: numeric keyboard, checked by the form. */
function DefaultInput({ id, index, row, onChange, describedBy }: { id: string; index: number; row: ArgRow; onChange: (v: string) => void; describedBy: Described }) {
  const choices = row.choices.split(',').map((c) => c.trim()).filter(Boolean);
  const common = { id, 'data-testid': `arg-default-${index}`, value: row.default, ...describedBy };
  if (row.type === 'boolean' || (row.type === 'string' && choices.length)) {
    const options = row.type === 'boolean' ? ['true', 'false'] : choices;
    return (
      <select {...common} onChange={(e) => onChange(e.target.value)}>
        <option value="">(no default)</option>
        {/* A typed-in value that is not an option stays visible instead of silently changing. */}
        {row.default && !options.includes(row.default) && <option value={row.default}>{row.default}</option>}
        {options.map((o) => (
          <option key={o} value={o}>{row.type === 'boolean' ? (o === 'true' ? 'true (yes)' : 'false (no)') : o}</option>
        ))}
      </select>
    );
  }
  const numeric = row.type === 'number' || row.type === 'integer';
  return <input {...common} className={numeric ? 'mono' : undefined} inputMode={row.type === 'integer' ? 'numeric' : numeric ? 'decimal' : undefined} placeholder="(no default)" onChange={(e) => onChange(e.target.value)} />;
}
