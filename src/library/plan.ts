// Import planning: compares a parsed library with the database and decides, per
// resource and per prompt file, what an import would do. Planning never writes, so
// `--dry-run` is exactly "plan and print". Prompt validation that needs stored
// resources runs here too, against the database overlaid with the manifest's
// resources (they are written before any prompt).
import { PRODUCTION, type Core, type FieldError, type ResourceInput, type ResourceTemplateInput, type Version, type VersionInput } from '../core/index.js';
import type { BulkWrite, PromptState } from '../core/services/bulk-import.js';
import { referencedUris, validateVersion, type StoredResourceInfo } from '../core/validate-version.js';
import { contentKey } from './format.js';
import { MANIFEST, type ParsedLibrary, type ParsedPrompt } from './read-library.js';

export type PromptAction = 'create' | 'new-version' | 'unchanged' | 'error';

export interface PromptPlanItem {
  file: string;
  name?: string;
  action: PromptAction;
  /** latest version before the import (existing prompts) */
  latest?: number;
  /** version numbers the import creates */
  creates?: number[];
  /** version the main label (production, or `--label`) moves to, when that changes it */
  activate?: number;
  /** the main label, when it is not production */
  label?: string;
  /** other labels the file names that move: label → version */
  labels?: Record<string, number>;
  /** why a history file's `active` could not be honoured, and similar remarks */
  note?: string;
  errors?: FieldError[];
  write?: BulkWrite;
  /** the prompt's tags as the file names them (set after the versions; absent: left as they are) */
  tags?: string[];
}

export interface ResourcePlanItem {
  kind: 'resource' | 'template';
  key: string;
  at: string;
  action: 'create' | 'update' | 'unchanged' | 'error';
  id?: number;
  input?: ResourceInput | ResourceTemplateInput;
  errors?: FieldError[];
}

export interface ImportPlan {
  root: string;
  resources: ResourcePlanItem[];
  prompts: PromptPlanItem[];
}

export interface PlanOptions {
  /** serve the imported (or unchanged latest) version, and set the labels the files name */
  activate?: boolean;
  /** put the imported version under this label instead of production (moves only this label) */
  label?: string;
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

async function planResources(core: Core, lib: ParsedLibrary): Promise<ResourcePlanItem[]> {
  const out: ResourcePlanItem[] = [];
  const existing = new Map<string, number>();
  if (lib.resources.length) {
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = await core.resources.list({ limit: 200, cursor });
      for (const r of page.items) existing.set(r.uri, r.id);
      cursor = page.nextCursor ?? undefined;
    }
  }
  const seen = new Set<string>();
  for (const { at, input } of lib.resources) {
    if (seen.has(input.uri)) {
      out.push({ kind: 'resource', key: input.uri, at, action: 'error', errors: [{ path: `${at}.uri`, message: `"${input.uri}" appears twice in ${MANIFEST}` }] });
      continue;
    }
    seen.add(input.uri);
    const id = existing.get(input.uri);
    if (id === undefined) {
      out.push({ kind: 'resource', key: input.uri, at, action: 'create', input });
      continue;
    }
    const r = await core.resources.get(id);
    const sameContent = input.blob !== undefined
      ? r.blob !== null && Buffer.from(r.blob).toString('base64') === input.blob
      : r.text === input.text;
    const unchanged = sameContent && r.name === input.name && same(r.title, input.title) && same(r.description, input.description) && r.mimeType === input.mimeType
      && (input.visibility === undefined || r.visibility === input.visibility);
    out.push({ kind: 'resource', key: input.uri, at, action: unchanged ? 'unchanged' : 'update', id, input });
  }
  const templates = lib.templates.length ? new Map((await core.resources.listTemplates()).map((t) => [t.uriTemplate, t])) : new Map();
  for (const { at, input } of lib.templates) {
    if (seen.has(input.uriTemplate)) {
      out.push({ kind: 'template', key: input.uriTemplate, at, action: 'error', errors: [{ path: `${at}.uriTemplate`, message: `"${input.uriTemplate}" appears twice in ${MANIFEST}` }] });
      continue;
    }
    seen.add(input.uriTemplate);
    const t = templates.get(input.uriTemplate);
    if (!t) out.push({ kind: 'template', key: input.uriTemplate, at, action: 'create', input });
    else {
      const unchanged = t.name === input.name && same(t.title, input.title) && same(t.description, input.description) && t.mimeType === input.mimeType && t.text === input.text;
      out.push({ kind: 'template', key: input.uriTemplate, at, action: unchanged ? 'unchanged' : 'update', id: t.id, input });
    }
  }
  return out;
}

/**
 * Which label goes on which of the file's versions (index into `versions`), by the
 * options: nothing without --activate or --label; with --activate, the file's labels
 * exactly (a file naming none: production on its version, or a history's last);
 * with --label L, only L, on the version the file serves under production.
 */
function wantedLabels(p: ParsedPrompt, opts: PlanOptions): { main: string; at: Record<string, number> } | undefined {
  const main = opts.label ?? (opts.activate ? PRODUCTION : undefined);
  if (main === undefined) return undefined;
  const fallback = p.versions.length - 1;
  if (main === PRODUCTION) return { main, at: p.labels ?? { [PRODUCTION]: fallback } };
  return { main, at: { [main]: p.labels?.[PRODUCTION] ?? fallback } };
}

/** The label moves a plan makes, given the database number of each file version (undefined: none). */
function labelMoves(p: ParsedPrompt, state: PromptState | undefined, opts: PlanOptions, numberAt: (idx: number) => number | undefined) {
  const wanted = wantedLabels(p, opts);
  const out: { activate?: number; label?: string; labels?: Record<string, number>; missing: string[] } = { missing: [] };
  if (!wanted) return out;
  if (wanted.main !== PRODUCTION) out.label = wanted.main;
  for (const [label, idx] of Object.entries(wanted.at).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const n = numberAt(idx);
    if (n === undefined) {
      out.missing.push(label);
      continue;
    }
    const current = label === PRODUCTION ? (state?.activeVersion ?? null) : (state?.labels[label] ?? null);
    if (current === n) continue;
    if (label === wanted.main) out.activate = n;
    else (out.labels ??= {})[label] = n;
  }
  return out;
}

const moveFields = (m: ReturnType<typeof labelMoves>) => ({
  ...(m.activate !== undefined ? { activate: m.activate } : {}),
  ...(m.label !== undefined ? { label: m.label } : {}),
  ...(m.labels !== undefined ? { labels: m.labels } : {}),
});
const moves = (m: ReturnType<typeof labelMoves>) => m.activate !== undefined || m.labels !== undefined;

/** Single-version file: a new version only when the content differs from the latest. */
function planSingle(p: ParsedPrompt, state: PromptState | undefined, opts: PlanOptions): PromptPlanItem {
  const input = p.versions[0]!.input;
  const base = { file: p.file, name: p.name };
  if (!state) {
    const m = labelMoves(p, state, opts, () => 1);
    return { ...base, action: 'create', creates: [1], ...moveFields(m), write: { name: p.name, mode: 'create', expectLatest: 0, versions: [input], ...moveFields(m) } };
  }
  const L = state.latestVersion;
  if (contentKey(input) !== contentKey(state.latest)) {
    // An edited export still carries the note of the version it was exported from
    // ("Initial seed version"); that note does not describe this edit.
    const carried = input.note == null || input.note === state.latest.note || input.note === state.active?.note;
    const version = carried ? { ...input, note: `imported from ${p.file}` } : input;
    const m = labelMoves(p, state, opts, () => L + 1);
    return { ...base, action: 'new-version', latest: L, creates: [L + 1], ...moveFields(m), write: { name: p.name, mode: 'append', expectLatest: L, versions: [version], ...moveFields(m) } };
  }
  const m = labelMoves(p, state, opts, () => L);
  return { ...base, action: 'unchanged', latest: L, ...moveFields(m), ...(moves(m) ? { write: { name: p.name, mode: 'append', expectLatest: L, versions: [], ...moveFields(m) } } : {}) };
}

/**
 * History file (`versions:`): compared position by position with the database's
 * history. When the database's history is a prefix of the file's, the missing
 * versions are appended; when the histories diverged, the file's last version is
 * treated like a single-version file. Idempotent either way.
 */
function planHistory(p: ParsedPrompt, state: PromptState | undefined, opts: PlanOptions): PromptPlanItem {
  const base = { file: p.file, name: p.name };
  const fileKeys = p.versions.map((v) => contentKey(v.input));
  const inputs = p.versions.map((v) => v.input);
  if (!state) {
    const m = labelMoves(p, state, opts, (idx) => idx + 1);
    const creates = inputs.map((_, i) => i + 1);
    return { ...base, action: 'create', creates, ...moveFields(m), write: { name: p.name, mode: 'create', expectLatest: 0, versions: inputs, ...moveFields(m) } };
  }
  const history: Version[] = state.history ?? [state.latest];
  const L = state.latestVersion;
  let prefix = 0;
  while (prefix < fileKeys.length && prefix < history.length && fileKeys[prefix] === contentKey(history[prefix]!)) prefix++;

  let append: VersionInput[];
  let numberAt: (idx: number) => number | undefined; // database number of the file's version idx
  let note: string | undefined;
  if (prefix === history.length || prefix === fileKeys.length) {
    append = inputs.slice(prefix);
    numberAt = (idx) => (idx < prefix ? history[idx]!.version : L + (idx - prefix) + 1);
  } else {
    const last = inputs.at(-1)!;
    const changed = fileKeys.at(-1) !== contentKey(state.latest);
    append = changed ? [last] : [];
    numberAt = (idx) => (idx === inputs.length - 1 ? (changed ? L + 1 : L) : history.findLast((h) => contentKey(h) === fileKeys[idx])?.version);
    note = `history differs from the database's after version ${prefix}; ${changed ? 'imported the last version as a new one' : 'the last version is unchanged'}`;
  }
  const m = labelMoves(p, state, opts, numberAt);
  if (m.missing.length) note = `${note ? `${note}; ` : ''}the version${m.missing.length > 1 ? 's' : ''} labelled ${m.missing.join(', ')} ${m.missing.length > 1 ? 'are' : 'is'} not in the database, not moved`;
  const creates = append.map((_, i) => L + i + 1);
  const write: BulkWrite | undefined = append.length || moves(m) ? { name: p.name, mode: 'append', expectLatest: L, versions: append, ...moveFields(m) } : undefined;
  return { ...base, action: append.length ? 'new-version' : 'unchanged', latest: L, creates, ...moveFields(m), ...(note ? { note } : {}), ...(write ? { write } : {}) };
}

export async function planImport(core: Core, lib: ParsedLibrary, opts: PlanOptions = {}): Promise<ImportPlan> {
  const resources = await planLibraryResources(core, lib);
  const prompts = await planPrompts(core, lib, storedOverlay(resources), opts);
  return { root: lib.root, resources, prompts };
}

/** The manifest's plan: its resources and templates, and its problems as errors. */
export async function planLibraryResources(core: Core, lib: ParsedLibrary): Promise<ResourcePlanItem[]> {
  const resources = await planResources(core, lib);
  for (const pr of lib.problems.filter((x) => x.file === MANIFEST)) {
    resources.push({ kind: 'resource', key: MANIFEST, at: MANIFEST, action: 'error', errors: pr.errors });
  }
  return resources;
}

/**
 * What the resource plan will write, as stored-resource info (prompts validate against
 * the database as it will be once the manifest is applied). Taken before the plan is
 * applied: a resource that then fails to write still counts, as it always has.
 */
export function storedOverlay(resources: ResourcePlanItem[]): Map<string, StoredResourceInfo> {
  const overlay = new Map<string, StoredResourceInfo>();
  for (const r of resources) {
    if (r.kind !== 'resource' || r.action === 'error' || r.action === 'unchanged') continue;
    const input = r.input as ResourceInput;
    overlay.set(input.uri, { id: r.id ?? -1, binary: input.blob !== undefined, mimeType: input.mimeType });
  }
  return overlay;
}

/**
 * The plan of some prompt files (all of a library, or a run of consecutive files of it:
 * apply.ts plans and writes a large library a part at a time), sorted by file. No prompt
 * name is in two parts (read-library.ts reports a second file of one name as an error).
 */
export async function planPrompts(
  core: Core, part: Pick<ParsedLibrary, 'prompts' | 'problems' | 'unchanged'>, overlay: Map<string, StoredResourceInfo>, opts: PlanOptions = {},
): Promise<PromptPlanItem[]> {
  const { bulk } = core;
  const states = new Map([
    ...(await bulk.load(part.prompts.filter((p) => !p.history).map((p) => p.name))),
    ...(await bulk.load(part.prompts.filter((p) => p.history).map((p) => p.name), { history: true })),
  ]);

  // Stored resources as they will be once the manifest is applied.
  const uris = [...new Set(part.prompts.flatMap((p) => p.versions.flatMap((v) => referencedUris(v.input))))];
  const stored: Map<string, StoredResourceInfo> = await bulk.resourceInfo(uris);
  for (const [uri, info] of overlay) stored.set(uri, info);

  const prompts: PromptPlanItem[] = part.problems.filter((x) => x.file !== MANIFEST).map((x) => ({ file: x.file, action: 'error', errors: x.errors }));
  for (const p of part.prompts) {
    const errors = p.versions.flatMap((v, i) =>
      validateVersion(v.input, stored).map((e) => ({ path: (p.history ? `versions[${i}].` : '') + e.path, message: e.message })),
    );
    if (errors.length) prompts.push({ file: p.file, name: p.name, action: 'error', errors });
    else prompts.push({ ...(p.history ? planHistory : planSingle)(p, states.get(p.name), opts), ...(p.tags ? { tags: p.tags } : {}) });
  }
  // Read before with the same bytes and untouched since (import-hashes.ts): nothing to do.
  for (const u of part.unchanged ?? []) prompts.push({ file: u.file, name: u.name, action: 'unchanged', latest: u.latest });
  prompts.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return prompts;
}
