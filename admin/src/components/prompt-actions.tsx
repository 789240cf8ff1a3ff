// The action bar of a prompt page: new version, deactivate, archive, rename, delete.
import type { ReactNode } from 'react';
import { api } from '../api';
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

const NAME_PATTERN = '[A-Za-z0-9_.\\-]{1,128}';

export function PromptActions({ detail, busy, ask, run }: Props) {
  const { name } = detail;
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
      input: { label: 'New name', initial: name, pattern: NAME_PATTERN, hint: 'Letters, digits, _ - . (up to 128)' },
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
    const a = await ask({
      title: 'Delete this prompt?',
      message: <p>This deletes {strong(name)} and all {detail.latestVersion} of its versions. It cannot be undone.</p>,
      confirmLabel: 'Delete forever',
      danger: true,
    });
    if (!a.ok) return;
    await run(async () => {
      await api.deletePrompt(name);
      navigate(href.prompts());
      pushFlash(`Deleted ${name}.`);
    }, '', false);
  };

  return (
    <div className="actions" role="group" aria-label="Prompt actions">
      <Link href={href.edit(name)} className="btn btn-primary" data-testid="action-new-version">
        New version
      </Link>
      {detail.activeVersion != null && (
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
      <button type="button" className="btn btn-danger-outline" data-testid="action-delete" onClick={remove} disabled={busy}>
        Delete
      </button>
    </div>
  );
}
