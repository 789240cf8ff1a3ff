// Import planning: compares a parsed library with the database and decides, per
// resource and per prompt file, what an import would do. Planning never writes, so
// `--dry-run` is exactly "plan and print". Prompt validation that needs stored
// resources runs here too, against the database overlaid with the manifest's
// resources (they are written before any prompt).
import type { Core, FieldError, ResourceInput, ResourceTemplateInput, Version, VersionInput } from '../core/index.js';
import { createBulkImport, type BulkWrite, type PromptState } from '../core/services/bulk-import.js';
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
  /** version to serve afterwards, when that changes what is served */
  activate?: number;
  /** why a history file's `active` could not be honoured, and similar remarks */
  note?: string;
  errors?: FieldError[];
  write?: BulkWrite;
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
  /** serve the imported (or unchanged latest) version */
  activate?: boolean;
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
    const unchanged = sameContent && r.name === input.name && same(r.title, input.title) && same(r.description, input.description) && r.mimeType === input.mimeType;
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

/** Single-version file: a new version only when the content differs from the latest. */
function planSingle(p: ParsedPrompt, state: PromptState | undefined, opts: PlanOptions): PromptPlanItem {
  const input = p.versions[0]!.input;
  const base = { file: p.file, name: p.name };
  if (!state) {
    const activate = opts.activate ? 1 : undefined;
    return { ...base, action: 'create', creates: [1], activate, write: { name: p.name, mode: 'create', expectLatest: 0, versions: [input], activate } };
  }
  const L = state.latestVersion;
  if (contentKey(input) !== contentKey(state.latest)) {
    const activate = opts.activate ? L + 1 : undefined;
    return { ...base, action: 'new-version', latest: L, creates: [L + 1], activate, write: { name: p.name, mode: 'append', expectLatest: L, versions: [input], activate } };
  }
  const activate = opts.activate && state.activeVersion !== L ? L : undefined;
  return { ...base, action: 'unchanged', latest: L, activate, ...(activate ? { write: { name: p.name, mode: 'append', expectLatest: L, versions: [], activate } } : {}) };
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
  const activeIdx = p.active !== undefined ? p.versions.findIndex((v) => v.number === p.active) : p.versions.length - 1;
  const inputs = p.versions.map((v) => v.input);
  if (!state) {
    const activate = opts.activate ? activeIdx + 1 : undefined;
    const creates = inputs.map((_, i) => i + 1);
    return { ...base, action: 'create', creates, activate, write: { name: p.name, mode: 'create', expectLatest: 0, versions: inputs, activate } };
  }
  const history: Version[] = state.history ?? [state.latest];
  const L = state.latestVersion;
  let prefix = 0;
  while (prefix < fileKeys.length && prefix < history.length && fileKeys[prefix] === contentKey(history[prefix]!)) prefix++;

  let append: VersionInput[];
  let target: number | undefined; // database number of the file's active version
  let note: string | undefined;
  if (prefix === history.length || prefix === fileKeys.length) {
    append = inputs.slice(prefix);
    target = activeIdx < prefix ? history[activeIdx]!.version : L + (activeIdx - prefix) + 1;
  } else {
    const last = inputs.at(-1)!;
    const changed = fileKeys.at(-1) !== contentKey(state.latest);
    append = changed ? [last] : [];
    const byContent = history.findLast((h) => contentKey(h) === fileKeys[activeIdx]);
    target = activeIdx === inputs.length - 1 ? (changed ? L + 1 : L) : byContent?.version;
    note = `history differs from the database's after version ${prefix}; ${changed ? 'imported the last version as a new one' : 'the last version is unchanged'}`;
    if (target === undefined && opts.activate) note += `; version ${p.active} is not in the database, nothing activated`;
  }
  const activate = opts.activate && target !== undefined && target !== state.activeVersion ? target : undefined;
  const creates = append.map((_, i) => L + i + 1);
  const write: BulkWrite | undefined = append.length || activate !== undefined ? { name: p.name, mode: 'append', expectLatest: L, versions: append, activate } : undefined;
  return { ...base, action: append.length ? 'new-version' : 'unchanged', latest: L, creates, activate, ...(note ? { note } : {}), ...(write ? { write } : {}) };
}

export async function planImport(core: Core, lib: ParsedLibrary, opts: PlanOptions = {}): Promise<ImportPlan> {
  const resources = await planResources(core, lib);
  for (const pr of lib.problems.filter((x) => x.file === MANIFEST)) {
    resources.push({ kind: 'resource', key: MANIFEST, at: MANIFEST, action: 'error', errors: pr.errors });
  }
  const bulk = createBulkImport(core);
  const states = new Map([
    ...(await bulk.load(lib.prompts.filter((p) => !p.history).map((p) => p.name))),
    ...(await bulk.load(lib.prompts.filter((p) => p.history).map((p) => p.name), { history: true })),
  ]);

  // Stored resources as they will be once the manifest is applied.
  const uris = [...new Set(lib.prompts.flatMap((p) => p.versions.flatMap((v) => referencedUris(v.input))))];
  const stored: Map<string, StoredResourceInfo> = await bulk.resourceInfo(uris);
  for (const r of resources) {
    if (r.kind !== 'resource' || r.action === 'error' || r.action === 'unchanged') continue;
    const input = r.input as ResourceInput;
    stored.set(input.uri, { id: r.id ?? -1, binary: input.blob !== undefined, mimeType: input.mimeType });
  }

  const prompts: PromptPlanItem[] = lib.problems.filter((x) => x.file !== MANIFEST).map((x) => ({ file: x.file, action: 'error', errors: x.errors }));
  for (const p of lib.prompts) {
    const errors = p.versions.flatMap((v, i) =>
      validateVersion(v.input, stored).map((e) => ({ path: (p.history ? `versions[${i}].` : '') + e.path, message: e.message })),
    );
    if (errors.length) prompts.push({ file: p.file, name: p.name, action: 'error', errors });
    else prompts.push((p.history ? planHistory : planSingle)(p, states.get(p.name), opts));
  }
  prompts.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { root: lib.root, resources, prompts };
}
