// `promptd export <dir> --format …`: every prompt's active (or latest) version in
// another tool's files, through the format converters and the safe writer (nothing
// written through a symlink; every folder checked before the first write). What the
// target format cannot hold comes back as warnings, per file.
import path from 'node:path';
import type { Core, Version } from '../core/index.js';
import { formatMetaFor } from './format-meta.js';
import { writeFormat, type ExportPrompt, type FormatId, type FormatWarning, type PromptMeta } from './formats/index.js';
import { createExportWriter } from './safe-write.js';

export interface FormatExportOptions {
  /** the latest version instead of the active one */
  latest?: boolean;
}

export interface FormatExportReport {
  dir: string;
  format: FormatId;
  prompts: number;
  files: string[];
  /** prompts with no active version (use --latest) */
  skipped: string[];
  warnings: FormatWarning[];
}

export const versionToExport = (name: string, v: Version, meta?: Partial<PromptMeta>): ExportPrompt => ({
  name,
  input: { title: v.title, description: v.description, note: v.note, arguments: v.arguments, messages: v.messages, ...(v.tests.length ? { tests: v.tests } : {}) },
  ...(meta ? { meta } : {}),
});

async function promptNames(core: Core): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await core.prompts.list({ archived: false, limit: 200, cursor });
    names.push(...page.items.map((p) => p.name));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return names.sort();
}

export async function exportFormat(core: Core, dir: string, format: FormatId, opts: FormatExportOptions = {}): Promise<FormatExportReport> {
  const root = path.resolve(dir);
  const names = await promptNames(core);
  const states = await core.bulk.load(names);
  const prompts: ExportPrompt[] = [];
  const skipped: string[] = [];
  for (const name of names) {
    const s = states.get(name);
    const v = opts.latest ? s?.latest : s?.active;
    // What the import kept that versions have no field for (roles, names, labels, model) goes back.
    if (v) prompts.push(versionToExport(name, v, format === 'promptd' ? undefined : await formatMetaFor(core, name, v, format)));
    else if (s) skipped.push(name);
  }
  const { files, warnings } = writeFormat(format, prompts);
  // Only promptd's own files carry test cases (docs/formats.md); say what the others drop.
  if (format !== 'promptd') {
    for (const p of prompts) if (p.input.tests?.length) warnings.push({ file: p.name, message: `${p.input.tests.length} test case(s) not exported: the ${format} format has no place for them` });
  }
  const writer = createExportWriter(root);
  writer.check(files.map((f) => f.path));
  for (const f of files) writer.write(f.path, f.text);
  return { dir: root, format, prompts: prompts.length, files: files.map((f) => f.path), skipped, warnings };
}
