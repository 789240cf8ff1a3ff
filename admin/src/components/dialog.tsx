// A modal confirm/prompt dialog on the native <dialog> element (focus trap and Esc for free).
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';

export interface AskOptions {
  title: string;
  message?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  input?: { label: string; initial: string; pattern?: string; hint?: string };
}
export interface Answer { ok: boolean; value: string }
type Request = AskOptions & { resolve: (a: Answer) => void };

function Dialog({ req, onDone }: { req: Request; onDone: (a: Answer) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [value, setValue] = useState(req.input?.initial ?? '');
  const titleId = useId();
  const inputId = useId();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onDone({ ok: true, value });
  };
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      data-testid="confirm-dialog"
      onCancel={(e) => {
        e.preventDefault();
        onDone({ ok: false, value });
      }}
    >
      <form onSubmit={submit}>
        <h2 id={titleId}>{req.title}</h2>
        {req.message && <div className="dialog-body">{req.message}</div>}
        {req.input && (
          <div className="field">
            <label htmlFor={inputId}>{req.input.label}</label>
            <input
              id={inputId}
              data-testid="confirm-input"
              value={value}
              required
              pattern={req.input.pattern}
              autoFocus
              onChange={(e) => setValue(e.target.value)}
            />
            {req.input.hint && <p className="hint">{req.input.hint}</p>}
          </div>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" data-testid="confirm-cancel" autoFocus={req.danger && !req.input} onClick={() => onDone({ ok: false, value })}>
            Cancel
          </button>
          <button type="submit" className={req.danger ? 'btn btn-danger' : 'btn btn-primary'} data-testid="confirm-ok" autoFocus={!req.danger && !req.input}>
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
