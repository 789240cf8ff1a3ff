// An include message: which prompt (a combobox over prompt names), pinned how (served label,
// a label, a version), and what its arguments get (templates over this prompt's arguments).
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { useLabelNames, usePromptNames } from '../../lib/suggest';
import { href, Link } from '../../router';
import type { Argument } from '../../types';
import { describe, FieldError, type Messages } from '../bits';
import { argTypeOf } from './arg-types';
import { emptyIncludeArg, type IncludePin, type IncludeRow } from './include-model';
import { optionId, SuggestList, suggestKey } from './suggest-list';

interface Props {
  idBase: string;
  index: number;
  row: IncludeRow;
  onChange: (r: IncludeRow) => void;
  errors: Messages;
  warnings: Messages;
  self: string | null;
}

export function IncludeEditor({ idBase, index, row, onChange, errors, warnings, self }: Props) {
  const p = `messages[${index}].content`;
  const f = (k: string) => `${idBase}-${k}`;
  const set = (patch: Partial<IncludeRow>) => onChange({ ...row, ...patch });
  const [theirs, setTheirs] = useState<Argument[] | null>(null);
  const [lookup, setLookup] = useState<'idle' | 'missing'>('idle');
  const labels = useLabelNames(row.pin === 'label');

  // The included prompt's arguments, to map each one (served version, else latest).
  const prompt = row.prompt.trim();
  useEffect(() => {
    setTheirs(null);
    setLookup('idle');
    if (!prompt) return;
    const t = setTimeout(() => {
      api.getPrompt(prompt).then(
        ({ data }) => setTheirs((data.active ?? data.latest).arguments),
        () => setLookup('missing'),
      );
    }, 250);
    return () => clearTimeout(t);
  }, [prompt]);

  const value = (name: string) => row.args.find((a) => a.name === name)?.value ?? '';
  const setArg = (name: string, v: string) => {
    const has = row.args.some((a) => a.name === name);
    set({ args: has ? row.args.map((a) => (a.name === name ? { ...a, value: v } : a)) : [...row.args, { ...emptyIncludeArg(name), value: v }] });
  };
  // Mapped names the included prompt does not declare (stale, or typed before it loaded) stay visible.
  const extra = theirs ? row.args.filter((a) => a.name && !theirs.some((t) => t.name === a.name)) : [];

  return (
    <div className="include-editor" data-testid={`msg-include-${index}`}>
      <div className="field">
        <label htmlFor={f('prompt')}>Prompt to include</label>
        <PromptCombobox id={f('prompt')} testId={`include-prompt-${index}`} value={row.prompt} onChange={(v) => set({ prompt: v })} self={self} described={describe(`${p}.prompt`, errors, warnings)} />
        {prompt && lookup === 'missing' && <p className="field-warning small">No prompt named {prompt} (yet).</p>}
        {prompt && theirs && <p className="hint"><Link href={href.prompt(prompt)}>Open {prompt}</Link></p>}
        <FieldError path={`${p}.prompt`} errors={errors} warnings={warnings} />
      </div>
      <fieldset className="include-pin">
        <legend>Which version</legend>
        {(['served', 'label', 'version'] as IncludePin[]).map((pin) => (
          <label key={pin} className="inline-check">
            <input type="radio" name={f('pin')} value={pin} checked={row.pin === pin} data-testid={`include-pin-${pin}-${index}`} onChange={() => set({ pin })} />{' '}
            {pin === 'served' ? 'The one served under the same label (else production)' : pin === 'label' ? 'A label' : 'A fixed version'}
          </label>
        ))}
        {row.pin === 'label' && (
          <div className="field">
            <label htmlFor={f('label')}>Label</label>
            <input id={f('label')} className="mono" list={f('labels')} autoComplete="off" data-testid={`include-label-${index}`} value={row.label} onChange={(e) => set({ label: e.target.value })} {...describe(`${p}.label`, errors, warnings)} />
            <datalist id={f('labels')}>{labels.map((l) => <option key={l} value={l} />)}</datalist>
            <FieldError path={`${p}.label`} errors={errors} warnings={warnings} />
          </div>
        )}
        {row.pin === 'version' && (
          <div className="field">
            <label htmlFor={f('version')}>Version</label>
            <input id={f('version')} type="number" min={1} step={1} inputMode="numeric" data-testid={`include-version-${index}`} value={row.version} onChange={(e) => set({ version: e.target.value })} {...describe(`${p}.version`, errors, warnings)} />
            <FieldError path={`${p}.version`} errors={errors} warnings={warnings} />
          </div>
        )}
      </fieldset>
      {theirs && (theirs.length > 0 || extra.length > 0) && (
        <fieldset className="include-args" data-testid={`include-args-${index}`}>
          <legend>Arguments of {prompt}</legend>
          <p className="hint">Each is a template over this prompt&apos;s arguments, e.g. <code>{'{{topic}}'}</code>. Left empty: not passed (its default applies).</p>
          {theirs.map((a) => (
            <div className="field" key={a.name}>
              <label htmlFor={f(`arg-${a.name}`)}>
                <span className="mono">{a.name}</span> <span className="muted small">({argTypeOf(a)}{a.required ? ', required' : ''})</span>
              </label>
              <input id={f(`arg-${a.name}`)} className="mono" data-testid={`include-arg-${index}-${a.name}`} value={value(a.name)} onChange={(e) => setArg(a.name, e.target.value)} {...describe(`${p}.arguments.${a.name}`, errors)} />
              <FieldError path={`${p}.arguments.${a.name}`} errors={errors} />
            </div>
          ))}
          {extra.map((a) => (
            <div key={a.key} className="field-warning small">
              {prompt} has no argument <code>{a.name}</code>.{' '}
              <button type="button" className="btn-link" onClick={() => set({ args: row.args.filter((x) => x.key !== a.key) })}>Remove {a.name}</button>
              <FieldError path={`${p}.arguments.${a.name}`} errors={errors} />
            </div>
          ))}
        </fieldset>
      )}
      <FieldError path={`${p}.arguments`} errors={errors} warnings={warnings} />
    </div>
  );
}

type Described = ReturnType<typeof describe>;

/** An ARIA 1.2 combobox over prompt names (GET /prompts?q=); free text is allowed. */
function PromptCombobox({ id, testId, value, onChange, self, described }: { id: string; testId: string; value: string; onChange: (v: string) => void; self: string | null; described: Described }) {
  const [focused, setFocused] = useState(false);
  const [closed, setClosed] = useState(false);
  const [active, setActive] = useState(0);
  const names = usePromptNames(focused ? value.trim() : null, self).filter((n) => n !== value.trim());
  const open = focused && !closed && names.length > 0;
  const listId = `${id}-list`;
  const at = Math.min(active, Math.max(0, names.length - 1));
  const pick = (n: string) => {
    onChange(n);
    setClosed(true);
  };
  return (
    <div className="combo">
      <input
        id={id}
        className="mono"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open ? optionId(listId, at) : undefined}
        autoComplete="off"
        data-testid={testId}
        value={value}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onChange={(e) => {
          onChange(e.target.value);
          setClosed(false);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (open) suggestKey(e, names.length, at, setActive, () => pick(names[at]!), () => setClosed(true));
          else if (e.key === 'ArrowDown') setClosed(false);
        }}
        {...described}
      />
      {open ? <SuggestList id={listId} options={names} active={at} onPick={pick} testId="include-prompt-options" label="Prompts" /> : <ul id={listId} role="listbox" aria-label="Prompts" hidden />}
    </div>
  );
}
