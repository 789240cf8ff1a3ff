// Reads a library directory (or one prompt file) into validated API inputs. Every
// problem is collected per file with the failing field, so one bad file never hides
// the others; checks that need the database (stored resources) happen in the planner.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { z } from 'zod';
import {
  formatPath, PromptNameSchema, ResourceInputSchema, ResourceTemplateInputSchema, VersionInputSchema,
  type FieldError, type ResourceInput, type ResourceTemplateInput, type VersionInput,
} from '../core/index.js';
import {
  HistoryFileSchema, isTextMime, ManifestResourceSchema, ManifestSchema, ManifestTemplateSchema, PromptFileSchema,
  toVersionInput, type InlineMediaFile,
} from './format.js';

export interface ParsedPrompt {
  /** path shown in reports, relative to the library root: `prompts/x.yaml` */
  file: string;
  name: string;
  history: boolean;
  /** `number` is the version number written in a history file */
  versions: { number?: number; input: VersionInput }[];
  /** history files: the version number the file says is served */
  active?: number;
}

export interface FileProblem {
  file: string;
  errors: FieldError[];
}

export interface ParsedLibrary {
  root: string;
  prompts: ParsedPrompt[];
  resources: { at: string; input: ResourceInput }[];
  templates: { at: string; input: ResourceTemplateInput }[];
  problems: FileProblem[];
}

export const MANIFEST = 'resources.yaml';
const PROMPT_EXT = /\.(ya?ml|json)$/i;

class FileError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  }
}

const zodErrors = (e: z.ZodError, prefix = ''): FieldError[] =>
  e.issues.map((i) => ({ path: prefix + (formatPath(i.path) || '(file)'), message: i.message }));

function parseYaml(text: string): unknown {
  const doc = YAML.parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length) {
    throw new FileError(doc.errors.map((e) => ({ path: e.linePos ? `line ${e.linePos[0].line}` : '(file)', message: e.message.split('\n')[0]!.replace(/:\s*$/, '') })));
  }
  return doc.toJS();
}

/** A path from a library file, refused if it leaves the library root. */
function inside(root: string, rel: string, field: string): string {
  const abs = path.resolve(root, rel);
  const back = path.relative(root, abs);
  if (back.startsWith('..') || path.isAbsolute(back)) throw new FileError([{ path: field, message: `"${rel}" is outside the library directory` }]);
  return abs;
}

function readBytes(root: string, rel: string, field: string): Buffer {
  const abs = inside(root, rel, field);
  try {
    return readFileSync(abs);
  } catch (e) {
    throw new FileError([{ path: field, message: `cannot read ${rel}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` }]);
  }
}

function parsePromptFile(root: string, abs: string, shown: string): ParsedPrompt {
  const raw = parseYaml(readFileSync(abs, 'utf8'));
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new FileError([{ path: '(file)', message: 'expected a mapping with name and messages' }]);
  const history = 'versions' in raw;
  const parsed = history ? HistoryFileSchema.safeParse(raw) : PromptFileSchema.safeParse(raw);
  if (!parsed.success) throw new FileError(zodErrors(parsed.error));
  const name = parsed.data.name;
  const errors: FieldError[] = [];
  const nameCheck = PromptNameSchema.safeParse(name);
  if (!nameCheck.success) errors.push(...zodErrors(nameCheck.error, 'name'));
  const base = path.basename(abs).replace(PROMPT_EXT, '');
  if (base !== name) errors.push({ path: 'name', message: `"${name}" does not match the file name (${path.basename(abs)}); name the file ${name}.yaml` });

  const fileVersions = 'versions' in parsed.data ? parsed.data.versions : [{ ...parsed.data, version: undefined }];
  const versions: ParsedPrompt['versions'] = [];
  fileVersions.forEach((fv, i) => {
    const prefix = history ? `versions[${i}].` : '';
    const media = (m: InlineMediaFile) => readBytes(root, m.file, `${prefix}messages`).toString('base64');
    let candidate: Record<string, unknown>;
    try {
      candidate = toVersionInput(fv, media);
    } catch (e) {
      if (e instanceof FileError) return void errors.push(...e.errors);
      throw e;
    }
    const input = VersionInputSchema.safeParse(candidate);
    if (!input.success) errors.push(...zodErrors(input.error, prefix));
    else versions.push({ number: fv.version, input: input.data });
  });
  if (errors.length) throw new FileError(errors);
  const active = 'versions' in parsed.data ? (parsed.data.active ?? undefined) : undefined;
  return { file: shown, name, history, versions, ...(active !== undefined ? { active } : {}) };
}

function readManifest(root: string, lib: ParsedLibrary): void {
  const abs = path.join(root, MANIFEST);
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(abs, 'utf8')) ?? {};
  } catch (e) {
    if (e instanceof FileError) return void lib.problems.push({ file: MANIFEST, errors: e.errors });
    throw e;
  }
  const top = ManifestSchema.safeParse(raw);
  if (!top.success) return void lib.problems.push({ file: MANIFEST, errors: zodErrors(top.error) });
  // Each entry stands alone: a bad resource is reported and skipped, the others still apply.
  (top.data.resources ?? []).forEach((entry, i) => {
    const at = `resources[${i}]`;
    try {
      const m = ManifestResourceSchema.safeParse(entry);
      if (!m.success) throw new FileError(zodErrors(m.error, `${at}.`));
      const { file, text, binary, ...meta } = m.data;
      let content: { text: string } | { blob: string };
      if (text !== undefined) content = { text };
      else {
        const bytes = readBytes(root, file!, `${at}.file`);
        content = !(binary ?? !isTextMime(meta.mimeType)) ? { text: bytes.toString('utf8') } : { blob: bytes.toString('base64') };
      }
      const input = ResourceInputSchema.safeParse({ ...meta, ...content });
      if (!input.success) throw new FileError(zodErrors(input.error, `${at}.`));
      lib.resources.push({ at, input: input.data });
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      lib.problems.push({ file: MANIFEST, errors: e.errors });
    }
  });
  (top.data.resourceTemplates ?? []).forEach((entry, i) => {
    const at = `resourceTemplates[${i}]`;
    const m = ManifestTemplateSchema.safeParse(entry);
    const input = m.success ? ResourceTemplateInputSchema.safeParse(m.data) : m;
    if (!input.success) lib.problems.push({ file: MANIFEST, errors: zodErrors(input.error, `${at}.`) });
    else lib.templates.push({ at, input: input.data as ResourceTemplateInput });
  });
}

/**
 * `target` is a library directory (`prompts/` and/or `resources.yaml`) or a single
 * prompt file; for a file, media paths resolve against its library root (the parent
 * of `prompts/`) and no manifest is read.
 */
export function readLibrary(target: string): ParsedLibrary {
  const abs = path.resolve(target);
  if (!existsSync(abs)) throw new Error(`${target}: no such file or directory`);
  const isFile = statSync(abs).isFile();
  const root = isFile ? (path.basename(path.dirname(abs)) === 'prompts' ? path.dirname(path.dirname(abs)) : path.dirname(abs)) : abs;
  const lib: ParsedLibrary = { root, prompts: [], resources: [], templates: [], problems: [] };

  let files: string[];
  if (isFile) files = [abs];
  else {
    const dir = path.join(root, 'prompts');
    const hasManifest = existsSync(path.join(root, MANIFEST));
    if (!existsSync(dir) && !hasManifest) throw new Error(`${target}: not a prompt library (no prompts/ directory and no ${MANIFEST})`);
    if (hasManifest) readManifest(root, lib);
    // Sorted so plans, reports and version numbering do not depend on directory order.
    files = existsSync(dir) ? readdirSync(dir).filter((f) => PROMPT_EXT.test(f)).sort().map((f) => path.join(dir, f)) : [];
  }

  const seen = new Map<string, string>();
  for (const f of files) {
    const shown = path.relative(root, f).split(path.sep).join('/');
    try {
      const p = parsePromptFile(root, f, shown);
      const dup = seen.get(p.name);
      if (dup) throw new FileError([{ path: 'name', message: `prompt "${p.name}" is also defined in ${dup}` }]);
      seen.set(p.name, shown);
      lib.prompts.push(p);
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      lib.problems.push({ file: shown, errors: e.errors });
    }
  }
  return lib;
}
