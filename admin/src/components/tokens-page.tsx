// Admin API tokens: create with a name (the token shown once, with a copy button), list
// with last use, revoke with confirmation (a louder one for the token in use).
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../api';
import { tokensApi, type ApiToken, type CreatedToken, type TokenInput } from '../tokens-api';
import { parseTags } from './tag-chips';
import { Badge, Banner, describe, FieldError, Time, type Messages } from './bits';
import { CopyBlock } from './connect-page';
import { useDialog } from './dialog';
import '../webhooks.css';

function CreateForm({ onCreated, mcpAnonymous }: { onCreated: (t: CreatedToken) => void; mcpAnonymous: boolean }) {
  const id = useId();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'admin' | 'mcp' | 'app'>('admin');
  const [role, setRole] = useState<'reader' | 'editor' | 'admin'>('admin');
  const [label, setLabel] = useState('production');
  const [tagText, setTagText] = useState('');
  const [errors, setErrors] = useState<Messages>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const go = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setError(null);
    try {
      let body: TokenInput = { name, kind, role };
      if (kind !== 'admin') {
        const parsed = parseTags(tagText);
        if ('error' in parsed) {
          setErrors({ tags: parsed.error });
          setError(parsed.error);
          return;
        }
        body = { name, kind, label, ...(parsed.tags.length ? { tags: parsed.tags } : {}) };
      }
      onCreated(await tokensApi.create(body));
      setName('');
      setTagText('');
    } catch (err) {
      if (err instanceof ApiError && err.problem.errors?.length) setErrors(err.fieldErrors);
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card stack-sm" onSubmit={go} aria-labelledby={`${id}-h`} data-testid="token-form">
      <h2 id={`${id}-h`}>New token</h2>
      {error && <Banner kind="error">{error}</Banner>}
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} required data-testid="token-name" placeholder="ci-bot" value={name} onChange={(e) => setName(e.target.value)} {...describe('name', errors)} />
        <p className="hint">Unique. The activity log shows what the token did under this name.</p>
        <FieldError path="name" errors={errors} />
      </div>
      <fieldset className="field">
        <legend>Kind</legend>
        <label><input type="radio" name={`${id}-kind`} value="admin" checked={kind === 'admin'} data-testid="token-kind-admin" onChange={() => setKind('admin')} /> Admin API (this UI, scripts, CI)</label>
        <label><input type="radio" name={`${id}-kind`} value="mcp" checked={kind === 'mcp'} data-testid="token-kind-mcp" onChange={() => setKind('mcp')} /> MCP client (one label, optional tags)</label>
        <label><input type="radio" name={`${id}-kind`} value="app" checked={kind === 'app'} data-testid="token-kind-app" onChange={() => setKind('app')} /> Application (the read API /v1: one label, optional tags)</label>
      </fieldset>
      {kind === 'mcp' && mcpAnonymous && (
        // Issue 37.14: the first MCP token silently locked /mcp for every client already connected without one.
        <Banner kind="warning" testId="token-mcp-first-warning" live={false}>
          <p>
            <strong>This is the first MCP client token.</strong> Once it exists, /mcp refuses every client without a token, those connected now
            included: anonymous MCP access ends. To get it back, revoke every MCP token.
          </p>
        </Banner>
      )}
      {kind === 'admin' ? (
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} data-testid="token-role" value={role} onChange={(e) => setRole(e.target.value as typeof role)} {...describe('role', errors)}>
            <option value="reader">reader: reads only</option>
            <option value="editor">editor: prompts, versions, unprotected labels, resources, import</option>
            <option value="admin">admin: everything (tokens, webhooks, protected labels, deletes)</option>
          </select>
          <FieldError path="role" errors={errors} />
        </div>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-label`}>Label</label>
            <input id={`${id}-label`} data-testid="token-label" value={label} onChange={(e) => setLabel(e.target.value)} {...describe('label', errors)} />
            <p className="hint">The client sees this label’s view of the prompts.</p>
            <FieldError path="label" errors={errors} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-tags`}>Tags (optional)</label>
            <input id={`${id}-tags`} data-testid="token-tags" placeholder="team-a, support" value={tagText} onChange={(e) => setTagText(e.target.value)} {...describe('tags', errors)} />
            <p className="hint">Only prompts carrying one of these tags; empty: every prompt of the label.</p>
            <FieldError path="tags" errors={errors} />
          </div>
        </>
      )}
      <button type="submit" className="btn btn-primary" data-testid="token-create" disabled={busy}>
        {busy ? 'Creating…' : 'Create token'}
      </button>
    </form>
  );
}

export function TokensPage() {
  const id = useId();
  const [items, setItems] = useState<ApiToken[] | null>(null);
  const [mcpAnonymous, setMcpAnonymous] = useState(false);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ask, dialog] = useDialog();

  useEffect(() => {
    document.title = 'Tokens · promptd';
  }, []);
  const load = useCallback(() => {
    tokensApi.listWithMcp().then(
      (xs) => {
        setItems(xs.items);
        setMcpAnonymous(xs.mcpAnonymous);
        setError(null);
      },
      (err) => setError(errorMessage(err)),
    );
  }, []);
  useEffect(load, [load]);

  const revoke = async (t: ApiToken) => {
    const a = await ask({
      title: t.current ? 'Revoke the token you are signed in with?' : `Revoke “${t.name}”?`,
      message: t.current ? (
        <p>
          <strong>This is the token this browser uses.</strong> Revoking it signs you out at once; you will need another token to sign in again.
        </p>
      ) : (
        <p>Requests with this token are refused from now on. This cannot be undone.</p>
      ),
      confirmLabel: t.current ? 'Revoke and sign out' : 'Revoke',
      danger: true,
    });
    if (!a.ok) return;
    try {
      await tokensApi.revoke(t.id);
      setInfo(`Revoked the token “${t.name}”.`);
      setError(null);
      if (created?.id === t.id) setCreated(null);
      // For the token in use, this request is refused and the app signs out (api.ts).
      load();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <section className="page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>Tokens</h1>
      <p className="muted">Admin API tokens (with a role), for this UI, scripts and CI, and MCP client tokens (one label’s view, optionally only some tags). Only a short prefix is stored in readable form; a token is shown once, when it is created.</p>
      {created && (
        <div className="banner banner-warning wh-secret" role="status" data-testid="token-secret-banner">
          <p>
            Token <strong>{created.name}</strong> created. Copy it now: it is not shown again.
          </p>
          <CopyBlock label={`Token ${created.name}`} value={created.token} testId="token-secret" />
          <button type="button" className="btn btn-small" onClick={() => setCreated(null)}>
            I have stored it
          </button>
        </div>
      )}
      {info && <Banner kind="success" testId="tokens-flash">{info}</Banner>}
      {error && <Banner kind="error">{error}</Banner>}
      <div className="res-grid">
        <section className="card" aria-labelledby={`${id}-list`}>
          <h2 id={`${id}-list`}>Tokens</h2>
          {items?.length === 0 && <p className="muted">No tokens yet. The server’s PROMPTD_ADMIN_TOKEN, if set, is not listed.</p>}
          {items && items.length > 0 && (
            <div className="wh-table-wrap">
              <table className="wh-table" data-testid="token-table">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Access</th>
                    <th scope="col">Prefix</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Status</th>
                    <th scope="col"><span className="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((t) => (
                    <tr key={t.id} data-testid="token-row" data-name={t.name} data-revoked={t.revokedAt ? 'true' : 'false'}>
                      <td>
                        {t.name} {t.current && <Badge kind="info">this browser</Badge>}
                      </td>
                      <td data-testid="token-access">{t.kind !== 'admin' ? <>{t.kind === 'mcp' ? 'MCP' : 'App'} · {t.label}{t.tags ? ` · ${t.tags.map((x) => `#${x}`).join(' ')}` : ''}</> : t.role}</td>
                      <td><code>{t.prefix}…</code></td>
                      <td><Time iso={t.createdAt} /></td>
                      <td data-testid="token-last-used">{t.lastUsedAt ? <Time iso={t.lastUsedAt} /> : <span className="muted">never</span>}</td>
                      <td>{t.revokedAt ? <>revoked <Time iso={t.revokedAt} /></> : <Badge kind="active">active</Badge>}</td>
                      <td>
                        {!t.revokedAt && (
                          <button type="button" className="btn btn-small btn-danger-outline" aria-label={`Revoke ${t.name}`} data-testid="token-revoke" onClick={() => void revoke(t)}>
                            Revoke
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <CreateForm
          mcpAnonymous={mcpAnonymous}
          onCreated={(t) => {
            setCreated(t);
            setInfo(null);
            load();
          }}
        />
      </div>
      {dialog}
    </section>
  );
}
