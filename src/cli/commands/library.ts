// `promptd seed | import | export`: prompt libraries as files (docs/library-format.md).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { withCore } from '../context.js';
import { bold, red, UsageError } from '../output.js';
import { importLibrary, type ImportPhase, type ImportReport } from '../../library/apply.js';
import { seedDir, seedLibrary } from '../../library/seed.js';
import { SettableLabelSchema } from '../../core/schemas.js';
import type { PromptPlanItem, ResourcePlanItem } from '../../library/plan.js';
import { formatOption, runFormatExport, runFormatImport } from './library-formats.js';
import type { FormatId } from '../../library/formats/types.js';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_TOTAL_BYTES, MiB, parseSize } from '../../library/safe-read.js';

interface ImportFlags {
  activate?: boolean;
  label?: string;
  dryRun?: boolean;
  json?: boolean;
  quiet?: boolean;
  maxFileSize?: number;
  maxTotalSize?: number;
  format?: FormatId | 'auto';
  continueOnError?: boolean;
  reparse?: boolean;
}

function sizeOption(flag: string, what: string, def: number): Option {
  return new Option(`${flag} <size>`, `${what} (default ${def / MiB}MiB; e.g. 512KiB, 64MiB)`).argParser((v: string) => {
    const n = parseSize(v);
    if (n === undefined) throw new InvalidArgumentError('expected a size such as 16MiB, 512KiB or a number of bytes');
    return n;
  });
}

const out = (s: string) => process.stdout.write(`${s}\n`);
const err = (s: string) => process.stderr.write(`${s}\n`);

/**
 * Progress on stderr: a `\r`-redrawn bar on a terminal; without one (logs, CI) a line
 * at every tenth of a phase, for phases long enough to be worth it.
 */
function progressBar(enabled: boolean, tty = Boolean(process.stderr.isTTY)) {
  let drawn = false;
  let last = { phase: '' as ImportPhase | '', done: 0, total: 0, step: -1 };
  const what: Record<ImportPhase, string> = { reading: 'reading', planning: 'planning', writing: 'importing' };
  const unit = (phase: ImportPhase) => (phase === 'reading' ? 'files' : 'prompts');
  return {
    /** where it got to, for the Ctrl-C message */
    get last() {
      return last;
    },
    update(done: number, total: number, phase: ImportPhase = 'writing') {
      const step = Math.floor((done / Math.max(1, total)) * 10);
      const first = last.phase !== phase;
      const previous = last;
      last = { phase, done, total, step };
      if (!enabled) return;
      if (tty) {
        const width = 30;
        const filled = Math.round((done / Math.max(1, total)) * width);
        const counts = phase === 'planning' ? `${total} prompts` : `${done}/${total}`;
        process.stderr.write(`\r\x1b[K${what[phase]} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counts}`);
        drawn = true;
      } else if (total >= 100 && (first || step !== previous.step)) {
        process.stderr.write(phase === 'planning' ? `promptd: planning ${total} prompts…\n` : `promptd: ${what[phase]} ${done}/${total} ${unit(phase)}\n`);
      }
    },
    done() {
      if (drawn) process.stderr.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/**
 * Ctrl-C: say how far it got. Every prompt file commits on its own, so what is done stays
 * done. A large import writes while it reads (src/library/apply.ts) and reports only
 * `writing`, counting prompt files done; "nothing written yet" is said only while an
 * import that reads everything first is still reading or planning.
 */
function onInterrupt(bar: ReturnType<typeof progressBar>): () => void {
  const handler = () => {
    bar.done();
    const l = bar.last;
    const where = l.phase === 'writing' ? `after ${l.done} of ${l.total} prompts` : `while ${l.phase || 'starting'} (nothing written yet)`;
    process.stderr.write(`promptd: interrupted ${where}; run the same command again to finish\n`);
    process.exit(130);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

function promptLine(p: PromptPlanItem, dry: boolean): string | undefined {
  const act = p.activate !== undefined ? (p.label ? `, ${p.label} → v${p.activate}` : `, ${dry ? 'activate' : 'activated'} v${p.activate}`) : '';
  const note = p.note ? `  (${p.note})` : '';
  switch (p.action) {
    case 'create':
      return `  ${dry ? 'create     ' : 'created    '}  ${bold(p.name!)} v${p.creates!.join(', v')}${act}${note}`;
    case 'new-version':
      return `  new version  ${bold(p.name!)} v${p.latest} → v${p.creates!.join(', v')}${act}${note}`;
    case 'unchanged':
      return `  unchanged    ${p.name} v${p.latest}${act}${note}`;
    default:
      return undefined;
  }
}

function resourceLine(r: ResourcePlanItem, dry: boolean): string | undefined {
  const what = r.kind === 'template' ? 'template' : 'resource';
  if (r.action === 'error') return undefined;
  const verb = r.action === 'create' ? (dry ? 'create     ' : 'created    ') : r.action === 'update' ? (dry ? 'update     ' : 'updated    ') : 'unchanged  ';
  return `  ${verb}  ${what} ${r.key}`;
}

export function printReport(report: ImportReport, flags: ImportFlags, extra: Record<string, unknown> = {}): void {
  if (flags.json) {
    const strip = report.prompts.map(({ write: _w, ...rest }) => rest);
    const res = report.resources.map(({ input: _i, ...rest }) => rest);
    out(JSON.stringify({ dryRun: report.dryRun, counts: report.counts, failed: report.failed, resources: res, prompts: strip, ...extra }, null, 2));
    return;
  }
  const dry = report.dryRun;
  // A plan lists everything; a real import lists what it changed.
  const show = (action: string, activates: boolean) => !flags.quiet && (dry || action !== 'unchanged' || activates);
  for (const r of report.resources) if (show(r.action, false)) { const l = resourceLine(r, dry); if (l) out(l); }
  for (const p of report.prompts) if (show(p.action, p.activate !== undefined)) { const l = promptLine(p, dry); if (l) out(l); }
  for (const r of report.resources) for (const e of r.errors ?? []) err(`${red('error')} resources.yaml: ${e.path}: ${e.message}`);
  for (const p of report.prompts) for (const e of p.errors ?? []) err(`${red('error')} ${p.file}: ${e.path}: ${e.message}`);
  const c = report.counts;
  const verb = dry ? 'plan' : 'imported';
  const act = dry ? 'to activate' : 'activated';
  out(
    `${verb}: ${c.created} ${dry ? 'to create' : 'created'}, ${c.newVersion} new version${c.newVersion === 1 ? '' : 's'}, ${c.unchanged} unchanged, ${c.activated} ${act}, ${c.errors} error${c.errors === 1 ? '' : 's'}` +
      `; resources: ${c.resourcesCreated} ${dry ? 'to create' : 'created'}, ${c.resourcesUpdated} ${dry ? 'to update' : 'updated'}, ${c.resourcesUnchanged} unchanged` +
      (dry ? ' (dry run: nothing written)' : ''),
  );
  // Imported versions are served only once active: say so, or an export reverts the edit.
  const unserved = report.prompts.filter((p) => (p.action === 'create' || p.action === 'new-version') && p.activate === undefined).length;
  if (unserved) out(`${unserved} new version${unserved === 1 ? '' : 's'} ${dry ? 'would not be' : 'not'} served (use --activate)`);
  if (report.failed) process.exitCode = 1;
}

export function registerLibrary(program: Command): void {
  program
    .command('seed')
    .description('load the seed library (seed/): create the seed prompts that are missing and serve them; never replaces your edits without --force')
    .option('--dry-run', 'print what would change without writing')
    .option('--force', 'also replace seed prompts and resources someone changed (a new version with the seed text, served)')
    .option('--json', 'machine-readable report')
    .option('-q, --quiet', 'print only errors and the summary')
    .addHelpText('after', `
The seed library lives in ${seedDir}. seed creates the seed prompts that do not
exist and serves them, and updates those whose every version came from the seed.
A seed prompt that has a version from anyone else (an import, the admin UI) and a
stored resource that differs from the seed's are left as they are, each named in a
"skipped" line; --force replaces them with the seed's (your versions stay in the
prompt's history). Running it twice changes nothing.

Examples:
  $ promptd seed
  $ promptd seed --dry-run
  $ promptd seed --force      # put the seed's text back, over your edits`)
    .action(async (flags: ImportFlags & { force?: boolean }, cmd: Command) => {
      await withCore(cmd, 'create', async (core) => {
        const bar = progressBar(!flags.json && !flags.quiet);
        const release = onInterrupt(bar);
        try {
          const report = await seedLibrary(core, { dryRun: flags.dryRun, force: flags.force, onProgress: bar.update });
          bar.done();
          printReport(report, flags, { skipped: report.skipped });
          if (!flags.json) {
            for (const x of report.skipped) err(`skipped ${x.kind === 'prompt' ? '' : `${x.kind} `}${x.name}: changed since seeded (${x.reason}); --force replaces it with the seed's`);
          }
        } finally {
          bar.done();
          release();
        }
      });
    });

  program
    .command('import <path>')
    .description('import a prompt library directory (prompts/*.yaml + resources.yaml) or one prompt file')
    .option('--activate', 'serve the imported version (or the unchanged latest one) of every prompt, and set the labels the files name')
    .option('--label <label>', 'put the imported version under this label (e.g. staging) instead of production; moves only that label')
    .option('--dry-run', 'print the plan (created / new version / unchanged / errors) without writing')
    .option('--json', 'machine-readable report')
    .option('-q, --quiet', 'print only errors and the summary')
    .addOption(sizeOption('--max-file-size', 'refuse any single file larger than this', DEFAULT_MAX_FILE_BYTES))
    .addOption(sizeOption('--max-total-size', 'refuse files once all files read together exceed this', DEFAULT_MAX_TOTAL_BYTES))
    .addOption(formatOption(true))
    .option('--continue-on-error', 'with --format: import the files that are fine, one transaction each, and report the others')
    .option('--reparse', 'parse and compare every file, even those read unchanged by the last import')
    .addHelpText('after', `
A prompt gets a new version only when its content (title, description, icons,
arguments, messages) differs from its latest version, so importing twice changes
nothing. A file whose bytes (and media files) are those the last import of the
same library read, whose prompt nobody changed since, is not parsed again. Each prompt file is written atomically; an invalid file is reported with
its field and skipped, the rest still applies, and the exit code is 1.

Only regular files inside the library are read: symbolic links (to anything),
FIFOs, devices and oversized files are refused, each as that file's error
(SECURITY.md, "Prompt library files").

--format (auto, claude-commands, prompt-md, dotprompt, prompty, langfuse, promptd)
reads other tools' prompt files anywhere under <path> (.git and node_modules are
skipped; docs/formats.md). What promptd cannot represent exactly is a warning with
file:line. Such an import is one transaction: any file with an error means nothing
is written, unless --continue-on-error. Without --format (or with --format promptd)
<path> is a promptd library.

Examples:
  $ promptd import ./library --dry-run
  $ promptd import . --format auto --dry-run
  $ promptd import .claude/commands --format claude-commands --activate
  $ promptd import ./library --activate
  $ promptd import ./library/prompts/code-review.yaml`)
    .action(async (target: string, flags: ImportFlags, cmd: Command) => {
      // A path that is not there is a usage error (exit 2), as for check and sync.
      if (!existsSync(target)) throw new UsageError(`import: ${path.resolve(target)}: no such file or directory`);
      if (flags.label !== undefined) {
        const checked = SettableLabelSchema.safeParse(flags.label);
        if (!checked.success) throw new UsageError(`import: --label ${flags.label}: ${checked.error.issues[0]!.message}`);
      }
      if (flags.format !== undefined && flags.format !== 'promptd') {
        const format = flags.format;
        return withCore(cmd, 'write', (core) =>
          runFormatImport(core, target, format, {
            activate: flags.activate, label: flags.label, dryRun: flags.dryRun, continueOnError: flags.continueOnError,
            maxFileBytes: flags.maxFileSize, maxTotalBytes: flags.maxTotalSize, json: flags.json, quiet: flags.quiet,
          }, (r) => printReport(r, flags)),
        );
      }
      await withCore(cmd, 'write', async (core) => {
        const bar = progressBar(!flags.json && !flags.quiet);
        const release = onInterrupt(bar);
        let report: ImportReport;
        try {
          report = await importLibrary(core, target, {
            activate: flags.activate,
            label: flags.label,
            dryRun: flags.dryRun,
            onProgress: bar.update,
            maxFileBytes: flags.maxFileSize,
            maxTotalBytes: flags.maxTotalSize,
            reparse: flags.reparse,
          });
        } finally {
          bar.done();
          release();
        }
        printReport(report, flags);
      });
    });

  program
    .command('export <dir>')
    .description('write every prompt (active version by default), every stored resource and every resource template as a library directory')
    .addOption(new Option('--latest', 'export the latest version instead of the active one').conflicts('allVersions'))
    .option('--all-versions', 'export every version with its labels (history files)')
    .option('--prune', 'delete files under prompts/, resources/ and media/ in <dir> that this export did not write')
    .option('--force', 'write an export with no prompts over a library that has some')
    .option('--all-resources', 'write every stored resource, referenced or not (the default)')
    .option('--no-all-resources', 'write only the resources the exported versions reference')
    .addOption(formatOption(false))
    .addHelpText('after', `
Output is deterministic (sorted, fixed key order), so a library kept in git diffs
cleanly. Archived prompts are not exported; without --latest or --all-versions,
neither are prompts with no active version. Resources are not versioned: every
stored resource is written whatever version flag is given, unless
--no-all-resources. Nothing is written or deleted through a symbolic link in <dir>.

Examples:
  $ promptd export ./library
  $ promptd export ./backup --all-versions
  $ promptd export ./library --prune && git -C ./library diff
  $ promptd export . --format claude-commands   # .claude/commands/<name>.md`)
    .action(async (dir: string, flags: { latest?: boolean; allVersions?: boolean; prune?: boolean; force?: boolean; allResources?: boolean; format?: FormatId }, cmd: Command) => {
      if (flags.format !== undefined && flags.format !== 'promptd') {
        if (flags.allVersions || flags.prune) throw new UsageError('export: --all-versions and --prune are for promptd libraries, not --format');
        const format = flags.format;
        return withCore(cmd, 'read', (core) => runFormatExport(core, dir, format, flags));
      }
      await withCore(cmd, 'read', async (core) => {
        const { exportLibrary } = await import('../../library/export.js');
        const r = await exportLibrary(core, dir, flags);
        for (const name of r.skipped) err(`skipped ${name}: no active version (use --latest or --all-versions)`);
        for (const f of r.pruned) err(`removed ${f}`);
        for (const f of r.notPruned) err(`kept ${f}`);
        for (const b of r.behind) err(`warning: ${b.name}: wrote the served v${b.exported}, but v${b.latest} is newer and not served (activate it, or export with --latest)`);
        out(`exported ${r.prompts} prompt${r.prompts === 1 ? '' : 's'} (${r.versions} version${r.versions === 1 ? '' : 's'}), ${r.resources} resource${r.resources === 1 ? '' : 's'} and ${r.templates} resource template${r.templates === 1 ? '' : 's'} to ${r.dir}`);
      });
    });
}
