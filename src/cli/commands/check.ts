// `promptd check [dir]`: a prompt library's checks before import, for CI. Exit 0 when
// every file reads and every version's lint and test cases pass, 1 otherwise, 2 for
// usage errors (no such directory, bad option). No database is opened.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { checkLibrary, type LibraryCheckReport } from '../../library/check-library.js';
import { LabelNameSchema } from '../../core/schemas.js';
import { isDomainError } from '../../core/errors.js';
import { bold, red, UsageError } from '../output.js';

const useColour = () => process.stdout.isTTY && !process.env.NO_COLOR;
const green = (s: string) => (useColour() ? `\x1b[32m${s}\x1b[0m` : s);
const redOut = (s: string) => (useColour() ? `\x1b[31m${s}\x1b[0m` : s);

/** The readable report: one line per file problem, version and test case; failures say why. */
export function formatCheckReport(r: LibraryCheckReport): string {
  const lines: string[] = [];
  for (const p of r.problems) {
    lines.push(`${redOut('✗')} ${p.file}: cannot be read`);
    for (const e of p.errors) lines.push(`    ${e.path}: ${e.message}`);
  }
  for (const v of r.versions) {
    lines.push(`${v.passed ? green('✓') : redOut('✗')} ${bold(`${v.prompt} v${v.version}`)} (${v.file})${v.tests.length ? '' : ' — no test cases'}`);
    for (const e of v.lint.errors) lines.push(`    ${redOut('lint')} ${e.path}: ${e.message}`);
    for (const w of v.lint.warnings) lines.push(`    warning ${w.path}: ${w.message}`);
    for (const t of v.tests) {
      lines.push(`    ${t.passed ? green('✓') : redOut('✗')} ${t.name}`);
      if (t.error) lines.push(`        does not render: ${t.error.message}`);
      for (const x of t.expectations) if (!x.passed && !t.error) lines.push(`        ${x.message}`);
    }
  }
  const c = r.counts;
  lines.push('');
  lines.push(`${r.passed ? green('passed') : redOut('failed')}: ${c.versions} version(s), ${c.tests - c.failedTests}/${c.tests} test case(s) passed${r.problems.length ? `, ${r.problems.length} file(s) unreadable` : ''}`);
  return lines.join('\n');
}

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description('run the lint and test cases of a prompt library\'s files, without a database (exit 1 when a check fails)')
    .argument('[dir]', 'a library directory (prompts/, resources.yaml) or one prompt file', '.')
    .option('--label <label>', 'the label includes resolve under', 'production')
    .option('--json', 'print the report as JSON')
    .action(async (dir: string, opts: { label: string; json?: boolean }) => {
      if (!existsSync(dir)) throw new UsageError(`check: ${path.resolve(dir)}: no such file or directory`);
      if (!LabelNameSchema.safeParse(opts.label).success) throw new UsageError(`--label ${opts.label}: not a label name`);
      let report: LibraryCheckReport;
      try {
        report = await checkLibrary(dir, { label: opts.label });
      } catch (e) {
        // readLibrary's "not a prompt library": the argument was wrong, not a check.
        if (e instanceof Error && /not a prompt library|no such file/.test(e.message)) throw new UsageError(e.message);
        // A --label the files never name (src/core/known-labels.ts): a usage error naming the known ones.
        if (isDomainError(e) && e.code === 'not_found') throw new UsageError(`--label ${opts.label}: ${e.message}`);
        throw e;
      }
      process.stdout.write(`${opts.json ? JSON.stringify(report, null, 2) : formatCheckReport(report)}\n`);
      if (!report.passed) {
        if (!opts.json) process.stderr.write(`${red('promptd: check failed')}\n`);
        process.exitCode = 1;
      }
    });
}
