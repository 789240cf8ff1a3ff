// Release labels: the labels in use (each links to the prompts carrying it) and promotion
// (staging → production): a dry run lists the changes, a confirmation makes them.
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError, api, errorMessage } from '../api';
import { useLive } from '../live';
import { href, Link } from '../router';
import type { LabelChange } from '../types';
import { Banner, describe, FieldError, type Messages } from './bits';
import { useDialog } from './dialog';
import { checkLabel } from './label-chips';
import '../labels.css';
import { CheckRefusal, refusalOf, type Refusal } from './check-refusal';
import { useCan } from '../me';

interface Plan { from: string; to: string; changes: LabelChange[]; impact?: { dependents: string[]; message: string } }

export function ChangeList({ changes, to, testId }: { changes: LabelChange[]; to: string; testId: string }) {
  return (
    <ul className="change-list" data-testid={testId}>
      {changes.map((c) => (
        <li key={c.prompt} data-testid="promote-change" data-prompt={c.prompt}>
          <Link href={href.prompt(c.prompt)} className="mono">{c.prompt}</Link>: {to} {c.from === null ? `set on v${c.to}` : `v${c.from} → v${c.to}`}
        </li>
      ))}
    </ul>
  );
}

export function LabelsPage() {
  const id = useId();
  const [labels, setLabels] = useState<{ label: string; prompts: number }[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [from, setFrom] = useState('staging');
  const [to, setTo] = useState('production');
  const [errors, setErrors] = useState<Messages>({});
  const [plan, setPlan] = useState<Plan | null>(null);
  const [done, setDone] = useState<Plan | null>(null);
  const [busy, setBusy] = useState(false);
  // The promotion was refused because checks fail (409): the failures, and for admins "promote anyway".
  const [refused, setRefused] = useState<Refusal | null>(null);
  const canAdmin = useCan('admin');
  const [ask, dialog] = useDialog();
  const { revision } = useLive();
  const planRef = useRef<HTMLDivElement>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  // Where focus goes once React has rendered the new plan or result. A frame requested
  // right after setState could run before that render (React schedules it), and then
  // found no element: the focus was lost under load.
  const focusNext = useRef<'plan' | 'done' | null>(null);
  useEffect(() => {
    const target = focusNext.current === 'plan' ? planRef.current : focusNext.current === 'done' ? doneRef.current : null;
    if (!target) return;
    focusNext.current = null;
    target.focus();
  }, [plan, done]);

  const load = useCallback(() => api.listLabels().then((r) => (setLabels(r.items), setError(null)), (err) => setError(errorMessage(err))), []);
  useEffect(() => void load(), [load, revision]);
  useEffect(() => {
    document.title = 'Labels · promptd';
  }, []);

  const fail = (err: unknown) => {
    const refusal = refusalOf(err);
    if (refusal) setRefused(refusal);
    else if (err instanceof ApiError && err.problem.errors?.length) {
      setErrors(err.fieldErrors);
      requestAnimationFrame(() => document.querySelector<HTMLElement>('.promote-form [aria-invalid="true"]')?.focus());
    } else if (err instanceof ApiError && err.status === 403) setErrors({ to: err.problem.detail ?? 'This label is protected: your token may not move it.' });
    else setError(errorMessage(err));
  };

  const preview = async (e: FormEvent) => {
    e.preventDefault();
    const f = from.trim();
    const t = to.trim();
    const local: Messages = {};
    // `latest` may be promoted from (it is never set).
    const fe = f === 'latest' ? null : checkLabel(f);
    if (fe) local.from = fe;
    const te = checkLabel(t) ?? (t === f ? 'Choose a label other than the one promoted.' : null);
    if (te) local.to = te;
    setErrors(local);
    setDone(null);
    setPlan(null);
    setRefused(null);
    if (Object.keys(local).length) return requestAnimationFrame(() => document.querySelector<HTMLElement>('.promote-form [aria-invalid="true"]')?.focus());
    setBusy(true);
    try {
      const r = await api.promote(f, { to: t, dryRun: true });
      focusNext.current = 'plan';
      setPlan({ from: f, to: t, changes: r.changes, impact: r.impact });
      setError(null);
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const promote = async (force = false) => {
    if (!plan) return;
    if (force) return void run(plan, true);
    const n = plan.changes.length;
    const a = await ask({
      title: `Promote ${plan.from} → ${plan.to}?`,
      message: (
        <p>
          {n} prompt{n === 1 ? '' : 's'} will have <strong className="mono">{plan.to}</strong> point at the version <strong className="mono">{plan.from}</strong> points at, in one step.
          {plan.to === 'production' ? ' MCP clients are served those versions right away.' : ''}
        </p>
      ),
      confirmLabel: `Promote ${n} prompt${n === 1 ? '' : 's'}`,
    });
    if (!a.ok) return;
    await run(plan, false);
  };
  const run = async (plan: Plan, force: boolean) => {
    setBusy(true);
    setRefused(null);
    try {
      const r = await api.promote(plan.from, { to: plan.to, prompts: plan.changes.map((c) => c.prompt), ...(force ? { force } : {}) });
      focusNext.current = 'done';
      setDone({ ...plan, changes: r.changes });
      setPlan(null);
      await load();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const known = labels?.map((l) => l.label) ?? [];
  return (
    <section className="page" aria-labelledby={`${id}-h`}>
      {dialog}
      <div className="page-head">
        <h1 id={`${id}-h`}>Labels</h1>
      </div>
      <p className="lead">
        A release label points each prompt at one version. MCP clients on <code>/mcp?label=staging</code> get the staging versions; <code>production</code> is what plain <code>/mcp</code> serves.
        Set labels from a prompt&apos;s version list.
      </p>
      {error && <Banner kind="error">{error}</Banner>}
      <section className="card stack-sm" aria-labelledby={`${id}-p`}>
        <h2 id={`${id}-p`}>Promote a release</h2>
        <form className="promote-form" onSubmit={preview} noValidate data-testid="promote-form">
          <div className="field">
            <label htmlFor={`${id}-from`}>From label</label>
            <input id={`${id}-from`} className="mono" list={`${id}-known`} autoComplete="off" value={from} data-testid="promote-from" onChange={(e) => (setFrom(e.target.value), setPlan(null))} {...describe('from', errors)} />
            <FieldError path="from" errors={errors} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-to`}>To label</label>
            <input id={`${id}-to`} className="mono" list={`${id}-known`} autoComplete="off" value={to} data-testid="promote-to" onChange={(e) => (setTo(e.target.value), setPlan(null))} {...describe('to', errors)} />
            <FieldError path="to" errors={errors} />
          </div>
          <datalist id={`${id}-known`}>
            {known.map((l) => <option key={l} value={l} />)}
          </datalist>
          <button type="submit" className="btn" data-testid="promote-preview" disabled={busy}>
            Preview changes
          </button>
        </form>
        {errors['prompts'] && <FieldError path="prompts" errors={errors} prefix />}
        {plan && (
          <div className="stack-sm" ref={planRef} tabIndex={-1} data-testid="promote-plan" aria-labelledby={`${id}-plan`} role="region">
            <h3 id={`${id}-plan`}>
              {plan.changes.length === 0 ? 'Nothing to promote' : `Dry run: ${plan.changes.length} prompt${plan.changes.length === 1 ? '' : 's'} would change`}
            </h3>
            {plan.changes.length === 0 ? (
              <p className="muted">Every prompt carrying {plan.from} already has {plan.to} on the same version.</p>
            ) : (
              <>
                <ChangeList changes={plan.changes} to={plan.to} testId="promote-changes" />
                {plan.impact && plan.impact.dependents.length > 0 && (
                  <div className="banner banner-warning" data-testid="promote-impact">
                    <p className="check-refusal-head">Impact: {plan.impact.message}</p>
                    <ul className="link-list">
                      {plan.impact.dependents.map((d) => (
                        <li key={d} data-testid="impact-dependent" data-prompt={d}><Link href={href.prompt(d)}>{d}</Link></li>
                      ))}
                    </ul>
                  </div>
                )}
                {refused && <CheckRefusal refusal={refused} what={`promote ${plan.from} → ${plan.to}`} canForce={canAdmin} busy={busy} onForce={() => void promote(true)} />}
                <button type="button" className="btn btn-primary" data-testid="promote-confirm" disabled={busy} onClick={() => void promote()}>
                  Promote {plan.from} → {plan.to}…
                </button>
              </>
            )}
          </div>
        )}
        {done && (
          <div className="stack-sm" ref={doneRef} tabIndex={-1} data-testid="promote-done" role="region" aria-labelledby={`${id}-done`}>
            <Banner kind="success" live={false}>
              <span id={`${id}-done`}>Promoted {done.from} → {done.to}: {done.changes.length} prompt{done.changes.length === 1 ? '' : 's'} changed.</span>
            </Banner>
            <ChangeList changes={done.changes} to={done.to} testId="promote-done-changes" />
          </div>
        )}
        <p className="sr-only" role="status" aria-live="polite">{done ? `Promoted ${done.from} to ${done.to}: ${done.changes.length} prompts changed.` : plan ? `Dry run: ${plan.changes.length} prompts would change.` : ''}</p>
      </section>
      <section className="card" aria-labelledby={`${id}-l`}>
        <h2 id={`${id}-l`}>Labels in use</h2>
        {labels === null && !error && <p className="muted">Loading…</p>}
        {labels?.length === 0 && <p className="muted">No labels yet. Open a prompt and use “Labels…” on a version.</p>}
        {labels && labels.length > 0 && (
          <div className="table-wrap">
            <table className="lbl-table" data-testid="labels-table">
              <thead>
                <tr>
                  <th scope="col">Label</th>
                  <th scope="col">Prompts</th>
                </tr>
              </thead>
              <tbody>
                {labels.map((l) => (
                  <tr key={l.label} data-label={l.label}>
                    <td className="mono">{l.label}</td>
                    <td>
                      <Link href={`${href.prompts()}?label=${encodeURIComponent(l.label)}`} aria-label={`${l.prompts} prompt${l.prompts === 1 ? '' : 's'} labelled ${l.label}`}>
                        {l.prompts} prompt{l.prompts === 1 ? '' : 's'}
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </section>
  );
}
