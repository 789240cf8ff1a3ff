// One version, read-only: its messages (template text as written) and its argument definitions.
import { useEffect, useState } from 'react';
import { api, errorMessage } from '../api';
import { shortUri } from '../lib/version-text';
import { href, Link } from '../router';
import type { Content, Version } from '../types';
import { Banner, Badge } from './bits';

function ContentView({ c }: { c: Content }) {
  switch (c.type) {
    case 'text':
      return <pre className="rendered-text template-text" data-testid="version-message-text">{c.text}</pre>;
    case 'image':
    case 'audio':
      return <p className="rendered-resource">{c.type === 'image' ? 'Image' : 'Audio'}: {'resourceUri' in c ? <code>{c.resourceUri}</code> : <span className="muted">inline {c.mimeType} data</span>}</p>;
    case 'resource':
      return <p className="rendered-resource">Embeds <code>{shortUri(c.uri)}</code></p>;
    case 'resource_link':
      return <p className="rendered-resource">Links to <code>{shortUri(c.uri)}</code></p>;
    case 'include': {
      const args = Object.entries(c.arguments ?? {});
      return (
        <div className="rendered-resource" data-testid="version-message-include">
          Includes <Link href={href.prompt(c.prompt)}>{c.prompt}</Link>
          {c.label ? <> at label <code>{c.label}</code></> : c.version ? ` v${c.version}` : ' (the version served under the same label)'}
          {args.length > 0 && (
            <ul className="small">
              {args.map(([k, v]) => <li key={k}><code>{k}</code> ← <code>{v}</code></li>)}
            </ul>
          )}
        </div>
      );
    }
  }
}

export function VersionView({ name, version, revision }: { name: string; version: number; revision: number }) {
  const [v, setV] = useState<Version | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.getVersion(name, version).then(
      (got) => live && (setV(got), setError(null)),
      (err) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [name, version, revision]);
  if (error) return <Banner kind="error">{error}</Banner>;
  if (!v || v.version !== version) return <p className="muted">Loading…</p>;
  return (
    <div className="version-view" data-testid="version-view" data-version={v.version}>
      {v.note && <p className="small"><span className="muted">Change note:</span> {v.note}</p>}
      <h3>Arguments</h3>
      {v.arguments.length === 0 ? (
        <p className="muted">No arguments.</p>
      ) : (
        <div className="table-scroll">
          <table className="args-table" data-testid="version-arguments">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Required</th>
                <th scope="col">Description</th>
                <th scope="col">Limits</th>
              </tr>
            </thead>
            <tbody>
              {v.arguments.map((a) => (
                <tr key={a.name} data-testid="version-argument" data-name={a.name}>
                  <th scope="row" className="mono">{a.name}{a.title && <span className="muted small"> · {a.title}</span>}</th>
                  <td className="mono small" data-testid="version-argument-type">{a.type ?? 'string'}{a.default != null && <span className="muted"> = {String(a.default)}</span>}</td>
                  <td>{a.required ? <Badge kind="info">required</Badge> : <span className="muted">optional</span>}</td>
                  <td>{a.description || <span className="muted">—</span>}</td>
                  <td className="small">
                    {a.choices?.length ? <>one of {a.choices.map((c, i) => <span key={c}>{i ? ', ' : ''}<code>{c}</code></span>)}</> : null}
                    {a.choices?.length && a.maxLength != null ? '; ' : null}
                    {a.maxLength != null ? `max ${a.maxLength} chars` : null}
                    {!a.choices?.length && a.maxLength == null && <span className="muted">—</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Messages</h3>
      <ol className="rendered-list" data-testid="version-messages">
        {v.messages.map((m, i) => (
          <li key={i} className={`rendered-msg role-${m.role}`} data-testid="version-message">
            <span className="rendered-role">
              #{i + 1} {m.role} · {m.content.type.replace('_', ' ')}
              {'annotations' in m.content && m.content.annotations?.audience?.length ? ` · for ${m.content.annotations.audience.join(' and ')}` : ''}
              {'annotations' in m.content && m.content.annotations?.priority != null ? ` · priority ${m.content.annotations.priority}` : ''}
            </span>
            <ContentView c={m.content} />
          </li>
        ))}
      </ol>
      {(v.tests?.length ?? 0) > 0 && (
        <>
          <h3>Test cases</h3>
          <ul className="check-list" data-testid="version-tests">
            {v.tests!.map((t) => (
              <li key={t.name} className="check-item small" data-testid="version-test" data-name={t.name}>
                <strong>{t.name}</strong>
                {Object.keys(t.arguments ?? {}).length > 0 && <span className="muted"> with {Object.entries(t.arguments).map(([k, x]) => `${k}=${x}`).join(', ')}</span>}
                <span>: {t.expect.map((e) => Object.entries(e).map(([k, x]) => `${k} ${JSON.stringify(x)}`).join('')).join('; ')}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
