// A modal confirm/prompt dialog on the native <dialog> element: Esc cancels, Tab stays inside, focus returns to the opener.
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';

export interface AskOptions {
  title: string;
  message?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  input?: { label: string; initial: string; hint?: string; /** A message when the value is not acceptable (shown by the field, not in the browser's bubble). */ validate?: (value: string) => string | null };
}
export interface Answer { ok: boolean; value: string }
type Request = AskOptions & { resolve: (a: Answer) => void };

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab from the last control goes to the first, Shift+Tab from the first to the last. */
export function trapTab(e: KeyboardEvent<HTMLDialogElement>) {
  if (e.key !== 'Tab') return;
  const items = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  const at = document.activeElement;
  if (e.shiftKey && (at === first || !e.currentTarget.contains(at))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (at === last || !e.currentTarget.contains(at))) {
    e.preventDefault();
    first.focus();
  }
}

function Dialog({ req, onDone: done }: { req: Request; onDone: (a: Answer) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [opener] = useState(() => document.activeElement);
  const [value, setValue] = useState(req.input?.initial ?? '');
  const [invalid, setInvalid] = useState<string | null>(null);
  const titleId = useId();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    // showModal() focuses the first control; React's autoFocus is not an attribute it sees, so pick the default here.
    d?.querySelector<HTMLElement>('[data-autofocus="true"]')?.focus();
  }, []);
  const onDone = (a: Answer) => {
    ref.current?.close();
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    done(a);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = req.input?.validate?.(value) ?? null;
    setInvalid(problem);
    if (problem) return inputRef.current?.focus();
    onDone({ ok: true, value });
  };
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      data-testid="confirm-dialog"
      onKeyDown={trapTab}
      onCancel={(e) => {
        e.preventDefault();
        onDone({ ok: false, value });
      }}
    >
      <form onSubmit={submit} noValidate>
        <h2 id={titleId}>{req.title}</h2>
        {req.message && <div className="dialog-body">{typeof req.message === 'string' ? <p>{req.message}</p> : req.message}</div>}
        {req.input && (
          <div className="field">
            <label htmlFor={inputId}>{req.input.label}</label>
            <input
              id={inputId}
              ref={inputRef}
              data-testid="confirm-input"
              value={value}
              aria-invalid={invalid ? true : undefined}
              aria-describedby={`${inputId}-hint${invalid ? ` ${inputId}-err` : ''}`}
              data-autofocus="true"
              onChange={(e) => {
                setValue(e.target.value);
                if (invalid) setInvalid(req.input?.validate?.(e.target.value) ?? null);
              }}
            />
            {req.input.hint && <p className="hint" id={`${inputId}-hint`}>{req.input.hint}</p>}
            {invalid && (
              <p className="field-error" id={`${inputId}-err`} role="alert" data-testid="confirm-input-error">
                {invalid}
              </p>
            )}
          </div>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" data-testid="confirm-cancel" data-autofocus={!!req.danger && !req.input} onClick={() => onDone({ ok: false, value })}>
            {req.cancelLabel ?? 'Cancel'}
          </button>
          <button type="submit" className={req.danger ? 'btn btn-danger' : 'btn btn-primary'} data-testid="confirm-ok" data-autofocus={!req.danger && !req.input}>
            {req.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** `const [ask, dialog] = useDialog()`; render `dialog`, then `await ask({...})`. */
export function useDialog(): [(o: AskOptions) => Promise<Answer>, ReactNode] {
  const [req, setReq] = useState<Request | null>(null);
  const ask = useCallback((o: AskOptions) => new Promise<Answer>((resolve) => setReq({ ...o, resolve })), []);
  const element = req ? (
    <Dialog
      req={req}
      onDone={(a) => {
        req.resolve(a);
        setReq(null);
      }}
    />
  ) : null;
  return [ask, element];
}
