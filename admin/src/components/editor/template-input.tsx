// A Mustache textarea with {{variables}} highlighted in an overlay, and a chip list of the variables it uses.
// Typing `{{>` offers prompt names to include (then `@` offers labels), as a listbox the textarea drives.
import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLabelNames, usePromptNames } from '../../lib/suggest';
import { scanTemplate } from '../../lib/template-vars';
import { optionId, SuggestList, suggestKey } from './suggest-list';

interface Props {
  id: string;
  value: string;
  onChange: (v: string) => void;
  declared: Set<string>;
  onDeclare: (name: string) => void;
  testId: string;
  describedBy?: { 'aria-invalid'?: boolean; 'aria-describedby'?: string; 'data-path'?: string };
  /** This prompt's own name: never offered as an include of itself. */
  self?: string | null;
}

type Fragment = { kind: 'prompt' | 'label'; q: string; start: number; prompt?: string };

/** The include being typed just before the caret: `{{> na` (a prompt name) or `{{> name@st` (a label). */
export function includeFragment(text: string, caret: number): Fragment | null {
  const before = text.slice(0, caret);
  const label = /\{\{>\s*([A-Za-z0-9_.-]+)@([a-z0-9-]*)$/.exec(before);
  if (label) return { kind: 'label', q: label[2]!, start: caret - label[2]!.length, prompt: label[1] };
  const name = /\{\{>\s*([A-Za-z0-9_.-]*)$/.exec(before);
  return name ? { kind: 'prompt', q: name[1]!, start: caret - name[1]!.length } : null;
}

export function TemplateInput({ id, value, onChange, declared, onDeclare, testId, describedBy, self }: Props) {
  const ta = useRef<HTMLTextAreaElement>(null);
  const scan = useMemo(() => scanTemplate(value), [value]);
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  // Closed (Escape, a pick) until the text changes again.
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const frag = caret !== null && closedFor !== value ? includeFragment(value, caret) : null;
  const names = usePromptNames(frag?.kind === 'prompt' ? frag.q : null, self);
  const labels = useLabelNames(frag?.kind === 'label');
  const options = frag?.kind === 'label' ? labels.filter((l) => l.startsWith(frag.q)) : frag ? names : [];
  const listId = `${id}-suggest`;
  const open = options.length > 0;
  const cur = Math.min(active, Math.max(0, options.length - 1));

  const pick = (o: string) => {
    if (!frag || caret === null) return;
    const rest = value.slice(caret);
    // Complete the tag: the name (caret stays before "}}", so "@" can add a label), or the label (caret after "}}").
    const tail = rest.replace(/^[A-Za-z0-9_.@-]*/, '');
    const close = tail.startsWith('}}') ? '' : '}}';
    const next = value.slice(0, frag.start) + o + close + tail;
    const pos = frag.start + o.length + (frag.kind === 'label' ? 2 : 0);
    onChange(next);
    setClosedFor(next);
    setActive(0);
    requestAnimationFrame(() => {
      ta.current?.setSelectionRange(pos, pos);
      setCaret(pos);
    });
  };
  const track = () => setCaret(ta.current?.selectionStart ?? null);

  // Grow with the content, so the overlay never needs to scroll.
  useLayoutEffect(() => {
    const el = ta.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [value]);

  const parts: ReactNode[] = [];
  let at = 0;
  scan.tags.forEach((t, i) => {
    if (t.start < at) return;
    parts.push(value.slice(at, t.start));
    const cls =
      t.kind === 'comment' ? 'tpl-comment'
      : t.kind === 'var' || t.kind === 'section' || t.kind === 'inverted' || t.kind === 'close'
        ? declared.has(t.name) ? 'tpl-ok' : 'tpl-bad'
        : 'tpl-other';
    parts.push(
      <mark key={i} className={cls}>
        {value.slice(t.start, t.end)}
      </mark>,
    );
    at = t.end;
  });
  parts.push(value.slice(at));

  return (
    <div className="tpl">
      <div className="tpl-box">
        <div className="tpl-backdrop" aria-hidden="true">
          {parts}
          {'\u200b'}
        </div>
        <textarea
          id={id}
          ref={ta}
          className="tpl-input"
          data-testid={testId}
          spellCheck={false}
          rows={3}
          value={value}
          onChange={(e) => {
            onChange(e.target.value);
            setCaret(e.target.selectionStart);
            setActive(0);
          }}
          onSelect={track}
          onBlur={() => setCaret(null)}
          onKeyDown={(e) => {
            if (open) suggestKey(e, options.length, cur, setActive, () => pick(options[cur]!), () => setClosedFor(value));
          }}
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? optionId(listId, cur) : undefined}
          {...describedBy}
        />
      </div>
      {open && (
        <SuggestList id={listId} options={options} active={cur} onPick={pick} testId="include-suggest" label={frag?.kind === 'label' ? `Labels of ${frag.prompt}` : 'Prompts to include'} />
      )}
      <p className="sr-only" aria-live="polite">
        {open ? `${options.length} ${frag?.kind === 'label' ? 'labels' : 'prompts'} to include. Up and down to choose, Enter to insert, Escape to close.` : ''}
      </p>
      {scan.names.length > 0 && (
        <ul className="chips" aria-label="Variables used">
          {scan.names.map((n) => (
            <li key={n} className={declared.has(n) ? 'chip chip-ok' : 'chip chip-bad'} data-testid="template-var" data-var={n} data-declared={declared.has(n)}>
              <code>{`{{${n}}}`}</code>
              {declared.has(n) ? (
                <span className="sr-only"> declared</span>
              ) : (
                <>
                  <span> undeclared</span>
                  <button type="button" className="btn-link" onClick={() => onDeclare(n)} data-testid={`declare-${n}`}>
                    Add argument
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
