// `import --format` and `export --format` (docs/formats.md): the flag parser and the
// actions, kept apart from library.ts so the promptd-library commands stay as they are.
// The converters (and `yaml`, which writes their files) load only when a --format action
// runs: a plain `promptd import` starts ~40 ms sooner without them.
import { InvalidArgumentError, Option } from 'commander';
import type { Core } from '../../core/index.js';
import type { FormatImportOptions, FormatImportReport } from '../../library/format-import.js';
import { FORMAT_IDS, isFormatId, type FormatId, type FormatWarning } from '../../library/formats/types.js';
import { red } from '../output.js';

const out = (s: string) => process.stdout.write(`${s}\n`);
const err = (s: string) => process.stderr.write(`${s}\n`);
const yellow = (s: string) => (process.stderr.isTTY && !process.env.NO_COLOR ? `\x1b[33m${s}\x1b[0m` : s);

export function formatOption(auto: boolean): Option {
  const ids = auto ? ['auto', ...FORMAT_IDS] : [...FORMAT_IDS];
  return new Option('--format <format>', auto ? 'read files of this format (auto: by extension, location and front matter)' : 'write files of this format instead of a promptd library')
    .argParser((v: string) => {
      if (v !== 'auto' || !auto) if (!isFormatId(v)) throw new InvalidArgumentError(`expected one of ${ids.join(', ')}`);
      return v;
    });
}

export const warningLine = (w: FormatWarning) => `${yellow('warning')} ${w.file}${w.line !== undefined ? `:${w.line}` : ''}: ${w.message}`;

export async function runFormatImport(
  core: Core,
  target: string,
  format: FormatId | 'auto',
  opts: FormatImportOptions & { json?: boolean; quiet?: boolean },
  printReport: (r: FormatImportReport) => void,
): Promise<void> {
  const { importFormat } = await import('../../library/format-import.js');
  const report = await importFormat(core, target, format, opts);
  if (opts.json) {
    const prompts = report.prompts.map(({ write: _w, ...rest }) => rest);
    out(JSON.stringify({ format, dryRun: report.dryRun, applied: report.applied, counts: report.counts, failed: report.failed, prompts, warnings: report.warnings, skipped: report.skipped }, null, 2));
    if (report.failed) process.exitCode = 1;
    return;
  }
  // Refused as a whole: show what would have happened, as a plan (nothing was written).
  printReport(report.applied ? report : { ...report, dryRun: true });
  for (const w of report.warnings) err(warningLine(w));
  if (!opts.quiet) for (const s of report.skipped) err(`skipped ${s}: not a prompt file of ${format === 'auto' ? 'any known format' : `format ${format}`}`);
  if (!report.applied && !report.dryRun && report.failed) {
    err(`${red('nothing imported')}: the import is all or nothing and there ${report.counts.errors === 1 ? "is 1 error" : `are ${report.counts.errors} errors`} (fix, or use --continue-on-error to import the others)`);
  }
}

export async function runFormatExport(core: Core, dir: string, format: FormatId, flags: { latest?: boolean }): Promise<void> {
  const { exportFormat } = await import('../../library/format-export.js');
  const r = await exportFormat(core, dir, format, flags);
  for (const name of r.skipped) err(`skipped ${name}: no active version (use --latest)`);
  for (const w of r.warnings) err(warningLine(w));
  out(`exported ${r.prompts} prompt${r.prompts === 1 ? '' : 's'} as ${format} (${r.files.length} file${r.files.length === 1 ? '' : 's'}) to ${r.dir}`);
}
