// The action bar of a prompt page: new version, deactivate, archive, rename, delete.
import { useCan } from '../me';
import type { ReactNode } from 'react';
import { api, getServerInfo } from '../api';
import { pushFlash } from '../flash';
import { href, Link, navigate } from '../router';
import type { PromptDetail } from '../types';
import type { Answer, AskOptions } from './dialog';

interface Props {
  detail: PromptDetail;
  busy: boolean;
  ask: (o: AskOptions) => Promise<Answer>;
  run: (what: () => Promise<unknown>, done: string, reload?: boolean) => Promise<void>;
  onError: (msg: string) => void;
}

const NAME_RE = /^[A-Za-z0-9_.-]{1,128}$/;

function checkName(v: string): string | null {
  const t = v.trim();
  if (!t) return 'Enter a name.';
  if (t.length > 128) return `At most 128 characters (this one has ${t.length}).`;
  const bad = [...new Set(t.replace(/[A-Za-z0-9_.-]/g, ''))];
  if (bad.length || !NAME_RE.test(t)) return `Only letters, digits, _ - and . are allowed; remove ${bad.map((c) => (c === ' ' ? 'the space' : `"${c}"`)).join(', ')}.`;
  return null;
}

export function PromptActions({ detail, busy, ask, run }: Props) {
  const { name } = detail;
  const canEdit = useCan('editor');
  const canAdmin = useCan('admin');
  const strong = (s: string): ReactNode => <strong className="mono">{s}</strong>;

  const deactivate = async () => {
    const a = await ask({
      title: 'Stop serving this prompt?',
      message: <p>MCP clients will no longer see {strong(name)}. Its versions are kept; activate one again any time.</p>,
      confirmLabel: 'Deactivate',
      danger: true,
    });
    if (a.ok) await run(() => api.deactivate(name), 'No longer served.');
  };
  const archive = async () => {
    if (detail.archived) return run(() => api.patchPrompt(name, { archived: false }), 'Unarchived.');
    const a = await ask({
      title: 'Archive this prompt?',
      message: <p>Archived prompts are hidden from the list and from MCP clients. You can unarchive later.</p>,
      confirmLabel: 'Archive',
    });
    if (a.ok) await run(() => api.patchPrompt(name, { archived: true }), 'Archived.');
  };
  const rename = async () => {
    const a = await ask({
      title: 'Rename prompt',
      message: <p>MCP clients call prompts by name: clients using {strong(name)} will need the new one.</p>,
      confirmLabel: 'Rename',
      input: { label: 'New name', initial: name, hint: 'Letters, digits, _ - . (up to 128)', validate: checkName },
    });
    const next = a.value.trim();
    if (!a.ok || !next || next === name) return;
    await run(async () => {
      await api.patchPrompt(name, { name: next });
      navigate(href.prompt(next), { replace: true });
      pushFlash(`Renamed ${name} to ${next}.`);
    }, '', false);
  };
  const remove = async () => {
    const days = await getServerInfo().then((i) => i.deletedRetentionDays, () => null);
    const keep = days === null ? 'for the retention period (30 days by default)' : days === 1 ? 'for 1 day' : `for ${days} days`;
    const a = await ask({
      title: 'Delete this prompt?',
      message: (
        <p data-testid="delete-bin-note">
          {strong(name)} and all {detail.latestVersion} of its versions go to the bin (<Link href={href.bin()}>Deleted prompts</Link>) and stop being served. You can restore it from there {keep}; after that it is purged for good.
        </p>
      ),
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!a.ok) return;
    await run(async () => {
      await api.deletePrompt(name);
      navigate(href.prompts());
      pushFlash(`Deleted ${name}: it is in the bin (Deleted prompts) ${keep}.`);
    }, '', false);
  };

  if (!canEdit) return null;
  return (
    <div className="actions" role="group" aria-label="Prompt actions">
      <Link href={href.edit(name)} className="btn btn-primary" data-testid="action-new-version">
        New version
      </Link>
      {detail.activeVersion != null && canAdmin && (
        <button type="button" className="btn" data-testid="action-deactivate" onClick={deactivate} disabled={busy}>
          Deactivate
        </button>
      )}
      <button type="button" className="btn" data-testid="action-archive" onClick={archive} disabled={busy}>
        {detail.archived ? 'Unarchive' : 'Archive'}
      </button>
      <button type="button" className="btn" data-testid="action-rename" onClick={rename} disabled={busy}>
        Rename
      </button>
      {canAdmin && <button type="button" className="btn btn-danger-outline" data-testid="action-delete" onClick={remove} disabled={busy}>
        Delete
      </button>}
    </div>
  );
}
