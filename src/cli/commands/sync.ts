// `promptd sync <dir> [--watch]`: a directory as the source of truth (docs/formats.md).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { withCore } from '../context.js';
import { red, UsageError } from '../output.js';
import { SettableLabelSchema } from '../../core/schemas.js';
import type { FormatId } from '../../library/formats/index.js';
// The sync itself loads when the command runs (it brings every format converter and `yaml`).
import type { SyncOptions, SyncReport } from '../../library/sync.js';
import { formatOption, warningLine } from './library-formats.js';

interface SyncFlags {
  format?: FormatId | 'auto';
  label?: string;
  activate?: boolean;
  force?: boolean;
  watch?: boolean;
  json?: boolean;
}

const out = (s: string) => process.stdout.write(`${s}\n`);
const err = (s: string) => process.stderr.write(`${s}\n`);

/** The lines a sync run prints: what changed, then conflicts and errors (unchanged prompts are counted, not listed). */
export function syncLines(r: SyncReport): { out: string[]; err: string[] } {
  const o: string[] = [];
  const e: string[] = [];
  let unchanged = 0;
  for (const p of r.prompts) {
    const act = p.activate !== undefined ? `, ${p.label ?? 'production'} → v${p.activate}` : '';
    if (p.action === 'create') o.push(`created      ${p.name} v${p.creates!.join(', v')}${act}  (${p.file})`);
    else if (p.action === 'new-version') o.push(`new version  ${p.name} v${p.latest} → v${p.creates!.join(', v')}${act}  (${p.file})`);
    else if (p.action === 'unchanged') unchanged++;
    else for (const x of p.errors ?? []) e.push(`${red('error')} ${p.file}: ${x.path}: ${x.message}`);
  }
  for (const n of r.unarchived) o.push(`unarchived   ${n}  (its file is back)`);
  for (const n of r.archived) o.push(`archived     ${n}  (its file was deleted)`);
  for (const c of r.conflicts) e.push(`${red('conflict')} ${c.name}: ${c.message}`);
  for (const w of r.warnings) e.push(warningLine(w));
  o.push(`synced ${r.dir}: ${o.length} change${o.length === 1 ? '' : 's'}, ${unchanged} unchanged, ${r.conflicts.length} conflict${r.conflicts.length === 1 ? '' : 's'}`);
  return { out: o, err: e };
}

function print(r: SyncReport, json: boolean | undefined): void {
  if (json) {
    out(JSON.stringify({ ...r, prompts: r.prompts.map(({ write: _w, ...rest }) => rest) }));
    return;
  }
  const lines = syncLines(r);
  for (const l of lines.out) out(l);
  for (const l of lines.err) err(l);
}

export function registerSync(program: Command): void {
  program
    .command('sync <dir>')
    .description('make a directory of prompt files the source of truth: new and changed files become versions, deleted files archive their prompts')
    .addOption(formatOption(true))
    .option('--activate', 'serve what the files hold (production, or the labels they name)')
    .option('--label <label>', 'put what the files hold under this label (e.g. staging) instead of production')
    .option('--force', 'let the files win over edits made in the UI or API since the last sync')
    .option('--watch', 'keep running and sync every change (debounced)')
    .option('--json', 'one JSON report per sync run')
    .addHelpText('after', `
The last sync of each directory is recorded in the database: a prompt edited in the UI
since then is reported as a conflict and left alone (exit 1) unless --force.
Examples:
  $ promptd sync ./prompts --activate
  $ promptd sync .claude/commands --format claude-commands --label staging --watch`)
    .action(async (dir: string, flags: SyncFlags, cmd: Command) => {
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`sync: ${path.resolve(dir)}: no such directory`);
      if (flags.label !== undefined) {
        const checked = SettableLabelSchema.safeParse(flags.label);
        if (!checked.success) throw new UsageError(`sync: --label ${flags.label}: ${checked.error.issues[0]!.message}`);
      }
      const opts: SyncOptions = { format: flags.format ?? 'auto', label: flags.label, activate: flags.activate, force: flags.force };
      await withCore(cmd, 'write', async (core) => {
        if (!flags.watch) {
          const { syncOnce } = await import('../../library/sync.js');
          const r = await syncOnce(core, dir, opts);
          print(r, flags.json);
          if (r.failed) process.exitCode = 1;
          return;
        }
        const { watchDirectory } = await import('../../library/sync-watch.js');
        const w = watchDirectory(core, dir, { ...opts, onReport: (r) => print(r, flags.json), onError: (e) => err(`${red('error')} ${e instanceof Error ? e.message : String(e)}`) });
        err(`promptd: watching ${path.resolve(dir)} (Ctrl-C to stop)`);
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await w.close();
      });
    });
}
