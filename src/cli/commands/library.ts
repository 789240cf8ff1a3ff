// `promptd seed | import | export`: prompt libraries as files (docs/library-format.md).
import { existsSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { withCore } from '../context.js';
import { bold, red, UsageError } from '../output.js';
import { importLibrary, type ImportReport } from '../../library/apply.js';
import { exportLibrary } from '../../library/export.js';
import { seedDir, seedLibrary } from '../../library/seed.js';
import type { PromptPlanItem, ResourcePlanItem } from '../../library/plan.js';

interface ImportFlags {
  activate?: boolean;
  dryRun?: boolean;
  json?: boolean;
  quiet?: boolean;
}

const out = (s: string) => process.stdout.write(`${s}\n`);
const err = (s: string) => process.stderr.write(`${s}\n`);

/** `\r`-redrawn bar on stderr; only on a terminal, so logs and pipes stay clean. */
function progressBar(enabled: boolean) {
  if (!enabled) return { update: undefined, done: () => {} };
  let drawn = false;
  return {
    update(done: number, total: number) {
      const width = 30;
      const filled = Math.round((done / Math.max(1, total)) * width);
      process.stderr.write(`\rimporting [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
      drawn = true;
    },
    done() {
      if (drawn) process.stderr.write('\r\x1b[K');
    },
  };
}

function promptLine(p: PromptPlanItem, dry: boolean): string | undefined {
  const act = p.activate !== undefined ? `, ${dry ? 'activate' : 'activated'} v${p.activate}` : '';
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

function printReport(report: ImportReport, flags: ImportFlags): void {
  if (flags.json) {
    const strip = report.prompts.map(({ write: _w, ...rest }) => rest);
    const res = report.resources.map(({ input: _i, ...rest }) => rest);
    out(JSON.stringify({ dryRun: report.dryRun, counts: report.counts, failed: report.failed, resources: res, prompts: strip }, null, 2));
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
  if (report.failed) process.exitCode = 1;
}

export function registerLibrary(program: Command): void {
  program
    .command('seed')
    .description('load the seed library (seed/) and serve its prompts; running it again changes nothing')
    .option('--dry-run', 'print what would change without writing')
    .option('--json', 'machine-readable report')
    .option('-q, --quiet', 'print only errors and the summary')
    .addHelpText('after', `\nThe seed library lives in ${seedDir}. A seed prompt you edited since gets the seed's\ncontent as a new version (your versions stay in its history).\n\nExamples:\n  $ promptd seed\n  $ promptd seed --dry-run`)
    .action(async (flags: ImportFlags, cmd: Command) => {
      await withCore(cmd, async (core) => {
        const bar = progressBar(process.stderr.isTTY && !flags.json);
        try {
          printReport(await seedLibrary(core, { dryRun: flags.dryRun, onProgress: bar.update }), flags);
        } finally {
          bar.done();
        }
      });
    });

  program
    .command('import <path>')
    .description('import a prompt library directory (prompts/*.yaml + resources.yaml) or one prompt file')
    .option('--activate', 'serve the imported version (or the unchanged latest one) of every prompt')
    .option('--dry-run', 'print the plan (created / new version / unchanged / errors) without writing')
    .option('--json', 'machine-readable report')
    .option('-q, --quiet', 'print only errors and the summary')
    .addHelpText('after', `
A prompt gets a new version only when its content (title, description, icons,
arguments, messages) differs from its latest version, so importing twice changes
nothing. Each prompt file is written atomically; an invalid file is reported with
its field and skipped, the rest still applies, and the exit code is 1.

Examples:
  $ promptd import ./library --dry-run
  $ promptd import ./library --activate
  $ promptd import ./library/prompts/code-review.yaml`)
    .action(async (target: string, flags: ImportFlags, cmd: Command) => {
      if (!existsSync(target)) throw new UsageError(`import: ${target}: no such file or directory`);
      await withCore(cmd, async (core) => {
        const bar = progressBar(process.stderr.isTTY && !flags.json && !flags.dryRun);
        let report: ImportReport;
        try {
          report = await importLibrary(core, target, { activate: flags.activate, dryRun: flags.dryRun, onProgress: bar.update });
        } finally {
          bar.done();
        }
        printReport(report, flags);
      });
    });

  program
    .command('export <dir>')
    .description('write every prompt (active version by default) and the resources it needs as a library directory')
    .addOption(new Option('--latest', 'export the latest version instead of the active one').conflicts('allVersions'))
    .option('--all-versions', 'export every version and which one is active (history files)')
    .option('--prune', 'delete files under prompts/, resources/ and media/ in <dir> that this export did not write')
    .addHelpText('after', `
Output is deterministic (sorted, fixed key order), so a library kept in git diffs
cleanly. Archived prompts are not exported; without --latest or --all-versions,
neither are prompts with no active version.

Examples:
  $ promptd export ./library
  $ promptd export ./backup --all-versions
  $ promptd export ./library --prune && git -C ./library diff`)
    .action(async (dir: string, flags: { latest?: boolean; allVersions?: boolean; prune?: boolean }, cmd: Command) => {
      await withCore(cmd, async (core) => {
        const r = await exportLibrary(core, dir, flags);
        for (const name of r.skipped) err(`skipped ${name}: no active version (use --latest or --all-versions)`);
        for (const f of r.pruned) err(`removed ${f}`);
        out(`exported ${r.prompts} prompt${r.prompts === 1 ? '' : 's'} (${r.versions} version${r.versions === 1 ? '' : 's'}), ${r.resources} resource${r.resources === 1 ? '' : 's'} and ${r.templates} resource template${r.templates === 1 ? '' : 's'} to ${r.dir}`);
      });
    });
}
