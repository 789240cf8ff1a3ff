// The format registry: `readFormats` converts a set of files (one format, or `auto`
// per file) into validated prompts, warnings and per-file problems; `writeFormat`
// turns prompts back into files of one format. See docs/formats.md.
import { claudeCommands } from './claude-commands.js';
import { detectFormat } from './detect.js';
import { dotprompt } from './dotprompt.js';
import { langfuse } from './langfuse.js';
import { promptMd } from './prompt-md.js';
import { promptdFormat } from './promptd.js';
import { prompty } from './prompty.js';
import { FORMAT_IDS, type ExportPrompt, type FormatId, type FormatReadResult, type FormatWarning, type PromptFormat, type SourceFile } from './types.js';

export * from './types.js';
export { detectFormat } from './detect.js';

export const FORMATS: Record<FormatId, PromptFormat> = {
  promptd: promptdFormat,
  'claude-commands': claudeCommands,
  'prompt-md': promptMd,
  dotprompt,
  prompty,
  langfuse,
};

export interface ReadFormatsResult extends FormatReadResult {
  /** files no format claimed (auto) or the given format does not read */
  skipped: string[];
}

/**
 * Reads files in one format or, with `auto`, each in the format `detectFormat` picks.
 * Two files that yield the same prompt name are a problem of the later one (files are
 * taken in path order, so the result does not depend on directory order).
 */
export function readFormats(files: SourceFile[], format: FormatId | 'auto'): ReadFormatsResult {
  const { groups, skipped } = groupFormats(files, format);
  return finishFormats([...groups].map(([id, g]) => FORMATS[id].read(g)), skipped);
}

/** Which format reads each file (in path order, grouped in FORMAT_IDS order), and the files none reads. */
export function groupFormats(files: SourceFile[], format: FormatId | 'auto'): { groups: Map<FormatId, SourceFile[]>; skipped: string[] } {
  const byId = new Map<FormatId, SourceFile[]>();
  const skipped: string[] = [];
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const id = format === 'auto' ? detectFormat(f) : FORMATS[format].accepts(f.path) ? format : undefined;
    if (!id) skipped.push(f.path);
    else byId.set(id, [...(byId.get(id) ?? []), f]);
  }
  const groups = new Map<FormatId, SourceFile[]>();
  for (const id of FORMAT_IDS) if (byId.has(id)) groups.set(id, byId.get(id)!);
  return { groups, skipped };
}

/** The converters' results (in group order) as one: prompts in path order, a name defined twice a problem of the later file. */
export function finishFormats(results: FormatReadResult[], skipped: string[]): ReadFormatsResult {
  const out: ReadFormatsResult = { prompts: [], warnings: [], problems: [], skipped };
  for (const r of results) {
    out.prompts.push(...r.prompts);
    out.warnings.push(...r.warnings);
    out.problems.push(...r.problems);
  }
  out.prompts.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const seen = new Map<string, string>();
  out.prompts = out.prompts.filter((p) => {
    const first = seen.get(p.name);
    if (first === undefined) {
      seen.set(p.name, p.file);
      return true;
    }
    out.problems.push({ file: p.file, errors: [{ path: 'name', message: `prompt "${p.name}" is also defined in ${first}` }] });
    return false;
  });
  return out;
}

/** Writes prompts in one format; two prompts landing on one path is reported, the first wins. */
export function writeFormat(format: FormatId, prompts: ExportPrompt[]): { files: SourceFile[]; warnings: FormatWarning[] } {
  const files: SourceFile[] = [];
  const warnings: FormatWarning[] = [];
  const taken = new Map<string, string>();
  for (const p of prompts) {
    const r = FORMATS[format].write(p);
    warnings.push(...r.warnings);
    for (const f of r.files) {
      const key = f.path.toLowerCase();
      const owner = taken.get(key);
      if (owner !== undefined) {
        warnings.push({ file: f.path, message: `${p.name} would overwrite ${owner} (same file name); not written` });
        continue;
      }
      taken.set(key, p.name);
      files.push(f);
    }
  }
  return { files, warnings };
}
