// Webhooks: list, create (the secret shown once), pause/resume, test ping, delete, delivery log.
import { useCallback, useEffect, useId, useState } from 'react';
import { errorMessage } from '../api';
import { webhooksApi, type Webhook } from '../webhooks-api';
import { Badge, Banner } from './bits';
import { useDialog } from './dialog';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookForm } from './webhook-form';
import '../webhooks.css';

export function WebhooksPage() {
  const id = useId();
  const [items, setItems] = useState<Webhook[] | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ask, dialog] = useDialog();

  useEffect(() => {
    document.title = 'Webhooks · promptd';
  }, []);
  const load = useCallback(() => {
    webhooksApi.list().then(
      (xs) => {
        setItems(xs);
        setError(null);
      },
      (err) => setError(errorMessage(err)),
    );
  }, []);
  useEffect(load, [load]);

  const act = async (fn: () => Promise<unknown>, msg: string) => {
    try {
      await fn();
      setInfo(msg);
      setError(null);
      load();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const remove = async (w: Webhook) => {
    const a = await ask({ title: 'Delete webhook?', message: <p>Deliveries to <code>{w.url}</code> stop and its delivery log is deleted.</p>, confirmLabel: 'Delete', danger: true });
    if (!a.ok) return;
    if (open === w.id) setOpen(null);
    await act(() => webhooksApi.remove(w.id), `Deleted the webhook for ${w.url}.`);
  };
  const rotate = async (w: Webhook) => {
    const a = await ask({ title: 'Rotate secret?', message: <p>The receiver must switch to the new secret: deliveries are signed with it from now on.</p>, confirmLabel: 'Rotate' });
    if (!a.ok) return;
    try {
      const r = await webhooksApi.update(w.id, { rotateSecret: true });
      if (r.secret) setSecret({ url: w.url, secret: r.secret });
      load();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <section className="page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>Webhooks</h1>
      <p className="muted">
        promptd POSTs signed JSON to these URLs when prompts, versions, labels or resources change, and retries failed deliveries for hours. See docs/webhooks.md for verifying signatures.
      </p>
      {secret && (
        <div className="banner banner-warning wh-secret" role="status" data-testid="webhook-secret-banner">
          <p>
            Signing secret for <code>{secret.url}</code>. Copy it now: it is not shown again.
          </p>
          <code className="wh-secret-value" data-testid="webhook-secret">{secret.secret}</code>
          <button type="button" className="btn btn-small" onClick={() => setSecret(null)}>
            I have stored it
          </button>
        </div>
      )}
      {info && <Banner kind="success" testId="webhooks-flash">{info}</Banner>}
      {error && <Banner kind="error">{error}</Banner>}
      <div className="res-grid">
        <section className="card" aria-labelledby={`${id}-list`}>
          <h2 id={`${id}-list`}>Webhooks</h2>
          {items?.length === 0 && <p className="muted">No webhooks yet.</p>}
          <ul className="wh-list" data-testid="webhook-list">
            {items?.map((w) => (
              <li key={w.id} className="wh-row" data-testid="webhook-row" data-url={w.url}>
                <div className="wh-row-head">
                  <div className="grow">
                    <code className="res-uri">{w.url}</code>
                    <div className="muted small">
                      {w.events.join(', ')}
                      {w.label && <> · label <code>{w.label}</code></>} · secret <code>{w.secretHint}</code>{' '}
                      {w.active ? <Badge kind="active">active</Badge> : <Badge kind="muted">paused</Badge>}
                    </div>
                  </div>
                  <div className="wh-actions">
                    <button type="button" className="btn btn-small" aria-expanded={open === w.id} aria-label={`${open === w.id ? 'Hide' : 'Show'} deliveries of ${w.url}`} data-testid="webhook-toggle-deliveries" onClick={() => setOpen(open === w.id ? null : w.id)}>
                      {open === w.id ? 'Hide deliveries' : 'Deliveries'}
                    </button>
                    <button type="button" className="btn btn-small" aria-label={`Ping ${w.url}`} title="Send a test event" data-testid="webhook-ping" disabled={!w.active} onClick={() => void act(() => webhooksApi.ping(w.id), `Ping queued for ${w.url}.`)}>
                      Ping
                    </button>
                    <button type="button" className="btn btn-small" aria-label={`${w.active ? 'Pause' : 'Resume'} ${w.url}`} onClick={() => void act(() => webhooksApi.update(w.id, { active: !w.active }), `${w.active ? 'Paused' : 'Resumed'} ${w.url}.`)}>
                      {w.active ? 'Pause' : 'Resume'}
                    </button>
                    <button type="button" className="btn btn-small" aria-label={`Rotate secret of ${w.url}`} onClick={() => void rotate(w)}>
                      Rotate secret
                    </button>
                    <button type="button" className="btn btn-small btn-danger-outline" aria-label={`Delete ${w.url}`} data-testid="webhook-delete" onClick={() => void remove(w)}>
                      Delete
                    </button>
                  </div>
                </div>
                {open === w.id && <WebhookDeliveries webhook={w} />}
              </li>
            ))}
          </ul>
        </section>
        <WebhookForm
          onCreated={(w, s) => {
            setSecret({ url: w.url, secret: s });
            setInfo(null);
            load();
          }}
        />
      </div>
      {dialog}
    </section>
  );
}
