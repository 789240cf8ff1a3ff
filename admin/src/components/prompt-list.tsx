// Prompt list: search, archived filter, keyset "Load more", live refresh.
import { useEffect, useId, useRef, useState } from 'react';
import { api, errorMessage, type ArchivedFilter } from '../api';
import { useLive } from '../live';
import { href, Link, navigate } from '../router';
import type { PromptSummary } from '../types';
import { Badge, Banner, Time } from './bits';

const PAGE = 50;

export function PromptList({ search }: { search: URLSearchParams }) {
  const [q, setQ] = useState(search.get('q') ?? '');
  const [archived, setArchived] = useState<ArchivedFilter>((search.get('archived') as ArchivedFilter) || 'false');
  const [items, setItems] = useState<PromptSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const { revision, last } = useLive();
  const countRef = useRef(0);
  countRef.current = items.length;
  const id = useId();

  useEffect(() => {
    document.title = 'Prompts · promptd';
  }, []);

  // Keep the filters in the URL so back/forward and reloads keep them.
  useEffect(() => {
    const sp = new URLSearchParams();
    if (q) sp.set('q', q);
    if (archived !== 'false') sp.set('archived', archived);
    const next = `${href.prompts()}${sp.toString() ? `?${sp}` : ''}`;
    if (next !== location.pathname + location.search) navigate(next, { replace: true });
  }, [q, archived]);

  // (Re)load the first page on filter change (debounced) and on live changes (keeping what was loaded).
  useEffect(() => {
    const ctl = new AbortController();
    const limit = Math.min(200, Math.max(PAGE, countRef.current));
    const t = setTimeout(async () => {
      setLoading(true);
      try {
        const page = await api.listPrompts({ q: q.trim(), archived, limit }, ctl.signal);
        setItems(page.items);
        setCursor(page.nextCursor);
        setError(null);
      } catch (err) {
        if ((err as Error).name !== 'AbortError') setError(errorMessage(err));
      } finally {
        if (!ctl.signal.aborted) setLoading(false);
      }
    }, 200);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [q, archived, revision]);

  const loadMore = async () => {
    if (!cursor) return;
    setLoading(true);
    try {
      const page = await api.listPrompts({ q: q.trim(), archived, limit: PAGE, cursor });
      setItems((prev) => [...prev, ...page.items.filter((p) => !prev.some((x) => x.name === p.name))]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setLoading(false);
    }
  };

  return (
    <section className="page" aria-labelledby={`${id}-h`}>
      <div className="page-head">
        <h1 id={`${id}-h`}>Prompts</h1>
        <Link href={href.newPrompt()} className="btn btn-primary" data-testid="new-prompt">
          New prompt
        </Link>
      </div>
      <form className="toolbar" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="field grow">
          <label htmlFor={`${id}-q`}>Search prompts</label>
          <input id={`${id}-q`} type="search" placeholder="Name or title" value={q} data-testid="prompt-search" onChange={(e) => setQ(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-a`}>Show</label>
          <select id={`${id}-a`} value={archived} data-testid="prompt-archived-filter" onChange={(e) => setArchived(e.target.value as ArchivedFilter)}>
            <option value="false">Not archived</option>
            <option value="true">Archived only</option>
            <option value="all">All prompts</option>
          </select>
        </div>
      </form>
      {error && <Banner kind="error">{error}</Banner>}
      <p className="sr-only" role="status" aria-live="polite">
        {loading ? 'Loading prompts…' : `${items.length} prompt${items.length === 1 ? '' : 's'} shown`}
      </p>
      {!loading && items.length === 0 && !error && (
        <div className="empty">
          {q || archived !== 'false' ? <p>No prompts match.</p> : <p>No prompts yet. <Link href={href.newPrompt()}>Create the first one</Link>.</p>}
        </div>
      )}
      <ul className="prompt-list" data-testid="prompt-list" aria-busy={loading}>
        {items.map((p) => (
          <li key={p.name} className={`prompt-row${last?.entityKey === p.name ? ' is-fresh' : ''}`} data-testid="prompt-row" data-name={p.name}>
            <div className="prompt-row-main">
              <Link href={href.prompt(p.name)} className="prompt-name">
                {p.name}
              </Link>
              <span className="prompt-title">{p.title || <span className="muted">untitled</span>}</span>
            </div>
            <div className="prompt-row-meta">
              {p.archived && <Badge kind="warn">archived</Badge>}
              {p.activeVersion != null ? (
                <Badge kind="active">
                  <span data-testid="row-active">active v{p.activeVersion}</span>
                </Badge>
              ) : (
                <Badge kind="muted">
                  <span data-testid="row-active">not served</span>
                </Badge>
              )}
              <span className="muted" data-testid="row-latest">latest v{p.latestVersion}</span>
              <span className="muted">
                edited <Time iso={p.updatedAt} />
              </span>
            </div>
          </li>
        ))}
      </ul>
      {cursor && (
        <button type="button" className="btn load-more" data-testid="load-more" onClick={loadMore} disabled={loading}>
          {loading ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}
