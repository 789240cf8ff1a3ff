// A webhook's delivery log: status, attempts, last answer or error, and redelivery.
import { useCallback, useEffect, useId, useState } from 'react';
import { errorMessage } from '../api';
import { webhooksApi, type Webhook, type WebhookDelivery } from '../webhooks-api';
import { Badge, Banner, Time } from './bits';

const statusBadge = { delivered: 'active', pending: 'warn', failed: 'muted' } as const;

export function WebhookDeliveries({ webhook }: { webhook: Webhook }) {
  const id = useId();
  const [items, setItems] = useState<WebhookDelivery[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);

  const load = useCallback(async () => {
    try {
      const p = await webhooksApi.deliveries(webhook.id);
      setItems(p.items);
      setCursor(p.nextCursor);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setLoaded(true);
    }
  }, [webhook.id]);
  useEffect(() => {
    void load();
  }, [load]);

  const more = async () => {
    try {
      const p = await webhooksApi.deliveries(webhook.id, cursor);
      setItems((x) => [...x, ...p.items]);
      setCursor(p.nextCursor);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const redeliver = async (d: WebhookDelivery) => {
    try {
      await webhooksApi.redeliver(webhook.id, d.id);
      setInfo(`Delivery ${d.id} queued again.`);
      await load();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <section className="wh-deliveries" aria-labelledby={`${id}-h`} data-testid="webhook-deliveries">
      <div className="wh-deliveries-head">
        <h3 id={`${id}-h`}>Deliveries</h3>
        <button type="button" className="btn btn-small" data-testid="deliveries-refresh" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {info && <Banner kind="success">{info}</Banner>}
      {error && <Banner kind="error">{error}</Banner>}
      {loaded && items.length === 0 && <p className="muted">No deliveries yet.</p>}
      {items.length > 0 && (
        <div className="wh-table-wrap">
          <table className="wh-table">
            <caption className="sr-only">Deliveries of {webhook.url}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last result</th>
                <th scope="col">When</th>
                <th scope="col"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {items.map((d) => (
                <tr key={d.id} data-testid="delivery-row" data-status={d.status}>
                  <td>
                    <code>{d.event ?? '(gone)'}</code> <span className="muted small">#{d.eventId}</span>
                  </td>
                  <td>
                    <Badge kind={statusBadge[d.status]}>{d.status}</Badge>
                  </td>
                  <td data-testid="delivery-attempts">{d.attempts}</td>
                  <td className="wh-result" data-testid="delivery-result">
                    {d.lastError ? <span className="wh-error">{d.lastError}</span> : d.lastStatusCode !== null ? <span>HTTP {d.lastStatusCode}</span> : <span className="muted">—</span>}
                  </td>
                  <td className="small">
                    {d.status === 'delivered' && d.deliveredAt ? <Time iso={d.deliveredAt} /> : d.status === 'pending' && d.nextAttemptAt ? <>next <Time iso={d.nextAttemptAt} /></> : <Time iso={d.updatedAt} />}
                  </td>
                  <td>
                    <button type="button" className="btn btn-small" data-testid="delivery-redeliver" aria-label={`Redeliver ${d.event ?? 'event'} #${d.eventId}`} onClick={() => void redeliver(d)}>
                      Redeliver
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor && (
        <button type="button" className="btn btn-small" onClick={() => void more()}>
          Load more
        </button>
      )}
    </section>
  );
}
