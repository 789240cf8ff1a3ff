// Create a webhook: URL, events, optional release label. The secret comes back once.
import { useId, useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../api';
import { webhooksApi, type Webhook } from '../webhooks-api';
import { Banner, describe, FieldError, type Messages } from './bits';

const splitEvents = (s: string) => s.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean);

export function WebhookForm({ onCreated }: { onCreated: (w: Webhook, secret: string) => void }) {
  const id = useId();
  const [f, setF] = useState({ url: '', events: '*', label: '' });
  const [errors, setErrors] = useState<Messages>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF((x) => ({ ...x, [k]: e.target.value }));

  const go = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setError(null);
    try {
      const { secret, ...w } = await webhooksApi.create({ url: f.url.trim(), events: splitEvents(f.events), label: f.label.trim() || null });
      setF({ url: '', events: '*', label: '' });
      onCreated(w, secret);
    } catch (err) {
      if (err instanceof ApiError && err.problem.errors?.length) setErrors(err.fieldErrors);
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  // events[2] errors belong to the one events input.
  const eventErrors = Object.entries(errors).filter(([k]) => k === 'events' || k.startsWith('events['));
  const fieldErrors: Messages = { ...errors, ...(eventErrors.length ? { events: eventErrors.map(([, v]) => v).join('; ') } : {}) };

  return (
    <form className="card stack-sm" onSubmit={go} aria-labelledby={`${id}-h`} data-testid="webhook-form">
      <h2 id={`${id}-h`}>New webhook</h2>
      {error && <Banner kind="error">{error}</Banner>}
      <div className="field">
        <label htmlFor={`${id}-url`}>Payload URL</label>
        <input id={`${id}-url`} className="mono" type="url" required data-testid="webhook-url" placeholder="https://example.com/hooks/promptd" value={f.url} onChange={set('url')} {...describe('url', fieldErrors)} />
        <FieldError path="url" errors={fieldErrors} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-events`}>Events</label>
        <input id={`${id}-events`} className="mono" required data-testid="webhook-events" value={f.events} onChange={set('events')} aria-describedby={`${id}-events-hint`} aria-invalid={fieldErrors.events ? true : undefined} />
        <p className="hint" id={`${id}-events-hint`}>
          Comma-separated: <code>*</code> for all, a name such as <code>version.created</code>, <code>labels.promoted</code>, <code>prompt.archived</code>, or a pattern such as <code>prompt.*</code>.
        </p>
        <FieldError path="events" errors={fieldErrors} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-label`}>Release label (optional)</label>
        <input id={`${id}-label`} data-testid="webhook-label" placeholder="production" value={f.label} onChange={set('label')} {...describe('label', fieldErrors)} />
        <FieldError path="label" errors={fieldErrors} />
      </div>
      <button type="submit" className="btn btn-primary" data-testid="webhook-create" disabled={busy}>
        {busy ? 'Adding…' : 'Add webhook'}
      </button>
    </form>
  );
}
