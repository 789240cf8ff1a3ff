// One resource: its content (text, image, audio, or a download), the prompts that bind it, delete.
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, api, errorMessage } from '../api';
import { href, Link } from '../router';
import type { Resource, ResourceDetail } from '../types';
import { Badge, Banner, formatBytes } from './bits';
import { useDialog } from './dialog';
import { ResourceEditForm } from './resource-edit-form';
import { VisibilityBadge } from './visibility-field';

// Stored content is untrusted: a blob: URL is same-origin with the admin UI, so one typed
// image/svg+xml or text/html would run script as the admin when opened in a tab. The download
// blob is always application/octet-stream (a browser saves it, never renders it).
function toDownloadUrl(d: ResourceDetail): string {
  const bytes = d.blob != null ? Uint8Array.from(atob(d.blob), (c) => c.charCodeAt(0)) : new TextEncoder().encode(d.text ?? '');
  return URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
}

// Media is shown from a data: URL: an <img> never runs SVG script, and a data: document opened
// on its own has an opaque origin (Chromium also refuses page-initiated top-level data: navigations).
const MEDIA_TYPE = /^(image|audio)\/[a-z0-9.+-]+$/i;
function mediaUrl(d: ResourceDetail): string | null {
  return d.blob != null && MEDIA_TYPE.test(d.mimeType) ? `data:${d.mimeType};base64,${d.blob}` : null;
}

interface Props { id: Resource['id']; revision: number; onDeleted: () => void; onSaved: (msg: string) => void }

export function ResourceDetailPanel({ id, revision, onDeleted, onSaved }: Props) {
  const [d, setD] = useState<ResourceDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [tick, setTick] = useState(0);
  const editBtn = useRef<HTMLButtonElement>(null);
  const [ask, dialog] = useDialog();
  useEffect(() => {
    api.getResource(id).then(setD, (err) => setError(errorMessage(err)));
  }, [id, revision, tick]);
  const refocus = useRef(false);
  const closeEditor = () => {
    refocus.current = true;
    setEditing(false);
  };
  useEffect(() => {
    if (editing || !refocus.current || !editBtn.current) return;
    refocus.current = false;
    editBtn.current.focus();
  });
  const url = useMemo(() => (d ? toDownloadUrl(d) : null), [d]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  const remove = async () => {
    if (!d) return;
    const a = await ask({ title: 'Delete resource?', message: <p>Delete <code>{d.uri}</code>? Draft versions that bind it will no longer render.</p>, confirmLabel: 'Delete', danger: true });
    if (!a.ok) return;
    try {
      await api.deleteResource(d.id);
      onDeleted();
    } catch (err) {
      setError(err instanceof ApiError && err.status === 409 ? `Still in use: ${err.problem.detail ?? 'an active prompt binds this resource'}. Roll those prompts to versions without it first.` : errorMessage(err));
    }
  };

  if (!d) return <div className="res-detail">{error ? <Banner kind="error">{error}</Banner> : <p className="muted">Loading…</p>}</div>;
  const file = d.uri.split(/[/:]/).filter(Boolean).pop() || d.name;
  return (
    <div className="res-detail" data-testid="resource-detail">
      {dialog}
      {error && <Banner kind="error">{error}</Banner>}
      {editing && (
        <ResourceEditForm
          d={d}
          onCancel={closeEditor}
          onSaved={(msg) => {
            closeEditor();
            setTick((n) => n + 1);
            onSaved(msg);
          }}
        />
      )}
      {!editing && <ResourceView d={d} />}
      {!editing && (
        <div className="row-gap">
          {url && (
            <a className="btn btn-small" href={url} download={file} data-testid="resource-download">
              Download
            </a>
          )}
          <button type="button" className="btn btn-small" ref={editBtn} onClick={() => setEditing(true)} data-testid="resource-edit" aria-label={`Edit ${d.uri}`}>
            Edit
          </button>
          <button type="button" className="btn btn-small btn-danger-outline" onClick={remove} data-testid="resource-delete" aria-label={`Delete ${d.uri}`}>
            Delete
          </button>
        </div>
      )}
      <h4>Used by</h4>
      {d.usedBy.length === 0 ? (
        <p className="muted small" data-testid="resource-used-by">No prompt binds this resource.</p>
      ) : (
        <ul className="used-by" data-testid="resource-used-by">
          {d.usedBy.map((u) => (
            <li key={`${u.prompt}@${u.version}`}>
              <Link href={href.prompt(u.prompt)} className="mono">{u.prompt}</Link> v{u.version} {u.active && <Badge kind="active">active</Badge>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ResourceView({ d }: { d: ResourceDetail }) {
  const media = mediaUrl(d);
  return (
    <>
      <p className="small res-meta" data-testid="resource-meta">
        <strong>{d.title || d.name}</strong> · <span className="mono">{d.mimeType}</span> · {formatBytes(d.size)} · <VisibilityBadge value={d.visibility} />
      </p>
      {d.description && <p className="small">{d.description}</p>}
      {d.text != null && <pre className="res-text" data-testid="resource-text">{d.text}</pre>}
      {media && d.mimeType.startsWith('image/') && <img className="res-media" src={media} alt={d.title ?? d.name} data-testid="resource-image" />}
      {media && d.mimeType.startsWith('audio/') && <audio controls src={media} aria-label={d.title ?? d.name} />}
    </>
  );
}
