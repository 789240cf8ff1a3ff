// Set, move or remove the release labels of one version, in a modal like dialog.tsx's:
// Esc closes, Tab stays inside, focus returns to the opener. Moves send the ETag read when
// the dialog opened, so a prompt someone else changed meanwhile is a 412, said and reloaded.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError, api, errorMessage } from '../api';
import { Banner, describe, FieldError, type Messages } from './bits';
import { trapTab } from './dialog';
import { checkLabel, LabelChips } from './label-chips';
import { CheckRefusal, refusalOf, type Refusal } from './check-refusal';
import { useCan } from '../me';

interface Pointer { label: string; version: number }
interface Props { name: string; version: number; onChanged: () => void; onClose: () => void }

const CONFLICT = 'Someone else changed this prompt since this dialog opened, so nothing was changed. The labels shown are the current ones now: check them and try again.';

export function LabelDialog({ name, version, onChanged, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [opener] = useState(() => document.activeElement);
  const [pointers, setPointers] = useState<Pointer[] | null>(null);
  const [etag, setEtag] = useState<string | null>(null);
  const [known, setKnown] = useState<string[]>([]);
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<Messages>({});
  const [banner, setBanner] = useState<{ kind: 'error' | 'warning'; text: string } | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [confirmProd, setConfirmProd] = useState(false);
  // A protected label refused because the version's checks fail: what was asked, to force it.
  const [refused, setRefused] = useState<(Refusal & { label: string; verb: string }) | null>(null);
  const canAdmin = useCan('admin');
  const id = useId();

  const load = async () => {
    const [{ data, etag: e }, labels] = await Promise.all([api.getPrompt(name), api.promptLabels(name)]);
    setEtag(e ?? `"${data.revision}"`);
    setPointers(labels.items);
  };
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    inputRef.current?.focus();
    load().catch((err) => setBanner({ kind: 'error', text: errorMessage(err) }));
    api.listLabels().then((r) => setKnown(r.items.map((i) => i.label)), () => {});
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const close = () => {
    ref.current?.close();
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    onClose();
  };

  /** Runs a move; 412 reloads the labels and says so, field errors land by the input. */
  const move = async (what: () => Promise<unknown>, done: string | (() => string), target?: { label: string; verb: string }) => {
    setBusy(true);
    setBanner(null);
    setErrors({});
    setRefused(null);
    try {
      await what();
      setStatus(typeof done === 'string' ? done : done());
      setConfirmProd(false);
      await load();
      onChanged();
      return true;
    } catch (err) {
      const refusal = refusalOf(err);
      if (refusal && target) {
        setRefused({ ...refusal, ...target });
      } else if (err instanceof ApiError && err.status === 412) {
        setBanner({ kind: 'warning', text: CONFLICT });
        await load().catch(() => {});
      } else if (err instanceof ApiError && err.problem.errors?.length) {
        const fe = err.fieldErrors;
        setErrors({ label: [fe.label, fe.version].filter(Boolean).join('; ') || Object.values(fe).join('; ') });
        inputRef.current?.focus();
      } else if (err instanceof ApiError && err.status === 403) {
        setErrors({ label: err.problem.detail ?? 'This label is protected: your token may not move it.' });
        inputRef.current?.focus();
      } else setBanner({ kind: 'error', text: errorMessage(err) });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const label = value.trim();
  const current = pointers?.find((p) => p.label === label);
  const here = (pointers ?? []).filter((p) => p.version === version).map((p) => p.label);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = checkLabel(label);
    if (problem) {
      setErrors({ label: problem });
      return inputRef.current?.focus();
    }
    if (current?.version === version) return setErrors({ label: `${label} is already on v${version}.` });
    const verb = current ? `Moved ${label} from v${current.version} to v${version}.` : `Set ${label} on v${version}.`;
    // The server says which prompts including this one change with it (includes follow labels).
    let impact = '';
    const set = async (force?: boolean) => {
      const r = await api.setLabel(name, label, version, etag, force);
      if (r.data.impact.dependents.length) impact = ` Impact: ${r.data.impact.message}.`;
    };
    if (await move(() => set(), () => verb + impact, { label, verb })) setValue('');
  };
  const force = async () => {
    if (!refused) return;
    const { label: l, verb } = refused;
    let impact = '';
    const set = async () => {
      const r = await api.setLabel(name, l, version, etag, true);
      if (r.data.impact.dependents.length) impact = ` Impact: ${r.data.impact.message}.`;
    };
    if (await move(set, () => `${verb} Forced: the checks fail.${impact}`)) setValue('');
    inputRef.current?.focus();
  };
  const remove = async (l: string) => {
    if (l === 'production' && !confirmProd) return setConfirmProd(true);
    await move(() => api.removeLabel(name, l, etag), `Removed ${l} from v${version}.`);
    inputRef.current?.focus();
  };

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={`${id}-h`}
      data-testid="label-dialog"
      onKeyDown={trapTab}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <form onSubmit={submit} noValidate>
        <h2 id={`${id}-h`}>Labels of v{version}</h2>
        <p className="small muted">
          A label points at one version: MCP clients on <code>/mcp?label=…</code> get it; <code>production</code> is what plain <code>/mcp</code> serves.
        </p>
        {banner && (
          <Banner kind={banner.kind} testId={banner.kind === 'warning' ? 'label-conflict' : 'label-error'}>
            {banner.text}
          </Banner>
        )}
        {refused && <CheckRefusal refusal={refused} what={`move ${refused.label} to v${version}`} canForce={canAdmin} busy={busy} onForce={() => void force()} />}
        <h3 className="small">On v{version}</h3>
        {pointers === null ? (
          <p className="muted small">Loading…</p>
        ) : here.length === 0 ? (
          <p className="muted small" data-testid="label-none">No labels on this version.</p>
        ) : (
          <ul className="label-rows" data-testid="label-rows">
            {here.map((l) => (
              <li key={l} data-label={l}>
                <LabelChips labels={[l]} testId="dialog-chip" />
                <button type="button" className="btn btn-small btn-danger-outline" data-testid={`label-remove-${l}`} disabled={busy} onClick={() => void remove(l)} aria-label={l === 'production' && confirmProd ? `Confirm: remove production and stop serving ${name}` : `Remove ${l} from v${version}`}>
                  {l === 'production' && confirmProd ? 'Confirm: stop serving' : 'Remove'}
                </button>
              </li>
            ))}
          </ul>
        )}
        {confirmProd && <p className="field-warning small" role="status">Removing production stops serving {name} to plain /mcp clients. Press the button again to confirm.</p>}
        <div className="field">
          <label htmlFor={`${id}-in`}>Set or move a label onto v{version}</label>
          <input
            id={`${id}-in`}
            ref={inputRef}
            list={`${id}-known`}
            className="mono"
            autoComplete="off"
            data-testid="label-input"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              if (errors.label) setErrors({});
            }}
            {...describe('label', errors)}
            aria-describedby={`${id}-hint${errors.label ? ' note-label' : ''}`}
          />
          <datalist id={`${id}-known`}>
            {[...new Set([...(pointers ?? []).map((p) => p.label), ...known])].filter((l) => l !== 'latest').map((l) => (
              <option key={l} value={l} />
            ))}
          </datalist>
          <p className="hint" id={`${id}-hint`} data-testid="label-hint">
            {current && current.version !== version ? `${label} is on v${current.version} now: it moves to v${version}.` : 'Lowercase letters, digits and "-" (e.g. staging).'}
          </p>
          <FieldError path="label" errors={errors} />
        </div>
        <p className="sr-only" role="status" aria-live="polite" data-testid="label-status">{status}</p>
        {status && <p className="small" aria-hidden="true">{status}</p>}
        <div className="dialog-actions">
          <button type="button" className="btn" data-testid="label-close" onClick={close}>
            Done
          </button>
          <button type="submit" className="btn btn-primary" data-testid="label-set" disabled={busy || pointers === null}>
            {current && current.version !== version ? 'Move label' : 'Set label'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
