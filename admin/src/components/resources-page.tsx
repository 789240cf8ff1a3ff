// Resources: list with search and "Load more", detail (view / download / used by / delete), create, templates.
import { useEffect, useId, useState } from 'react';
import { api, errorMessage } from '../api';
import { useLive } from '../live';
import type { Resource } from '../types';
import { Badge, Banner, formatBytes } from './bits';
import { VisibilityBadge } from './visibility-field';
import { ResourceDetailPanel } from './resource-detail';
import { TextResourceForm, UploadForm } from './resource-forms';
import { ResourceTemplates } from './resource-templates';

export function ResourcesPage() {
  const id = useId();
  const [q, setQ] = useState('');
  const [items, setItems] = useState<Resource[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [open, setOpen] = useState<Resource['id'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const { revision } = useLive();

  useEffect(() => {
    document.title = 'Resources · promptd';
  }, []);
  useEffect(() => {
    const t = setTimeout(() => {
      api.listResources({ q: q.trim(), limit: 50 }).then(
        (p) => {
          setItems(p.items);
          setCursor(p.nextCursor);
          setError(null);
        },
        (err) => setError(errorMessage(err)),
      );
    }, 200);
    return () => clearTimeout(t);
  }, [q, revision, tick]);

  const more = async () => {
    try {
      const p = await api.listResources({ q: q.trim(), limit: 50, cursor });
      setItems((x) => [...x, ...p.items]);
      setCursor(p.nextCursor);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const changed = (msg: string) => {
    setInfo(msg);
    setTick((n) => n + 1);
  };

  return (
    <section className="page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>Resources</h1>
      <p className="muted">Stored resources and templates are what resource bindings resolve against. The server never reads files or the network for a client.</p>
      {info && <Banner kind="success" testId="resources-flash">{info}</Banner>}
      {error && <Banner kind="error">{error}</Banner>}
      <div className="res-grid">
        <section className="card" aria-labelledby={`${id}-list`}>
          <h2 id={`${id}-list`}>Stored resources</h2>
          <div className="field">
            <label htmlFor={`${id}-q`}>Search resources</label>
            <input id={`${id}-q`} type="search" value={q} data-testid="resource-search" onChange={(e) => setQ(e.target.value)} />
          </div>
          {items.length === 0 && <p className="muted">No resources{q ? ' match' : ' yet'}.</p>}
          <ul className="res-list" data-testid="resource-list">
            {items.map((r) => (
              <li key={r.id} className={`res-row${open === r.id ? ' is-open' : ''}`} data-testid="resource-row" data-uri={r.uri}>
                <div className="grow">
                  <code className="res-uri">{r.uri}</code>
                  <div className="muted small">
                    {r.name} · {r.mimeType} · {formatBytes(r.size)} {r.binary ? <Badge kind="info">binary</Badge> : <Badge kind="muted">text</Badge>} <VisibilityBadge value={r.visibility} />
                  </div>
                </div>
                <button type="button" className="btn btn-small" aria-expanded={open === r.id} aria-label={`${open === r.id ? 'Close' : 'Open'} ${r.uri}`} onClick={() => setOpen(open === r.id ? null : r.id)}>
                  {open === r.id ? 'Close' : 'Open'}
                </button>
                {open === r.id && (
                  <ResourceDetailPanel
                    id={r.id}
                    revision={revision}
                    onSaved={changed}
                    onDeleted={() => {
                      setOpen(null);
                      changed(`Deleted ${r.uri}.`);
                    }}
                  />
                )}
              </li>
            ))}
          </ul>
          {cursor && (
            <button type="button" className="btn btn-small" onClick={more} data-testid="resource-load-more">
              Load more
            </button>
          )}
        </section>
        <div className="stack">
          <TextResourceForm onCreated={changed} />
          <UploadForm onCreated={changed} />
        </div>
      </div>
      <ResourceTemplates />
    </section>
  );
}
