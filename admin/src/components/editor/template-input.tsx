// A Mustache textarea with {{variables}} highlighted in an overlay, and a chip list of the variables it uses.
import { useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import { scanTemplate } from '../../lib/template-vars';

interface Props {
  id: string;
  value: string;
  onChange: (v: string) => void;
  declared: Set<string>;
  onDeclare: (name: string) => void;
  testId: string;
  describedBy?: { 'aria-invalid'?: boolean; 'aria-describedby'?: string; 'data-path'?: string };
}

export function TemplateInput({ id, value, onChange, declared, onDeclare, testId, describedBy }: Props) {
  const ta = useRef<HTMLTextAreaElement>(null);
  const scan = useMemo(() => scanTemplate(value), [value]);

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
          onChange={(e) => onChange(e.target.value)}
          {...describedBy}
        />
      </div>
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
