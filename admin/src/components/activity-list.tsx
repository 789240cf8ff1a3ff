// A page of the change log as a table (newest first) with "Older" paging; used by the
// Activity page and the prompt page's history panel.
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../api';
import { activityApi, type ActivityFilters, type ActivityItem } from '../activity-api';
import { useLive } from '../live';
import { href, Link } from '../router';
import { Banner, Time } from './bits';
import '../webhooks.css';

const v = (x: unknown) => (typeof x === 'number' ? `v${x}` : 'none');

/** One line a person reads: what happened, with the numbers that matter. */
export function describeEvent(e: ActivityItem): string {
  const d = (e.details ?? {}) as Record<string, unknown>;
  switch (e.action) {
    case 'prompt.created': return 'created the prompt';
    case 'version.created': return `created ${v(d.version)}`;
    case 'prompt.activated': return `activated ${v(d.to)}${typeof d.from === 'number' ? ` (was ${v(d.from)})` : ''}`;
    case 'prompt.rolled_back': return `rolled back from ${v(d.from)} to ${v(d.to)}`;
    case 'prompt.deactivated': return `stopped serving ${v(d.from)}`;
    case 'label.set': return `moved label ${String(d.label)} to ${v(d.to)}${typeof d.from === 'number' ? ` (was ${v(d.from)})` : ''}`;
    case 'label.removed': return `removed label ${String(d.label)} (was ${v(d.from)})`;
    case 'labels.promoted': return `promoted ${String(d.from ?? '')} to ${String(d.label ?? '')}`.trim();
    case 'prompt.renamed': return `renamed from ${String(d.from)} to ${String(d.to)}`;
    case 'prompt.archived': return 'archived';
    case 'prompt.unarchived': return 'unarchived';
    case 'prompt.deleted': return 'deleted (to the bin)';
    case 'prompt.restored': return 'restored from the bin';
    case 'prompt.purged': return 'purged for good';
    case 'token.created': return `created token ${String(d.name ?? e.entityKey)}`;
    case 'token.revoked': return `revoked token ${String(d.name ?? e.entityKey)}`;
    case 'token.updated': return `changed the rate limits of token ${String(d.name ?? e.entityKey)}`;
    case 'settings.updated': return `changed the instance ${e.entityKey === 'rate_limits' ? 'rate limits' : 'settings'}`;
    default: return e.action.replace(/[._]/g, ' ');
  }
}

function Target({ e }: { e: ActivityItem }) {
  if (e.entity === 'prompt') return <Link href={href.prompt(e.entityKey)} className="mono">{e.entityKey}</Link>;
  if (e.entity === 'token') return <Link href={href.tokens()}>token #{e.entityKey}</Link>;
  if (e.entity === 'webhook') return <Link href={href.webhooks()}>webhook #{e.entityKey}</Link>;
  return <code>{e.entityKey}</code>;
}

/** Who, readable: `token:ci-bot#3` → ci-bot (token #3). */
export function actorLabel(actor: string): string {
  const m = /^token:(.*)#(\d+)$/.exec(actor);
  return m ? `${m[1]} (token #${m[2]})` : actor;
}

export function ActivityList({ filters, caption, showTarget = true, pageSize = 50 }: { filters: ActivityFilters; caption: string; showTarget?: boolean; pageSize?: number }) {
  const [items, setItems] = useState<ActivityItem[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { revision } = useLive();
  const key = JSON.stringify(filters);

  const load = useCallback((signal?: AbortSignal) => {
    activityApi.list(filters, null, pageSize, signal).then(
      (p) => {
        setItems(p.items);
        setCursor(p.nextCursor);
        setError(null);
      },
      (err) => {
        if ((err as Error).name !== 'AbortError') setError(errorMessage(err));
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, pageSize]);
  useEffect(() => {
    const ctl = new AbortController();
    load(ctl.signal);
    return () => ctl.abort();
  }, [load, revision]);

  const older = async () => {
    if (!cursor) return;
    try {
      const p = await activityApi.list(filters, cursor, pageSize);
      setItems((xs) => [...(xs ?? []), ...p.items]);
      setCursor(p.nextCursor);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <div className="activity" data-testid="activity-list">
      {error && <Banner kind="error">{error}</Banner>}
      {!items && !error && <p className="muted">Loading…</p>}
      {items?.length === 0 && <p className="muted" data-testid="activity-empty">Nothing recorded{filters.actor || filters.action ? ' that matches these filters' : ''}.</p>}
      {items && items.length > 0 && (
        <div className="wh-table-wrap">
          <table className="wh-table">
            <caption className="sr-only">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                {showTarget && <th scope="col">On</th>}
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.id} data-testid="activity-row" data-action={e.action} data-actor={e.actor}>
                  <td><Time iso={e.at} /></td>
                  <td>{actorLabel(e.actor)}</td>
                  <td title={e.action}>{describeEvent(e)}</td>
                  {showTarget && <td><Target e={e} /></td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor && (
        <button type="button" className="btn btn-small" data-testid="activity-older" onClick={() => void older()}>
          Older entries
        </button>
      )}
    </div>
  );
}
