// `promptd import <path> --format …`: prompts kept in other tools' files (Claude
// commands, VS Code prompt files, Dotprompt, Prompty, Langfuse; docs/formats.md)
// through the same planner and applier as a promptd library. Files are gathered by
// `collectFormatFiles` (through the safe reader: no symlinks, regular files only, size
// caps) or handed in directly (the admin API), converted by `readFormats`, and
// planned against the database, so importing unchanged files changes nothing.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Core } from '../core/index.js';
import { applyPlan, countPlan, type ImportOptions, type ImportReport } from './apply.js';
import { FORMATS, type FormatId, type FormatWarning, type SourceFile } from './formats/index.js';
import { recordFormatMeta } from './format-meta.js';
import { readFormatsOffThread } from './format-read-off-thread.js';
import { planImport } from './plan.js';
import type { FileProblem, ParsedLibrary } from './read-library.js';
import { createLibraryReader, FileError, type ReadLimits } from './safe-read.js';

/** Extensions any converter reads; other files are never opened under `auto`. */
const CANDIDATE = /\.(md|prompt|prompty|json|ya?ml)$/i;
/** Folders that are never prompt sources (a git checkout's internals, dependencies). */
const IGNORED_DIRS = new Set(['.git', 'node_modules']);

export interface CollectedFiles {
  root: string;
  files: SourceFile[];
  /** files that could not be read (symlink, too large, …), each with the reason */
  problems: FileProblem[];
  /** what was left alone on the way and why (symlinks are never followed) */
  warnings: FormatWarning[];
}

const wanted = (rel: string, format: FormatId | 'auto') => (format === 'auto' ? CANDIDATE.test(rel) : FORMATS[format].accepts(rel));

/**
 * Every file under `target` (a directory, or one file) a converter could read, with
 * paths relative to the root and `/`-separated. Symbolic links are not followed (a
 * directory link is a warning, a file link is that file's problem when it looks like
 * a prompt); `.git` and `node_modules` are not entered.
 */
export function collectFormatFiles(target: string, format: FormatId | 'auto', limits: ReadLimits = {}): CollectedFiles {
  const abs = path.resolve(target);
  const isFile = statSync(abs).isFile();
  const root = isFile ? path.dirname(abs) : abs;
  const reader = createLibraryReader(root, limits);
  const out: CollectedFiles = { root, files: [], problems: [], warnings: [] };
  const rels: string[] = [];
  const walk = (rel: string) => {
    const entries = readdirSync(rel ? path.join(root, rel) : root, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!IGNORED_DIRS.has(e.name)) walk(r);
      } else if (e.isSymbolicLink()) {
        if (wanted(r, format)) rels.push(r); // the reader refuses it, as this file's problem
        else out.warnings.push({ file: r, message: 'symbolic link; not followed' });
      } else if (wanted(r, format)) rels.push(r);
    }
  };
  if (isFile) rels.push(path.basename(abs));
  else walk('');
  for (const rel of rels) {
    try {
      out.files.push({ path: rel, text: reader.read(rel, '(file)').toString('utf8') });
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      out.problems.push({ file: rel, errors: e.errors });
    }
  }
  return out;
}

export interface FormatImportOptions extends ImportOptions {
  /**
   * Write the files that are fine and report the others (one transaction per file).
   * Without it the import is all or nothing: one problem anywhere writes nothing,
   * and the writes share one transaction.
   */
  continueOnError?: boolean;
}

export interface FormatImportReport extends ImportReport {
  format: FormatId | 'auto';
  /** what the converters could not represent exactly, per file and line */
  warnings: FormatWarning[];
  /** files no converter claimed */
  skipped: string[];
  /** false when nothing was written because of errors (all-or-nothing mode) or dryRun */
  applied: boolean;
}

/** Converted files as a ParsedLibrary the planner takes (no manifest: these formats have none); converted off the thread (format-read-off-thread.ts). */
export async function toParsedLibrary(root: string, files: SourceFile[], format: FormatId | 'auto', readProblems: FileProblem[] = []) {
  const r = await readFormatsOffThread(files, format);
  const lib: ParsedLibrary = { root, prompts: r.prompts, resources: [], templates: [], problems: [...readProblems, ...r.problems] };
  return { lib, warnings: r.warnings, skipped: r.skipped };
}

/** Plans and (unless dryRun) applies already-gathered files; shared by the CLI and the admin API. */
export async function importFormatFiles(
  core: Core,
  input: { root: string; files: SourceFile[]; problems?: FileProblem[]; warnings?: FormatWarning[] },
  format: FormatId | 'auto',
  opts: FormatImportOptions = {},
): Promise<FormatImportReport> {
  const { lib, warnings, skipped } = await toParsedLibrary(input.root, input.files, format, input.problems);
  const plan = await planImport(core, lib, opts);
  const extra = { format, warnings: [...(input.warnings ?? []), ...warnings], skipped };
  const counts = countPlan(plan);
  if (opts.dryRun || (counts.errors > 0 && !opts.continueOnError)) {
    return { ...plan, ...extra, dryRun: Boolean(opts.dryRun), counts, failed: counts.errors > 0, applied: false };
  }
  const report = await applyPlan(core, plan, { ...opts, ...(opts.continueOnError ? {} : { atomic: true }) });
  await recordFormatMeta(core, lib.prompts, report.prompts);
  return { ...report, ...extra, applied: true };
}

/** `promptd import <path> --format …`: reads `target` and imports it. */
export async function importFormat(core: Core, target: string, format: FormatId | 'auto', opts: FormatImportOptions = {}): Promise<FormatImportReport> {
  const collected = collectFormatFiles(target, format, { maxFileBytes: opts.maxFileBytes, maxTotalBytes: opts.maxTotalBytes });
  return importFormatFiles(core, collected, format, opts);
}
