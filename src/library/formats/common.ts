// Helpers every converter needs: front matter, line numbers, names, and the final
// validation that turns a candidate into an imported prompt or a per-file problem.
import YAML from 'yaml';
import { parseLibraryYaml } from '../library-yaml.js';
import type { z } from 'zod';
import { formatPath, PromptNameSchema, VersionInputSchema, type ArgumentInput, type ArgumentType, type FieldError, type MessageInput } from '../../core/index.js';
import { defaultProblems } from '../../core/arguments.js';
import { analyzeTemplate } from '../../core/template.js';
import { validateVersion } from '../../core/validate-version.js';
import type { FileProblem } from '../read-library.js';
import type { FormatReadResult, FormatWarning, ImportedPrompt, PromptMeta } from './types.js';

/** A file that cannot be converted; collected as a FileProblem by `readEach`. */
export class ConvertError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  }
}

export const fail = (path: string, message: string): never => {
  throw new ConvertError([{ path, message }]);
};

export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
  /** 1-based line of the body's first line in the file */
  bodyLine: number;
  /** whether the file had a front matter block at all */
  present: boolean;
}

const FENCE = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/** `---\nyaml\n---\nbody`; a file without the block is all body. YAML errors carry the file's line. */
export function splitFrontMatter(text: string, freeText: string[] = []): FrontMatter {
  const src = text.replace(/^\uFEFF/, '');
  const m = FENCE.exec(src);
  if (!m) return { data: {}, body: src, bodyLine: 1, present: false };
  let yaml = m[1] ?? '';
  // Keys whose value is free text even when it looks like YAML (`argument-hint: [pr] [priority]`)
  // are read as plain strings, as the tools that own these files do.
  for (const key of freeText) {
    yaml = yaml.replace(new RegExp(`^(${key}:[ \\t]*)([^'"\\s].*?)[ \\t]*$`, 'm'), (_l, k: string, v: string) => `${k}${JSON.stringify(v)}`);
  }
  const doc = parseLibraryYaml(yaml);
  if (doc.errors.length) {
    throw new ConvertError(doc.errors.map((e) => ({
      path: e.linePos ? `line ${e.linePos[0].line + 1}` : 'front matter',
      message: e.message.split('\n')[0]!.replace(/:\s*$/, ''),
    })));
  }
  const data = doc.toJS() ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) fail('front matter', 'expected a mapping of keys (key: value)');
  return { data: data as Record<string, unknown>, body: src.slice(m[0].length), bodyLine: lineCount(m[0]) + 1, present: true };
}

const lineCount = (s: string) => (s.match(/\n/g) ?? []).length;

/** 1-based line of `index` in `text`, counting from `firstLine`. */
export const lineAt = (text: string, index: number, firstLine = 1) => firstLine + lineCount(text.slice(0, index));

/** YAML for front matter: no folding, so a one-word edit stays a one-line diff. */
export function frontMatter(data: Record<string, unknown>, body: string): string {
  const keys = Object.entries(data).filter(([, v]) => v !== undefined);
  if (!keys.length) return body;
  const yaml = new YAML.Document(Object.fromEntries(keys)).toString({ lineWidth: 0, flowCollectionPadding: false });
  return `---\n${yaml}---\n${body}`;
}

/** `git/commit` → `git-commit`: promptd names allow letters, digits, `_`, `-` and `.`. */
export function toPromptName(raw: string): string {
  return raw.replace(/[\\/]+/g, '-').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/-{2,}/g, '-').replace(/^[-.]+|[-.]+$/g, '');
}

/** `pr-number` → `pr_number`: argument names are identifiers. */
export function toArgumentName(raw: string): string {
  const s = raw.trim().replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+(?=[A-Za-z])/, '');
  return /^[A-Za-z_]/.test(s) ? s : `_${s}`;
}

export const baseName = (path: string) => path.split('/').pop()!;

export const text = (role: 'user' | 'assistant', t: string): MessageInput => ({ role, content: { type: 'text', text: t } });

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : v == null ? undefined : String(v));

/** Variables used by the texts, in order of first use (for formats that do not declare them). */
export function usedVariables(texts: string[]): string[] {
  const out: string[] = [];
  for (const t of texts) for (const v of analyzeTemplate(t).variables) if (!out.includes(v)) out.push(v);
  return out;
}

const zodErrors = (e: z.ZodError): FieldError[] => e.issues.map((i) => ({ path: formatPath(i.path) || '(file)', message: i.message }));

/**
 * Validates a candidate exactly like an API save (schema, then templates: every
 * `{{var}}` declared, no syntax errors) and returns the imported prompt; failures
 * become a ConvertError naming the field. Whether a literal resource URI is stored
 * needs the database, so that check is left to the import planner.
 */
export function finish(file: string, name: string, candidate: Record<string, unknown>, meta: PromptMeta): ImportedPrompt {
  const errors: FieldError[] = [];
  const n = PromptNameSchema.safeParse(name);
  if (!n.success) errors.push(...zodErrors(n.error).map((e) => ({ ...e, path: 'name' })));
  const input = VersionInputSchema.safeParse(candidate);
  if (!input.success) throw new ConvertError([...errors, ...zodErrors(input.error)]);
  // Stored resources are the planner's check (it sees the database); here only templates and arguments.
  errors.push(...validateVersion(input.data, new Map()).filter((e) => !e.message.startsWith('no stored resource')));
  if (errors.length) throw new ConvertError(errors);
  return { file, name, history: false, versions: [{ input: input.data }], meta };
}

/** Runs `convert` per file; a ConvertError becomes that file's problem and the others go on. */
export function readEach(
  files: { path: string; text: string }[],
  convert: (
    file: { path: string; text: string },
    warn: (line: number | undefined, message: string) => void,
    /** a part of the file that failed while the rest converts (Langfuse lists) */
    problem: (errors: FieldError[]) => void,
  ) => ImportedPrompt[],
): FormatReadResult {
  const out: FormatReadResult = { prompts: [], warnings: [], problems: [] };
  for (const f of files) {
    const warnings: FormatWarning[] = [];
    try {
      out.prompts.push(...convert(
        f,
        (line, message) => void warnings.push({ file: f.path, ...(line !== undefined ? { line } : {}), message }),
        (errors) => void out.problems.push({ file: f.path, errors }),
      ));
      // In file order, so a reader can walk the file top to bottom; file-wide notes first.
      out.warnings.push(...warnings.map((w, i) => [w, i] as const).sort(([a, i], [b, j]) => (a.line ?? 0) - (b.line ?? 0) || i - j).map(([w]) => w));
    } catch (e) {
      // Anything a converter did not foresee is still this file's problem, never the whole run's.
      const problem: FileProblem = { file: f.path, errors: e instanceof ConvertError ? e.errors : [{ path: '(file)', message: `cannot convert: ${(e as Error).message}` }] };
      out.problems.push(problem);
    }
  }
  return out;
}

/** Message index → original role, or undefined when every role was kept. */
export function roleMap(roles: string[]): Record<number, string> | undefined {
  const out: Record<number, string> = {};
  roles.forEach((r, i) => {
    if (r !== 'user' && r !== 'assistant') out[i] = r;
  });
  return Object.keys(out).length ? out : undefined;
}

/** Roles MCP does not have become `user`; the original is recorded in meta.roles and warned about once per file. */
export function mcpRole(role: string, warn: (m: string) => void): 'user' | 'assistant' {
  const r = role.toLowerCase();
  if (r === 'assistant' || r === 'model') return 'assistant';
  if (r !== 'user') warn(`"${role}" message imported as a user message (MCP prompts have only user and assistant); an export in this format restores the role`);
  return 'user';
}

/** Keeps only defined keys, so written files do not show `key: null`. */
export function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}

/** Warnings for what a target format cannot carry; `has` lists what it can. */
export function lossWarnings(
  file: string,
  p: { input: { title?: string | null; arguments: { name: string; title?: string | null; choices?: string[] | null; maxLength?: number | null; description?: string | null; type?: string; default?: unknown }[] } },
  has: { title?: boolean; argumentTitle?: boolean; choices?: boolean; maxLength?: boolean; argumentDescription?: boolean; type?: boolean; default?: boolean },
): FormatWarning[] {
  const w: FormatWarning[] = [];
  if (p.input.title && !has.title) w.push({ file, message: `title "${p.input.title}" has no place in this format and is left out` });
  for (const a of p.input.arguments) {
    if (a.title && !has.argumentTitle) w.push({ file, message: `argument ${a.name}: title left out` });
    if (a.description && !has.argumentDescription) w.push({ file, message: `argument ${a.name}: description left out` });
    if (a.choices && !has.choices) w.push({ file, message: `argument ${a.name}: choices left out` });
    if (a.maxLength && !has.maxLength) w.push({ file, message: `argument ${a.name}: maxLength left out` });
    if (a.type && a.type !== 'string' && !has.type) w.push({ file, message: `argument ${a.name}: type ${a.type} left out (this format has no argument types; a re-import makes it a string)` });
    if (a.default != null && !has.default) w.push({ file, message: `argument ${a.name}: default ${JSON.stringify(a.default)} left out (this format has no defaults)` });
  }
  return w;
}

/** A format's input type as a promptd argument type; undefined for what promptd passes as text (array, object, any…). */
export function argumentTypeOf(type: string | undefined): ArgumentType | undefined {
  return type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' ? type : undefined;
}

/**
 * A format's defaults (`input.default`, Prompty `default`) onto the arguments they
 * fit (of the argument's type, one of its choices). An argument with a default is
 * optional in promptd (the default fills it in, as in Dotprompt and Prompty). Returns
 * the defaults that fit no argument, which the caller keeps in metadata.
 */
export function applyDefaults(args: ArgumentInput[], defaults: Record<string, unknown> | undefined, warn?: (message: string) => void): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaults ?? {})) {
    const a = args.find((x) => x.name === toArgumentName(key));
    const fits = a && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && !defaultProblems({ ...a, required: false, default: value }).length;
    if (!a || !fits) {
      rest[key] = value;
      warn?.(`default of ${key} (${JSON.stringify(value)}) ${a ? `does not fit the argument (${a.type ?? 'string'}${a.choices ? ', choices' : ''})` : 'names no input'}; kept in metadata, not filled in`);
      continue;
    }
    a.default = value as string | number | boolean;
    if (a.required) a.required = false;
  }
  return rest;
}
