// The bin: soft-deleted prompts with who deleted them and when, and Restore (after a confirmation).
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ApiError, api, errorMessage, getServerInfo } from '../api';
import { pushFlash } from '../flash';
import { useLive } from '../live';
import { href, Link, navigate } from '../router';
import type { DeletedPrompt } from '../types';
import { Banner, Time } from './bits';
import { useDialog } from './dialog';
import '../labels.css';

const DAY = 86_400_000;

export function BinPage() {
  const id = useId();
  const [items, setItems] = useState<DeletedPrompt[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [days, setDays] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [ask, dialog] = useDialog();
  const { revision } = useLive();
  const headingRef = useRef<HTMLHeadingElement>(null);

  const load = useCallback(async () => {
    try {
      const page = await api.listDeleted();
      setItems(page.items);
      setCursor(page.nextCursor);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, []);
  useEffect(() => void load(), [load, revision]);
  useEffect(() => {
    document.title = 'Deleted prompts · promptd';
    getServerInfo().then((i) => setDays(i.deletedRetentionDays), () => {});
  }, []);

  const more = async () => {
    try {
      const page = await api.listDeleted(cursor);
      setItems((x) => [...(x ?? []), ...page.items]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const restore = async (p: DeletedPrompt) => {
    const a = await ask({
      title: `Restore ${p.name}?`,
      message: (
        <p>
          <strong className="mono">{p.name}</strong> comes back with all {p.latestVersion} of its versions and labels
          {p.activeVersion != null && !p.archived ? `; v${p.activeVersion} is served to MCP clients again right away` : ''}.
        </p>
      ),
      confirmLabel: 'Restore',
    });
    if (!a.ok) return;
    setBusy(p.name);
    try {
      await api.restorePrompt(p.name);
      pushFlash(`Restored ${p.name}.`);
      navigate(href.prompt(p.name));
    } catch (err) {
      setError(err instanceof ApiError && err.status === 404 ? `${p.name} is no longer in the bin (restored by someone else, or purged).` : errorMessage(err));
      await load();
      headingRef.current?.focus();
    } finally {
      setBusy(null);
    }
  };

  const purgeDate = (iso: string | undefined) => (iso && days != null ? new Date(Date.parse(iso) + days * DAY).toISOString() : null);
  return (
    <section className="page" aria-labelledby={`${id}-h`}>
      {dialog}
      <nav aria-label="Breadcrumb" className="crumbs">
        <Link href={href.prompts()}>Prompts</Link> <span aria-hidden="true">/</span> <span>Deleted prompts</span>
      </nav>
      <div className="page-head">
        <h1 id={`${id}-h`} ref={headingRef} tabIndex={-1}>Deleted prompts</h1>
      </div>
      <p className="lead" data-testid="bin-retention">
        Deleted prompts stay here {days == null ? 'for the retention period' : days === 1 ? 'for 1 day' : `for ${days} days`}, with all their versions, then they are purged for good. Their names stay taken until then.
      </p>
      {error && <Banner kind="error">{error}</Banner>}
      {items === null && !error && <p className="muted">Loading…</p>}
      {items?.length === 0 && <p className="empty muted" data-testid="bin-empty">The bin is empty.</p>}
      {items && items.length > 0 && (
        <div className="card table-wrap">
          <table className="bin-table" data-testid="bin-table">
            <caption className="sr-only">Deleted prompts, restorable until purged</caption>
            <thead>
              <tr>
                <th scope="col">Prompt</th>
                <th scope="col">Deleted</th>
                <th scope="col">By</th>
                <th scope="col">Purged</th>
                <th scope="col"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {items.map((p) => {
                const purge = purgeDate(p.deletedAt);
                return (
                  <tr key={p.name} data-testid="bin-row" data-name={p.name}>
                    <td>
                      <span className="mono">{p.name}</span>
                      {p.title && <span className="muted small"> · {p.title}</span>}
                      <span className="muted small"> · {p.latestVersion} version{p.latestVersion === 1 ? '' : 's'}</span>
                    </td>
                    <td data-testid="bin-deleted-at">{p.deletedAt ? <Time iso={p.deletedAt} /> : '—'}</td>
                    <td data-testid="bin-deleted-by">{p.deletedBy ?? <span className="muted">unknown</span>}</td>
                    <td>{purge ? <Time iso={purge} /> : '—'}</td>
                    <td>
                      <button type="button" className="btn btn-small" data-testid="bin-restore" disabled={busy !== null} onClick={() => void restore(p)} aria-label={`Restore ${p.name}`}>
                        {busy === p.name ? 'Restoring…' : 'Restore'}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {cursor && (
        <button type="button" className="btn load-more" onClick={more}>
          Load more
        </button>
      )}
    </section>
  );
}
