// How to connect MCP clients: the Streamable HTTP URL and a stdio config for desktop clients.
import { useEffect, useId, useState } from 'react';
import { errorMessage, getServerInfo, type ServerInfo } from '../api';
import { useCan, useRole } from '../me';

const PLACEHOLDER = 'file:/absolute/path/to/data/promptd.db';
const stdioConfig = (databaseUrl: string) =>
  JSON.stringify({ mcpServers: { promptd: { command: 'npx', args: ['promptd', 'mcp'], env: { DATABASE_URL: databaseUrl } } } }, null, 2);

export function CopyBlock({ label, value, testId, multiline }: { label: string; value: string; testId: string; multiline?: boolean }) {
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      const el = document.getElementById(id) as HTMLTextAreaElement | HTMLInputElement | null;
      el?.select();
      setCopied('no');
    }
    setTimeout(() => setCopied(null), 2500);
  };
  return (
    <div className="field copy">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        {multiline ? (
          <textarea id={id} className="mono" readOnly wrap="off" rows={value.split('\n').length + 1} value={value} data-testid={testId} onFocus={(e) => e.target.select()} />
        ) : (
          <input id={id} className="mono" readOnly value={value} data-testid={testId} onFocus={(e) => e.target.select()} />
        )}
        <button type="button" className="btn btn-small" onClick={copy} data-testid={`${testId}-copy`}>
          Copy
        </button>
      </div>
      <p className="hint" role="status">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'no' ? 'Selected: press Ctrl+C (⌘C) to copy.' : '\u00a0'}
      </p>
    </div>
  );
}

export function ConnectPage() {
  const id = useId();
  const [info, setInfo] = useState<ServerInfo | null>(null);
  const [infoError, setInfoError] = useState<string | null>(null);
  // The database URL is the admin's (GET /server-info needs the admin role).
  const isAdmin = useCan('admin');
  const roleKnown = useRole() !== null;
  useEffect(() => {
    document.title = 'Connect · promptd';
  }, []);
  useEffect(() => {
    if (isAdmin) getServerInfo().then(setInfo, (err) => setInfoError(errorMessage(err)));
  }, [isAdmin]);
  const url = `${location.origin}/mcp`;
  return (
    <section className="page narrow" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>Connect an MCP client</h1>
      <p className="muted">MCP clients see the active version of every prompt that is not archived, as slash commands.</p>
      <section className="card" aria-labelledby={`${id}-http`}>
        <h2 id={`${id}-http`}>Over HTTP (Streamable HTTP)</h2>
        <CopyBlock label="MCP server URL" value={url} testId="mcp-url" />
        <p className="small muted">
          If the server runs with <code>PROMPTD_MCP_TOKEN</code>, clients send <code>Authorization: Bearer &lt;token&gt;</code>.
        </p>
      </section>
      <section className="card" aria-labelledby={`${id}-stdio`}>
        <h2 id={`${id}-stdio`}>Over stdio (desktop clients)</h2>
        <p className="small">
          Add this to your client&apos;s MCP configuration (for Claude Desktop, <code>claude_desktop_config.json</code>). Point <code>DATABASE_URL</code> at the same
          database this server uses; edits made here reach the stdio process too.
        </p>
        {info?.database.provider === 'postgresql' && (
          <p className="small" data-testid="stdio-password-note">The password is left out: replace <code>&lt;password&gt;</code> with the real one.</p>
        )}
        {roleKnown && !isAdmin && <p className="small muted" data-testid="stdio-admin-note">Only an admin token sees this server&apos;s database here; fill in the path yourself.</p>}
        {infoError && <p className="small field-warning">Could not ask the server for its database ({infoError}); fill in the path yourself.</p>}
        <CopyBlock label="stdio configuration" value={stdioConfig(info?.database.url ?? PLACEHOLDER)} testId="stdio-config" multiline />
      </section>
    </section>
  );
}
