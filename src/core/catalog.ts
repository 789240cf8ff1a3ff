// What MCP serves: per label view (production by default, any release label, or
// `latest`), the version that label points at for every unarchived prompt carrying it,
// kept in memory so prompts/list and prompts/get never touch the database in the
// steady state. Reloaded per prompt and per view from the change log.
import { unknownLabel } from './known-labels.js';
import type { ChangeFeed } from './change-feed.js';
import type { CursorCodec } from './cursor.js';
import { DomainError } from './errors.js';
import { renderVersion, type ResourceResolver } from './render.js';
import type { ServedSource } from './ports.js';
import type { Argument, ChangeEvent, RenderedPrompt, Version } from './types.js';
import { LATEST, PRODUCTION, type Icon } from './schemas.js';
import { tagsInScope, type McpScope } from './mcp-scope.js';
import { completionCandidates, type ArgumentValue } from './arguments.js';
import { dependentsIn, IncludeIndex, refsOfDoc, seedsOf } from './catalog-includes.js';
import { queryMatcher } from './catalog-search.js';
import { EntryTable } from './catalog-entries.js';
import { compareNames, NameIndex } from './catalog-names.js';
import type { IncludeRef } from './include-ref.js';
import type { IncludeContext, IncludeTarget } from './render-includes.js';

export interface ServedPrompt {
  name: string;
  title: string | null;
  description: string | null;
  icons: Icon[] | null;
  arguments: Argument[];
  version: Version;
  /** The prompt's tags (sorted): MCP token scopes filter on them. */
  tags: readonly string[];
}

export interface CompletionResult {
  values: string[];
  total: number;
  hasMore: boolean;
}

const MAX_COMPLETIONS = 100;

/** One label's view of the catalog: what a session serving that label sees. */
export interface CatalogView {
  readonly label: string;
  /** Loads the view once and starts following the change log. */
  ready(): Promise<void>;
  size(): number;
  /** A page in name order; `tags`: only prompts carrying one of them (an MCP token's scope). */
  list(opts: { cursor?: string; limit: number; tags?: readonly string[] | null }): { prompts: ServedPrompt[]; nextCursor?: string };
  /**
   * Prompts whose name, title or description contains `query` (case-insensitive), in name
   * order after the cursor: up to `limit` of them, examining at most `scan` prompts; the
   * cursor goes on from the last prompt examined (none at the end of the list).
   */
  search(opts: { query: string; cursor?: string; limit: number; scan: number; tags?: readonly string[] | null }): { prompts: ServedPrompt[]; nextCursor?: string };
  /** The tags of a served prompt; undefined when the view does not serve it. */
  tagsOf(name: string): readonly string[] | undefined;
  find(name: string): ServedPrompt | undefined;
  /**
   * `served` hears the version rendered (its number and id) once the prompt is found
   * (before its arguments are checked): usage counts it, by the id's prompt.
   * `scope`: includes of prompts outside its tags are refused (an MCP token's scope; scopedView passes it).
   */
  render(name: string, args: Record<string, ArgumentValue>, served?: (version: number, versionId?: number) => void, scope?: Pick<McpScope, 'tags'> | null): Promise<RenderedPrompt>;
  complete(name: string, argument: string, value: string, context?: Record<string, string>): CompletionResult;
}

/**
 * Called after the views have reloaded, with the labels whose view changed and, per
 * label, the tags of the prompts that changed (before and after the change), so a
 * session limited to some tags hears only of changes it can see.
 */
export type ServedChangeListener = (events: ChangeEvent[], labels: ReadonlySet<string>, changed: ReadonlyMap<string, ChangedPrompt[]>) => void;

/** A prompt whose entry in a view changed; `tags`: its tags before and after, together. */
export interface ChangedPrompt {
  name: string;
  tags: readonly string[];
}

interface ViewState {
  label: string;
  /** name → id of the version the label points at; its `names` are the view's names in order */
  byName: NameIndex;
  /** name → tags, for tagged prompts only */
  tags: Map<string, readonly string[]>;
  loaded?: Promise<void>;
  changedWhileLoading?: Set<string>;
}

/** Which views an event may change: its labels, or every view (rename, archive, delete). */
function viewsOf(e: ChangeEvent): readonly string[] | 'all' | undefined {
  if (e.entity !== 'prompt' || !e.served) return undefined;
  const d = e.details;
  if (Array.isArray(d?.labels)) return d.labels.filter((l): l is string => typeof l === 'string');
  if (typeof d?.label === 'string') return [d.label];
  return 'all';
}

export function createServedCatalog({ source, feed, resolver, cursors }: { source: ServedSource; feed: ChangeFeed; resolver: ResourceResolver; cursors: CursorCodec }) {
  // One entry per distinct version, shared by every view (label) pointing at it: a
  // second label that mostly points where production does costs a name → id map, not
  // a second copy of the documents. Documents stay JSON text, parsed on use: ~3× less
  // memory than parsed objects at 100k prompts, and no parsing at start. The text is
  // kept as bytes outside the V8 heap (catalog-docs.ts), the entries in typed arrays
  // (catalog-entries.ts). Parsed versions are kept in a bounded LRU, so hot prompts are
  // parsed once.
  const entries = new EntryTable();
  const docOf = (id: number): string | undefined => entries.docOf(id);
  /** what a version includes (catalog-includes.ts), for the few that include anything */
  const includesOf = new Map<number, IncludeRef[]>();
  const parsed = new Map<number, ServedPrompt>();
  const views = new Map<string, ViewState>();
  const listeners = new Set<ServedChangeListener>();
  let following = false;
  const includeIndex = new IncludeIndex();
  /** `name@version` → the pinned version's document: versions never change, names do (cleared per name on rename, archive, delete) */
  const pinnedDocs = new Map<string, string>();

  const toServed = (name: string, version: Version): ServedPrompt => {
    return { name, title: version.title, description: version.description, icons: version.icons, arguments: version.arguments, version, tags: NO_TAGS };
  };
  /** Tags are the prompt's, not the version's (shared by views): added per view on the way out. */
  const withTags = (v: ViewState, p: ServedPrompt): ServedPrompt => {
    const tags = v.tags.get(p.name);
    return tags ? { ...p, tags } : p;
  };

  function retain(versionId: number, name: string, doc: string) {
    if (!entries.has(versionId)) {
      const includes = refsOfDoc(doc, source.decode);
      entries.add(versionId, name, doc);
      if (includes) {
        includesOf.set(versionId, includes);
        includeIndex.add(versionId, includes);
      }
      return;
    }
    if (!entries.retain(versionId, name)) parsed.delete(versionId);
  }

  function release(versionId: number) {
    if (entries.release(versionId)) {
      const includes = includesOf.get(versionId);
      if (includes) {
        includesOf.delete(versionId);
        includeIndex.remove(versionId, includes);
      }
      parsed.delete(versionId);
    }
  }

  /**
   * `keep`: remember the parsed prompt (prompts/get, completion). Listing pages parse
   * without keeping, so a client walking 100k prompts leaves only short-lived garbage
   * instead of promoting every prompt into the old generation on its way out.
   */
  function get(v: ViewState, name: string, keep = true): ServedPrompt | undefined {
    const id = v.byName.get(name);
    if (id === undefined) return undefined;
    let p = parsed.get(id);
    if (p) {
      if (keep) {
        parsed.delete(id);
        parsed.set(id, p);
      }
      return withTags(v, p);
    }
    const doc = entries.docOf(id);
    if (doc === undefined) return undefined;
    p = toServed(entries.nameOf(id)!, source.decode(doc));
    if (keep) {
      parsed.set(id, p);
      if (parsed.size > PARSED_MAX) parsed.delete(parsed.keys().next().value!);
    }
    return withTags(v, p);
  }

  /** A view's pointers with the documents not held yet (each version is read once). */
  async function fetchRows(label: string, names?: string[]): Promise<Row[]> {
    if (!entries.size && !names) return source.load(label);
    const ptrs = await source.pointers(label, names);
    const read = new Map<number, string>();
    // Entries held now may be released while the documents load: look again after.
    for (let round = 0; round < 2; round++) {
      const missing = [...new Set(ptrs.filter((p) => !entries.has(p.versionId) && !read.has(p.versionId)).map((p) => p.versionId))];
      if (!missing.length) break;
      for (const [id, doc] of await source.docs(missing)) read.set(id, doc);
    }
    return ptrs.flatMap((p) => {
      const doc = read.get(p.versionId) ?? docOf(p.versionId);
      return doc === undefined ? [] : [{ ...p, doc }];
    });
  }

  /** Points the view's `names` at the fresh rows; the prompts whose pointer or tags changed. */
  function apply(v: ViewState, names: Iterable<string>, fresh: Row[]): ChangedPrompt[] {
    const byName = new Map(fresh.map((r) => [r.name, r]));
    // Retain first: a version moving between names (a rename) must not be dropped in between.
    for (const r of fresh) retain(r.versionId, r.name, r.doc);
    const changed: ChangedPrompt[] = [];
    const list = [...names];
    // Many names at once: through the index's Map (unless the view's load has it open already).
    const bulk = list.length > 64 && !v.byName.opened;
    if (bulk) v.byName.open();
    for (const name of list) {
      const prev = v.byName.get(name);
      const next = byName.get(name);
      const prevTags = v.tags.get(name) ?? NO_TAGS;
      const nextTags = next?.tags ?? NO_TAGS;
      if (next) v.byName.set(name, next.versionId);
      else v.byName.delete(name);
      if (next && nextTags.length) v.tags.set(name, nextTags);
      else v.tags.delete(name);
      if (prev !== undefined) release(prev);
      const tagsMoved = prevTags.join(',') !== nextTags.join(',');
      if (prev !== next?.versionId || tagsMoved) changed.push({ name, tags: [...new Set([...prevTags, ...nextTags])] });
    }
    if (bulk) v.byName.close();
    return changed;
  }

  async function onEvents(events: ChangeEvent[]) {
    const touched = new Map<ViewState, Set<string>>();
    const served: ChangeEvent[] = [];
    for (const e of events) {
      const which = viewsOf(e);
      if (!which) continue;
      served.push(e);
      const names = [e.entityKey];
      if (e.action === 'prompt.renamed' && typeof e.details?.from === 'string') names.push(e.details.from);
      for (const v of which === 'all' ? views.values() : which.flatMap((l) => views.get(l) ?? [])) {
        if (!v.loaded) continue; // a view loads everything when first asked for
        let set = touched.get(v);
        if (!set) touched.set(v, (set = new Set()));
        for (const n of names) set.add(n);
      }
    }
    if (!served.length) return;
    for (const e of served) if (viewsOf(e) === 'all') forgetPinned(e.entityKey, e.details?.from);
    const changed = new Set<string>();
    const prompts = new Map<string, ChangedPrompt[]>();
    for (const [v, names] of touched) {
      for (const n of names) v.changedWhileLoading?.add(n);
      const fresh = await fetchRows(v.label, [...names]);
      const moved = apply(v, names, fresh);
      if (moved.length) {
        changed.add(v.label);
        prompts.set(v.label, moved);
      }
    }
    // Prompts including a changed one render differently now: their sessions hear of it as if they had changed.
    if (includeIndex.size) {
      // Seeds: what really moved in a loaded view (a late event re-applied changes nothing),
      // what moved in views not loaded here (an include pinned to their label), renames and deletes.
      const seeds = seedsOf(served, (e) => {
        const which = viewsOf(e);
        if (which === 'all' || !which) return which;
        const unloaded = which.filter((l) => !views.get(l)?.loaded);
        return unloaded.length ? unloaded : undefined;
      });
      for (const [label, moved] of prompts) for (const p of moved) seeds.push({ name: p.name, scope: [label] });
      for (const v of views.values()) {
        if (!v.loaded) continue;
        const already = new Set((prompts.get(v.label) ?? []).map((p) => p.name));
        const added = [...dependentsIn(v, seeds, includeIndex, (id) => entries.nameOf(id))]
          .filter((n) => !already.has(n))
          .map((name): ChangedPrompt => ({ name, tags: v.tags.get(name) ?? NO_TAGS }));
        if (!added.length) continue;
        changed.add(v.label);
        prompts.set(v.label, [...(prompts.get(v.label) ?? []), ...added]);
      }
    }
    if (!changed.size) return;
    for (const fn of listeners) fn(served, changed, prompts);
  }

  function forgetPinned(name: string, from: unknown) {
    for (const k of pinnedDocs.keys()) {
      const n = k.slice(0, k.lastIndexOf('@'));
      if (n === name || n === from) pinnedDocs.delete(k);
    }
  }

  /** The version `name` has in `label`'s view: from memory when the view is loaded, else one targeted read. */
  async function servedIn(label: string, name: string): Promise<IncludeTarget | null> {
    const v = views.get(label);
    if (v?.loaded || label === PRODUCTION) {
      await readyView(stateOf(label));
      const p = get(stateOf(label), name);
      return p ? { name, version: p.version } : null;
    }
    const [row] = await source.load(label, [name]);
    return row ? { name, version: source.decode(row.doc) } : null;
  }

  /**
   * A prompt's tags, for a scope check on an include: from a loaded view that serves it
   * (views follow the change log), else one targeted read of the `latest` view.
   */
  async function promptTags(name: string): Promise<readonly string[]> {
    for (const v of views.values()) if (v.loaded && v.byName.has(name)) return v.tags.get(name) ?? NO_TAGS;
    const [p] = await source.pointers(LATEST, [name]);
    return p?.tags ?? NO_TAGS;
  }

  /** How renderings under `label` resolve includes: that view, then production; pins as written. `scope`: only includes of prompts carrying one of its tags. */
  function includeContext(label: string, scope?: Pick<McpScope, 'tags'> | null): IncludeContext {
    return {
      label,
      ...(scope?.tags ? { mayInclude: async (name: string) => tagsInScope(scope, await promptTags(name)) } : {}),
      async resolve(ref) {
        if (ref.version !== undefined) {
          const key = `${ref.prompt}@${ref.version}`;
          let doc = pinnedDocs.get(key);
          if (doc === undefined) {
            doc = (await source.pinned(ref.prompt, ref.version))?.doc;
            if (doc === undefined) return null;
            if (pinnedDocs.size >= PARSED_MAX) pinnedDocs.delete(pinnedDocs.keys().next().value!);
            pinnedDocs.set(key, doc);
          }
          return { name: ref.prompt, version: source.decode(doc) };
        }
        if (ref.label !== undefined) return servedIn(ref.label, ref.prompt);
        return (await servedIn(label, ref.prompt)) ?? (label === PRODUCTION ? null : servedIn(PRODUCTION, ref.prompt));
      },
    };
  }

  function stateOf(label: string): ViewState {
    let v = views.get(label);
    if (!v) views.set(label, (v = { label, byName: new NameIndex(), tags: new Map() }));
    return v;
  }

  /** Starts applying the change log to the loaded views (once). */
  function follow() {
    if (following) return;
    following = true;
    feed.subscribe(onEvents);
  }

  function readyView(v: ViewState): Promise<void> {
    v.loaded ??= (async () => {
      follow();
      // Changes that arrive while the batches load are applied by onEvents from a
      // newer read; the (possibly older) batch row of such a name is skipped.
      const skip = (v.changedWhileLoading = new Set());
      v.byName.open();
      const take = (rows: Row[]) => {
        const keep = rows.filter((r) => !skip.has(r.name));
        for (const r of keep) retain(r.versionId, r.name, r.doc);
        for (const r of keep) {
          const prev = v.byName.get(r.name);
          v.byName.set(r.name, r.versionId);
          if (r.tags.length) v.tags.set(r.name, r.tags);
          if (prev !== undefined) release(prev);
        }
      };
      try {
        // The first view streams: each batch's documents go into the arena and their strings
        // become garbage at once, instead of 100k strings living until the last batch.
        if (!entries.size) await source.loadEach(v.label, take);
        else take(await fetchRows(v.label));
      } finally {
        v.changedWhileLoading = undefined;
        v.byName.close();
      }
    })();
    return v.loaded;
  }

  function viewOf(label: string): CatalogView {
    const v = stateOf(label);
    return {
      label,
      ready: () => readyView(v),
      size: () => v.byName.names.length,
      list(opts) {
        const after = opts.cursor !== undefined ? cursors.decode<string>('mcp-prompts', opts.cursor) : undefined;
        const sorted = v.byName.names;
        const start = after === undefined ? 0 : upperBound(sorted, after);
        if (opts.tags) {
          // A scoped page walks the names until it has `limit` in scope (and one more, to know there are more).
          const names: string[] = [];
          let more = false;
          for (let i = start; i < sorted.length; i++) {
            const n = sorted[i]!;
            if (!tagsInScope(opts, v.tags.get(n) ?? NO_TAGS)) continue;
            if (names.length === opts.limit) {
              more = true;
              break;
            }
            names.push(n);
          }
          const prompts = names.map((n) => get(v, n, false)!).filter(Boolean);
          return { prompts, ...(more && names.length ? { nextCursor: cursors.encode('mcp-prompts', names.at(-1)) } : {}) };
        }
        const names = sorted.slice(start, start + opts.limit);
        const prompts = names.map((n) => get(v, n, false)!).filter(Boolean);
        const more = start + opts.limit < sorted.length;
        return { prompts, ...(more && names.length ? { nextCursor: cursors.encode('mcp-prompts', names.at(-1)) } : {}) };
      },
      search(opts) {
        const m = queryMatcher(opts.query, source.searchHead);
        const after = opts.cursor !== undefined ? cursors.decode<string>('mcp-prompts', opts.cursor) : undefined;
        const hits: ServedPrompt[] = [];
        let examined = 0;
        const sorted = v.byName.names;
        let i = after === undefined ? 0 : upperBound(sorted, after);
        for (; i < sorted.length && examined < opts.scan; i++) {
          const n = sorted[i]!;
          if (opts.tags && !tagsInScope(opts, v.tags.get(n) ?? NO_TAGS)) continue;
          examined++;
          // The raw document first: only a prompt that may match is parsed.
          const doc = docOf(v.byName.get(n)!);
          if (doc === undefined || !m.mayMatch(n, doc)) continue;
          const p = get(v, n, false);
          if (p && m.matches(p)) hits.push(p);
          if (hits.length === opts.limit) {
            i++;
            break;
          }
        }
        return { prompts: hits, ...(i < sorted.length && i > 0 ? { nextCursor: cursors.encode('mcp-prompts', sorted[i - 1]) } : {}) };
      },
      find: (name) => get(v, name),
      tagsOf: (name) => (v.byName.has(name) ? (v.tags.get(name) ?? NO_TAGS) : undefined),
      async render(name, args, served, scope) {
        const p = get(v, name);
        if (!p) throw new DomainError('not_found', `prompt "${name}" not found: no prompt with that name is served${label === PRODUCTION ? '' : ` under label "${label}"`} (prompts/list shows what is served)`);
        served?.(p.version.version, v.byName.get(name));
        return renderVersion(name, p.version, args, resolver, includeContext(label, scope));
      },
      complete(name, argument, value, context = {}) {
        const p = get(v, name);
        if (!p) throw new DomainError('not_found', `prompt "${name}" not found`);
        const a = p.arguments.find((x) => x.name === argument);
        if (!a) throw new DomainError('validation', `prompt "${name}" has no argument "${argument}"`);
        void context; // choices are static per argument; context is accepted for clients that send it
        return rankCompletions(completionCandidates(a), value);
      },
    };
  }

  const production = viewOf(PRODUCTION);

  /** Labels a session may ask for: every label some prompt carries, plus `production` and `latest`. */
  async function knownLabels(): Promise<string[]> {
    return [...new Set([PRODUCTION, LATEST, ...(await source.labels())])].sort(compareNames);
  }

  return {
    /** Loads the production view once and starts following the change log. */
    ready: () => production.ready(),
    /** A label's view (loaded on its first ready()); `latest` is every prompt's newest version. */
    view: (label: string): CatalogView => (label === PRODUCTION ? production : viewOf(label)),
    knownLabels,
    /** How a rendering under `label` resolves includes (REST previews and served reads render through it). */
    includes: (label: string = PRODUCTION, scope?: Pick<McpScope, 'tags'> | null): IncludeContext => includeContext(label, scope),
    /**
     * Follows the change log from now on. The feed calls its subscribers in order and
     * waits for each, so a subscriber added after this hears of a change only once
     * the views have applied it.
     */
    follow,
    /**
     * The view of a label a client asked for, loaded: not_found naming the known labels
     * when no prompt carries it (`production` and `latest` always exist).
     */
    async open(label: string): Promise<CatalogView> {
      if (!views.get(label)?.loaded) {
        const known = await knownLabels();
        if (!known.includes(label)) {
          throw unknownLabel(label, known);
        }
      }
      const v = label === PRODUCTION ? production : viewOf(label);
      await v.ready();
      return v;
    },
    onServedChange(fn: ServedChangeListener): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    /** What is held in memory, for benchmarks and diagnostics. */
    stats: () => ({ views: views.size, versions: entries.size, parsed: parsed.size, listeners: listeners.size, docs: entries.stats() }),
    size: () => production.size(),
    list: (opts: { cursor?: string; limit: number }) => production.list(opts),
    find: (name: string) => production.find(name),
    render: (name: string, args: Record<string, ArgumentValue>, served?: (version: number, versionId?: number) => void) => production.render(name, args, served),
    complete: (name: string, argument: string, value: string, context: Record<string, string> = {}) => production.complete(name, argument, value, context),
  };
}

export type ServedCatalog = ReturnType<typeof createServedCatalog>;

/**
 * A view as one MCP client's scope sees it: only the prompts carrying one of the
 * scope's tags. A prompt outside the scope is absent, exactly like one that does not
 * exist (the same not_found), so a client learns nothing of it.
 */
export function scopedView(view: CatalogView, scope: Pick<McpScope, 'tags'> | null | undefined): CatalogView {
  if (!scope?.tags) return view;
  const tags = scope.tags;
  const visible = (name: string) => {
    const t = view.tagsOf(name);
    return t !== undefined && tagsInScope(scope, t);
  };
  // The same message as the view's own for a prompt it does not serve.
  const absent = (name: string) =>
    new DomainError('not_found', `prompt "${name}" not found: no prompt with that name is served${view.label === PRODUCTION ? '' : ` under label "${view.label}"`} (prompts/list shows what is served)`);
  return {
    label: view.label,
    ready: () => view.ready(),
    size: () => view.size(),
    list: (opts) => view.list({ ...opts, tags }),
    search: (opts) => view.search({ ...opts, tags }),
    tagsOf: (name) => (visible(name) ? view.tagsOf(name) : undefined),
    find: (name) => (visible(name) ? view.find(name) : undefined),
    async render(name, args, served) {
      if (!visible(name)) throw absent(name);
      // The scope stops at the prompt's includes too: another team's text is not rendered.
      return view.render(name, args, served, scope);
    },
    complete(name, argument, value, context) {
      if (!visible(name)) throw new DomainError('not_found', `prompt "${name}" not found`);
      return view.complete(name, argument, value, context);
    },
  };
}

const PARSED_MAX = 5_000;
const NO_TAGS: readonly string[] = Object.freeze([]);

interface Row {
  name: string;
  versionId: number;
  tags: string[];
  /** the version as the store's compact document (ServedSource.decode reads it) */
  doc: string;
}

function upperBound(arr: string[], key: string): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Prefix matches first, then substring matches; case-insensitive; at most 100. */
export function rankCompletions(candidates: readonly string[], value: string): CompletionResult {
  const v = value.toLowerCase();
  const prefix: string[] = [];
  const substring: string[] = [];
  for (const c of candidates) {
    const l = c.toLowerCase();
    if (l.startsWith(v)) prefix.push(c);
    else if (l.includes(v)) substring.push(c);
  }
  const all = [...prefix, ...substring];
  return { values: all.slice(0, MAX_COMPLETIONS), total: all.length, hasMore: all.length > MAX_COMPLETIONS };
}
