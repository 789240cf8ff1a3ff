// Reads a library directory (or one prompt file) into validated API inputs. Every
// problem is collected per file with the failing field, so one bad file never hides
// the others; checks that need the database (stored resources) happen in the planner.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseLibraryYaml } from './library-yaml.js';
import { yamlFileErrors } from './yaml-errors.js';
import type { z } from 'zod';
// The core's modules themselves, not its index: the parse-ahead worker loads this file
// in a fresh isolate, and the index would load every service, the catalog and the
// change feed there too, for nothing.
import {
  PromptNameSchema, ResourceInputSchema, ResourceTemplateInputSchema, VersionInputSchema,
  type ResourceInput, type ResourceTemplateInput, type VersionInput,
} from '../core/schemas.js';
import { formatPath, type FieldError } from '../core/errors.js';
import {
  HistoryFileSchema, isTextMime, ManifestResourceSchema, ManifestSchema, ManifestTemplateSchema, PromptFileSchema,
  toMessageInput, toVersionInput, type InlineMediaFile,
} from './format.js';
import { mergeFieldErrors, semanticErrorsOf, validateVersion } from '../core/validate-version.js';
import { createLibraryReader, FileError, type LibraryReader, type ReadLimits } from './safe-read.js';
import { saltKey, sourceHash, statPrint, type SkipSources } from './import-hashes.js';
import { assertParsedWithinCap, PARSE_CAP_MIN_BYTES, type ParseCapVerdicts } from './parse-cap-check.js';
import { isPlainData, startParseAhead, type AheadHashing, type ParseAhead, type ParseAheadOptions, type ParsedAhead } from './parse-ahead.js';

export interface ParsedPrompt {
  /** path shown in reports, relative to the library root: `prompts/x.yaml` */
  file: string;
  name: string;
  history: boolean;
  /** `number` is the version number written in a history file */
  versions: { number?: number; input: VersionInput }[];
  /** history files: the version number the file says is served */
  active?: number;
  /**
   * The file's labels: label → index into `versions` (a single-version file's labels
   * are on its one version; a history file's `active: N` is production on version N).
   * Absent when the file names no label at all.
   */
  labels?: Record<string, number>;
  /** The prompt's tags (`tags:`); absent when the file names none, and the prompt's stay as they are. */
  tags?: string[];
  /** what was read, for the import hashes (import-hashes.ts): the hash and the media files the file names */
  source?: { hash: string; deps: string[]; stat: string };
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
  /**
   * files not parsed because the last import read the same bytes and the prompt has not
   * moved since; `restat`: the bytes hashed the same but the stat fingerprint changed
   * (a checkout touched the file), to be recorded so the next import need not read it
   */
  unchanged?: { file: string; name: string; latest: number; restat?: { hash: string; deps: string[]; stat: string } }[];
  /** every prompt file looked at (directory imports), for dropping the hashes of files that are gone */
  files?: string[];
}

export const MANIFEST = 'resources.yaml';
export const PROMPT_EXT = /\.(ya?ml|json)$/i;

const zodErrors = (e: z.ZodError, prefix = ''): FieldError[] =>
  e.issues.map((i) => ({ path: prefix + (formatPath(i.path) || '(file)'), message: i.message }));

function parseYaml(text: string, shown: string, what?: string): unknown {
  // The parser refuses alias bombs and similar by throwing from toJS (and deep nesting
  // can overflow the stack); either is this file's error, not the whole import's.
  try {
    const doc = parseLibraryYaml(text);
    if (doc.errors.length) throw new FileError(yamlFileErrors(doc, text, shown, what));
    return doc.toJS();
  } catch (e) {
    if (e instanceof FileError) throw e;
    throw new FileError([{ path: '(file)', message: `cannot parse: ${e instanceof Error ? e.message : String(e)}` }]);
  }
}

/** The name checks, on whatever `name` the file has: its format, and that it matches the file name. */
function nameErrors(name: unknown, shown: string): FieldError[] {
  if (typeof name !== 'string') return [];
  const errors: FieldError[] = [];
  const nameCheck = PromptNameSchema.safeParse(name);
  if (!nameCheck.success) errors.push(...zodErrors(nameCheck.error, 'name'));
  const fileName = path.posix.basename(shown);
  const base = fileName.replace(PROMPT_EXT, '');
  if (base !== name) {
    // Advise only a rename that would be valid.
    const fix = nameCheck.success ? `name the file ${name}${path.posix.extname(fileName)}` : PromptNameSchema.safeParse(base).success ? `set name: ${base}` : 'pick a valid name and name the file after it';
    errors.push({ path: 'name', message: `"${name}" does not match the file name (${fileName}); ${fix}` });
  }
  return errors;
}

/** A file version (raw) → its API input as far as it converts, for the checks a failed schema would hide. */
function salvageVersion(fv: unknown, media: (m: InlineMediaFile) => string): unknown {
  if (!fv || typeof fv !== 'object') return undefined;
  const v = fv as { arguments?: unknown; messages?: unknown; tests?: unknown };
  const messages = Array.isArray(v.messages)
    ? v.messages.map((m) => {
        try {
          return toMessageInput(m as never, media);
        } catch {
          return undefined;
        }
      })
    : [];
  return { arguments: v.arguments, messages, tests: v.tests };
}

/** One prompt file; `deps` hears the media files it reads. Exported for the parse-ahead worker. */
export function parsePromptFile(reader: LibraryReader, shown: string, deps: string[] = []): ParsedPrompt {
  const text = reader.read(shown, '(file)').toString('utf8');
  const raw = parseYaml(text, shown);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new FileError([{ path: '(file)', message: 'expected a mapping with name and messages' }]);
  const history = 'versions' in raw;
  const noMedia = () => '';
  const parsed = history ? HistoryFileSchema.safeParse(raw) : PromptFileSchema.safeParse(raw);
  if (!parsed.success) {
    // Every error of the file at once: the schema's, the name's and the templates'.
    const rawVersions = history ? (Array.isArray((raw as { versions?: unknown }).versions) ? ((raw as { versions: unknown[] }).versions) : []) : [raw];
    const semantic = rawVersions.flatMap((fv, i) => semanticErrorsOf(salvageVersion(fv, noMedia)).map((e) => ({ ...e, path: (history ? `versions[${i}].` : '') + e.path })));
    throw new FileError(mergeFieldErrors(zodErrors(parsed.error), nameErrors((raw as { name?: unknown }).name, shown), semantic));
  }
  const name = parsed.data.name;
  const errors: FieldError[] = nameErrors(name, shown);

  const fileVersions = 'versions' in parsed.data ? parsed.data.versions : [{ ...parsed.data, version: undefined }];
  const versions: ParsedPrompt['versions'] = [];
  // The checks the planner runs on a version that passed its schema, for when this file
  // is refused anyway: its answer lists them too.
  const later: FieldError[] = [];
  fileVersions.forEach((fv, i) => {
    const prefix = history ? `versions[${i}].` : '';
    // A media file that cannot be read is that message's error; the others are still checked.
    const media = (m: InlineMediaFile, at: number) => {
      deps.push(m.file);
      try {
        return reader.read(m.file, `${prefix}messages[${at}].content.data`).toString('base64');
      } catch (e) {
        if (!(e instanceof FileError)) throw e;
        errors.push(...e.errors);
        return '';
      }
    };
    const candidate = toVersionInput(fv, media);
    const input = VersionInputSchema.safeParse(candidate);
    if (!input.success) errors.push(...mergeFieldErrors(zodErrors(input.error), semanticErrorsOf(candidate)).map((e) => ({ ...e, path: prefix + e.path })));
    else {
      versions.push({ number: fv.version, input: input.data });
      later.push(...validateVersion(input.data, undefined).map((e) => ({ ...e, path: prefix + e.path })));
    }
  });
  if (errors.length) throw new FileError(mergeFieldErrors(errors, later));
  const active = 'versions' in parsed.data ? (parsed.data.active ?? undefined) : undefined;
  let labels: Record<string, number> | undefined;
  if ('versions' in parsed.data) {
    const vs = parsed.data.versions;
    if (active !== undefined || vs.some((v) => v.labels)) {
      labels = {};
      vs.forEach((v, i) => {
        for (const l of v.labels ?? []) labels![l] = i;
      });
      if (active !== undefined) labels.production = vs.findIndex((v) => v.version === active);
    }
  } else if (parsed.data.labels) labels = Object.fromEntries(parsed.data.labels.map((l) => [l, 0]));
  const tags = parsed.data.tags;
  return { file: shown, name, history, versions, ...(active !== undefined ? { active } : {}), ...(labels ? { labels } : {}), ...(tags ? { tags } : {}) };
}

/**
 * One file parsed ahead of the reader (parse-ahead.ts, on either thread): the result to
 * hand over when the file parsed cleanly without a media file and its value survives the
 * copy between threads; undefined (or a throw) leaves the file to the reader, in order.
 */
export function parseAheadOne(reader: LibraryReader, file: string, hashing: AheadHashing | undefined): ParsedAhead | undefined {
  // A large file is the reader's: it parses only the bytes the capped worker parsed (parse-cap-check.ts).
  if (reader.read(file, '(file)').length >= PARSE_CAP_MIN_BYTES) return undefined;
  const deps: string[] = [];
  const value = parsePromptFile(reader, file, deps);
  if (deps.length || !isPlainData(value)) return undefined;
  // The reader's cache hands back the bytes parsed above; the stat is taken after the
  // read, as the reader's thread takes it.
  const bytes = reader.read(file, '(file)');
  const source = hashing && { hash: sourceHash(hashing.salt, file, bytes, []), stat: statPrint(hashing.key, [reader.stat(file, '(file)')], hashing.startedMs) };
  return { file, size: bytes.length, value, ...(source ? { source } : {}) };
}

function readManifest(reader: LibraryReader, lib: ParsedLibrary, capped: ParseCapVerdicts | undefined): void {
  let raw: unknown;
  try {
    const bytes = reader.read(MANIFEST, '(file)');
    if (capped) assertParsedWithinCap(capped, MANIFEST, bytes);
    raw = parseYaml(bytes.toString('utf8'), MANIFEST, MANIFEST) ?? {};
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
        const bytes = reader.read(file!, `${at}.file`);
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
 * of `prompts/`) and no manifest is read. Files are read through the safe reader
 * (safe-read.ts): no symlinks, only regular files, size caps from `limits`.
 * `onFile` hears about each prompt file read (import progress).
 */
/** The library root of `target` (a library directory, or a prompt file in it). */
export function libraryRoot(target: string): { root: string; isFile: boolean } {
  const abs = path.resolve(target);
  if (!existsSync(abs)) throw new Error(`${target}: no such file or directory`);
  const isFile = statSync(abs).isFile();
  return { root: isFile ? (path.basename(path.dirname(abs)) === 'prompts' ? path.dirname(path.dirname(abs)) : path.dirname(abs)) : abs, isFile };
}

/** A library being read file by file (openLibrary): `lib` grows as `next` reads. */
export interface LibraryReading {
  readonly lib: ParsedLibrary;
  /** the prompt files, in the order they are read */
  readonly files: readonly string[];
  /** how many of `files` have been read */
  readonly read: number;
  /** true when a second thread parses ahead (parse-ahead.ts) */
  readonly parallel: boolean;
  /** reads the next file into `lib`; false when every file has been read */
  next(): boolean;
  /** stops the second thread; call it whatever happens */
  close(): void;
}

/**
 * `skip`: files the last import read (import-hashes.ts); one whose bytes (and media
 * files) hash the same is listed in `unchanged` instead of being parsed.
 * `parseAhead`: parse the YAML of files on a second thread too (parse-ahead.ts; the
 * result is the same either way).
 * `capped`: what the capped worker found (parse-cap.ts): a file over its heap is reported,
 * never parsed, and a large file is parsed only as the bytes it parsed within it.
 */
export function readLibrary(
  target: string, limits: ReadLimits = {}, onFile?: (done: number, total: number) => void, skip?: SkipSources, parseAhead?: ParseAheadOptions,
  capped?: ParseCapVerdicts,
): ParsedLibrary {
  const reading = openLibrary(target, limits, onFile, skip, parseAhead, capped);
  try {
    while (reading.next());
  } finally {
    reading.close();
  }
  return reading.lib;
}

/**
 * readLibrary one file at a time: the manifest and the list of files are read here, each
 * prompt file by `next()`, in order, into `lib` (an import writes what it has read while
 * the second thread parses further: apply.ts).
 */
export function openLibrary(
  target: string, limits: ReadLimits = {}, onFile?: (done: number, total: number) => void, skip?: SkipSources, parseAhead?: ParseAheadOptions,
  capped?: ParseCapVerdicts,
): LibraryReading {
  const abs = path.resolve(target);
  const { root, isFile } = libraryRoot(target);
  const lib: ParsedLibrary = { root, prompts: [], resources: [], templates: [], problems: [] };
  const reader = createLibraryReader(root, limits);

  let files: string[];
  if (isFile) files = [path.relative(root, abs).split(path.sep).join('/')];
  else {
    const dir = reader.probe('prompts');
    const manifest = reader.probe(MANIFEST);
    if (dir === 'missing' && manifest === 'missing') throw new Error(`${target}: not a prompt library (no prompts/ directory and no ${MANIFEST})`);
    const tooLarge = capped?.refused.get(MANIFEST);
    if (tooLarge) lib.problems.push({ file: MANIFEST, errors: [{ path: '(file)', message: tooLarge }] });
    else if (manifest !== 'missing') readManifest(reader, lib, capped);
    files = [];
    if (dir === 'dir') {
      // Sorted so plans, reports and version numbering do not depend on directory order.
      files = readdirSync(path.join(root, 'prompts')).filter((f) => PROMPT_EXT.test(f)).sort().map((f) => `prompts/${f}`);
    } else if (dir !== 'missing') {
      const why = typeof dir === 'object' ? dir.refused : 'prompts is not a directory';
      lib.problems.push({ file: 'prompts', errors: [{ path: '(file)', message: `${why}; no prompt files were read` }] });
    }
  }

  if (!isFile) lib.files = files;
  // The manifest decides what prompts validate against: a changed one re-parses every file.
  const salt = skip && `${skip.salt}\0${reader.probe(MANIFEST) === 'file' ? sourceHash('', MANIFEST, readOrEmpty(reader, MANIFEST), []) : ''}`;
  const seen = new Map<string, string>();
  const startedMs = skip?.startedMs ?? Date.now();
  const key = salt === undefined ? '' : saltKey(salt);
  // Files the last import did not read are parsed for sure: those the worker may take.
  let ahead: ParseAhead | undefined = parseAhead
    ? startParseAhead(root, files.filter((f) => !skip?.unchanged.has(f) && !capped?.refused.has(f)), limits, parseAhead, salt === undefined ? undefined : { salt, key, startedMs }, parseAheadOne)
    : undefined;
  let i = 0;

  function readOne(shown: string): void {
    // Never parsed here: parsing it took the capped worker over its heap (parse-cap.ts).
    const tooLarge = capped?.refused.get(shown);
    if (tooLarge) return void lib.problems.push({ file: shown, errors: [{ path: '(file)', message: tooLarge }] });
    try {
      const known = skip?.unchanged.get(shown);
      if (known && salt !== undefined && !seen.has(known.name)) {
        // Same stat fingerprint: unchanged without opening the file; else the bytes decide.
        const print = printOf(reader, key, shown, known.deps, startedMs);
        const same = known.stat !== '' && print === known.stat;
        if (same || hashOf(reader, salt, shown, known.deps) === known.hash) {
          seen.set(known.name, shown);
          const restat = !same && print ? { restat: { hash: known.hash, deps: known.deps, stat: print } } : {};
          (lib.unchanged ??= []).push({ file: shown, name: known.name, latest: known.latest, ...restat });
          return;
        }
      }
      const deps: string[] = [];
      // What the worker read and parsed (parse-ahead.ts): its bytes count against the total here, in file order.
      const got = ahead?.take(shown);
      if (got) reader.account(shown, got.size, '(file)');
      else if (capped) assertParsedWithinCap(capped, shown, reader.read(shown, '(file)'));
      const p = got ? (got.value as ParsedPrompt) : parsePromptFile(reader, shown, deps);
      // The stat is taken after the read: a write after the import started leaves a fresh time, never trusted.
      if (got?.source) p.source = { ...got.source, deps };
      else if (salt !== undefined) p.source = { hash: hashOf(reader, salt, shown, deps)!, deps, stat: printOf(reader, key, shown, deps, startedMs) ?? '' };
      const dup = seen.get(p.name);
      if (dup) throw new FileError([{ path: 'name', message: `prompt "${p.name}" is also defined in ${dup}` }]);
      seen.set(p.name, shown);
      lib.prompts.push(p);
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      lib.problems.push({ file: shown, errors: e.errors });
    }
  }

  return {
    lib,
    files,
    get read() {
      return i;
    },
    parallel: Boolean(ahead),
    next() {
      if (i >= files.length) return false;
      readOne(files[i]!);
      i++;
      onFile?.(i, files.length);
      return true;
    },
    close() {
      ahead?.close();
      ahead = undefined;
    },
  };
}

function readOrEmpty(reader: LibraryReader, rel: string): Buffer {
  try {
    return reader.read(rel, '(file)');
  } catch (e) {
    if (e instanceof FileError) return Buffer.alloc(0);
    throw e;
  }
}

/** The file's hash with its media files; undefined when one cannot be read (then the file is parsed and reports it). */
function hashOf(reader: LibraryReader, salt: string, shown: string, deps: string[]): string | undefined {
  try {
    return sourceHash(salt, shown, reader.read(shown, '(file)'), deps.map((d) => [d, reader.read(d, '(file)')] as const));
  } catch (e) {
    if (e instanceof FileError) return undefined;
    throw e;
  }
}

/** The stat fingerprint of the file and its media files; undefined when one cannot be stat'ed (then the bytes decide). */
function printOf(reader: LibraryReader, key: string, shown: string, deps: string[], startedMs: number): string | undefined {
  try {
    return statPrint(key, [shown, ...deps].map((f) => reader.stat(f, '(file)')), startedMs);
  } catch (e) {
    if (e instanceof FileError) return undefined;
    throw e;
  }
}
