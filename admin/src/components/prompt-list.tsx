// Prompt list: search (names, titles, descriptions, text), filters, sort, real pages with a total ("1,000+" for a frequent search), live refresh.
// A 1–2-character search that no index serves reads a bounded number of prompts per
// request: when that ends the page early the server says how far it got, and "Keep
// searching" follows its cursor to the next stretch.
import { useEffect, useId, useState } from 'react';
import { api, errorMessage } from '../api';
import { useLive } from '../live';
import { href, Link, navigate } from '../router';
import type { PromptSummary } from '../types';
import { Badge, Banner, Time } from './bits';
import { TagChips } from './tag-chips';
import { useCan } from '../me';
import { ImportDialog } from './import-dialog';
import { Pager } from './pager';
import { filtersFrom, filtersToSearch, PromptListToolbar, type ListFilters } from './prompt-list-toolbar';

const PAGE = 50;

export function PromptList({ search }: { search: URLSearchParams }) {
  const [filters, setFilters] = useState<ListFilters>(() => filtersFrom(search));
  const canEdit = useCan('editor');
  const canAdmin = useCan('admin');
  const [items, setItems] = useState<PromptSummary[]>([]);
  // Cursors of the pages visited so far: cursors[i] fetches page i + 1 (null: the first).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState(0);
  // A search's total stops at 1,000 (the server says "more than this"): shown as "1,000+".
  const [totalIsLowerBound, setTotalIsLowerBound] = useState(false);
  // The last prompt an incomplete search read (null: the search read every prompt it could).
  const [searchedThrough, setSearchedThrough] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const { revision, last } = useLive();
  const id = useId();
  const pageNo = cursors.length;
  const { q, archived, label } = filters;

  useEffect(() => {
    document.title = 'Prompts · promptd';
  }, []);

  // Keep the filters in the URL so back/forward and reloads keep them.
  useEffect(() => {
    const sp = filtersToSearch(filters);
    const next = `${href.prompts()}${sp.toString() ? `?${sp}` : ''}`;
    if (next !== location.pathname + location.search) navigate(next, { replace: true });
  }, [filters]);

  const changeFilters = (f: ListFilters) => {
    setFilters(f);
    setCursors([null]);
  };

  // Load the current page on filter or page change (debounced) and on live changes.
  useEffect(() => {
    const ctl = new AbortController();
    const t = setTimeout(async () => {
      setLoading(true);
      try {
        const page = await api.listPrompts({ ...filters, q: filters.q.trim(), tag: filters.tag.trim() || undefined, status: filters.status || undefined, limit: PAGE, cursor: cursors.at(-1) }, ctl.signal);
        setItems(page.items);
        setNext(page.nextCursor);
        setTotal(page.total);
        setTotalIsLowerBound(page.totalIsLowerBound);
        setSearchedThrough(page.searchIncomplete ? page.searchedThrough : null);
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
  }, [filters, cursors, revision]);

  return (
    <section className="page" aria-labelledby={`${id}-h`}>
      <div className="page-head">
        <h1 id={`${id}-h`}>Prompts</h1>
        <div className="page-actions">
          {canAdmin && <Link href={href.bin()} className="btn" data-testid="open-bin">
            Deleted prompts
          </Link>}
          {canEdit && <button type="button" className="btn" data-testid="import-open" onClick={() => setImporting(true)}>
            Import…
          </button>}
          {canEdit && <Link href={href.newPrompt()} className="btn btn-primary" data-testid="new-prompt">
            New prompt
          </Link>}
        </div>
      </div>
      {importing && <ImportDialog onClose={() => setImporting(false)} />}
      <PromptListToolbar value={filters} onChange={changeFilters} />
      {error && <Banner kind="error">{error}</Banner>}
      <p className="sr-only" role="status" aria-live="polite">
        {loading
          ? 'Loading prompts…'
          : searchedThrough !== null
            ? `${items.length} match${items.length === 1 ? '' : 'es'} on this page; the search stopped after ${searchedThrough}`
          : totalIsLowerBound
            ? `more than ${total.toLocaleString()} prompts match; page ${pageNo}`
            : `${total} prompt${total === 1 ? '' : 's'} match; page ${pageNo} of ${Math.max(1, Math.ceil(total / PAGE))}`}
      </p>
      {!loading && items.length === 0 && !error && searchedThrough === null && (
        <div className="empty">
          {q || archived !== 'false' || label || filters.tag || filters.status ? <p>No prompts match.</p> : <p>No prompts yet. <Link href={href.newPrompt()}>Create the first one</Link>.</p>}
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
              <TagChips tags={p.tags} />
            </div>
            <div className="prompt-row-meta">
              {p.archived && <Badge kind="warn">archived</Badge>}
              {p.activeVersion != null && !p.archived ? (
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
              {(p.lastUsedAt || filters.sort === 'lastUsed') && (
                <span className="muted prompt-row-used" data-testid="row-last-used">
                  {p.lastUsedAt ? <>last used <Time iso={p.lastUsedAt} /></> : 'never used'}
                </span>
              )}
            </div>
          </li>
        ))}
      </ul>
      {searchedThrough !== null && (
        <div className="search-incomplete" data-testid="search-incomplete">
          <p>
            {items.length ? 'More prompts may match: ' : 'No matches yet: '}a search this short reads a stretch of prompts at a time, and this one stopped after <strong>{searchedThrough}</strong>.
          </p>
          <button type="button" className="btn btn-small" data-testid="keep-searching"
            onClick={() => next && setCursors((c) => (c.at(-1) === next ? c : [...c, next]))}>
            Keep searching
          </button>
        </div>
      )}
      {(total > 0 || pageNo > 1) && (
        <Pager
          page={pageNo}
          pages={Math.ceil(total / PAGE)}
          total={total}
          totalIsLowerBound={totalIsLowerBound}
          noun={['prompt', 'prompts']}
          hasNext={next !== null}
          busy={loading}
          onPrev={() => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c))}
          onNext={() => next && setCursors((c) => (c.at(-1) === next ? c : [...c, next]))}
        />
      )}
    </section>
  );
}
