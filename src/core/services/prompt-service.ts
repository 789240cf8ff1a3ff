// One function per use case; the REST API, the MCP server, the CLI and the importer all call these.
import type { KnownLabels } from '../known-labels.js';
import { createHash } from 'node:crypto';
import { badRequest, DomainError, notFound } from '../errors.js';
import { parseDuration } from '../usage/usage-service.js';
import type { CursorCodec } from '../cursor.js';
import type { ChangeFeed } from '../change-feed.js';
import type { ResourceResolver } from '../render.js';
import { renderVersion } from '../render.js';
import type { NewChangeEvent, PromptListFilter, PromptListKey, PromptListPage, PromptSort, PromptStatus, Repositories, Store } from '../ports.js';
import type { CreatePromptInput, RenderInput, UpdatePromptInput, VersionInput } from '../schemas.js';
import { LIMITS, PRODUCTION, normalizeTags } from '../schemas.js';
import type { Actor, Page, PromptDetail, PromptSummary, RenderedPrompt, Version, VersionSummary } from '../types.js';
import { nameConflict, noSuchVersion, writeVersions, type VersionWrite } from './version-writes.js';
import { etagOf, parseEtag } from './etag.js';
import { moveEvent, writeLabelMoves } from './label-moves.js';
import { defaultLabelPolicy, type LabelPolicy } from '../label-policy.js';
import { gatedWrite } from '../checks/gated-write.js';
import { gatedVersionWrite } from '../checks/gated-version-write.js';
import { createPromptBin, type PromptBinDeps } from './prompt-bin.js';
import { dependentsOf, refuseIfIncluded, resolveStored, type Dependent } from './include-checks.js';
import { includeRefsOf } from '../catalog-includes.js';
import { formatIncludeRef } from '../include-ref.js';
import type { IncludeContext } from '../render-includes.js';

/** A q= search counts its matches up to this many; beyond, the total is this and a lower bound. */
export const SEARCH_TOTAL_CAP = 1000;
/**
 * A q= that no index serves (1–2 characters) reads at most this many prompts per
 * request: at 100,000 prompts a full read of their text took 35 ms (SQLite) to 95 ms
 * (PostgreSQL), above the 20 ms target (issue 21); 5,000 took 4–9 ms on a quiet machine. A page that holds fewer matches says
 * the search is incomplete, and its cursor continues it.
 */
export const SEARCH_SCAN_LIMIT = 5_000;

export interface PromptServiceDeps {
  store: Pick<Store, 'read' | 'write'>;
  cursors: CursorCodec;
  feed: ChangeFeed;
  resolver: ResourceResolver;
  policy?: LabelPolicy;
  bin?: Pick<PromptBinDeps, 'retentionDays' | 'now'>;
  /** How previews resolve includes (the served catalog's, per label); without it they cannot render includes. */
  includes?: (label: string) => IncludeContext;
  /** Prompts a q= with no index reads per request (default SEARCH_SCAN_LIMIT; tests lower it). */
  searchScanLimit?: number;
  /** When prompts were last served by this process, counts not flushed yet (the usage recorder's): lastUsed and unusedFor merge them. */
  recentUse?: () => ReadonlyMap<string, Date>;
  /** A label filter must name a label that exists (src/core/known-labels.ts). */
  knownLabels?: Pick<KnownLabels, 'require'>;
}

/** One include of a version and what it resolves to as stored now. */
export interface IncludeInfo {
  /** as written: `name`, `name@label`, `name@3` */
  include: string;
  prompt: string;
  label: string | null;
  pinnedVersion: number | null;
  /** the version it resolves to now (unpinned: production, else latest); null when broken */
  resolvedVersion: number | null;
  problem: string | null;
}

/** The cutoff of `?unusedFor=`, or a validation error naming the parameter. */
function unusedSince(duration: string, now: () => Date = () => new Date()): Date {
  const ms = parseDuration(duration);
  if (ms === undefined) throw new DomainError('validation', `unusedFor: a duration such as 30d, 12h, 2w or 90m (got "${duration}")`, [{ path: 'unusedFor', message: 'a duration such as 30d, 12h, 2w or 90m' }]);
  return new Date(now().getTime() - ms);
}

export interface PromptListResult extends Page<PromptSummary> {
  total: number;
  totalIsLowerBound: boolean;
  /** A q= with no index stopped after reading its scan limit of prompts; nextCursor continues it. */
  searchIncomplete: boolean;
  /** With searchIncomplete: the last prompt it read, in the list's order. */
  searchedThrough: string | null;
}

export interface PromptListOptions {
  q?: string;
  archived?: boolean;
  /** only prompts carrying one of these tags */
  tags?: string[];
  label?: string;
  deleted?: boolean;
  status?: PromptStatus;
  sort?: PromptSort;
  /** only prompts not served within this duration (`30d`, `12h`…), never-served ones included */
  unusedFor?: string;
  limit?: number;
  cursor?: string;
}

/** A new version and the prompt's ETag as of the same transaction. */
export interface VersionCreated {
  created: Version;
  etag: string;
}

export { etagOf };

/**
 * A later page's count, carried in its cursor: [n, partial (0/1), the change marker read
 * before it was counted, the key of the filter and counting options it counted]. The
 * cursor is signed, so a client cannot make one up; the key keeps it from another query's
 * list. Cursors of earlier builds have none (the page counts).
 */
type CarriedCount = [n: number, partial: 0 | 1, marker: number, key: string];
type ListCursor = PromptListKey & { c?: CarriedCount };
type Counted = { n: number; partial: boolean; marker?: number; key?: string };

/** The key a carried count must match: a hash of what the count counted. */
function countKeyOf(filter: PromptListFilter, counting: { upTo?: number; scanLimit?: number; sort: PromptSort }): string {
  const f = [filter.q ?? null, filter.archived ?? null, filter.label ?? null, filter.tags ?? null, filter.deleted ?? null, filter.status ?? null];
  return createHash('sha256').update(JSON.stringify([...f, counting.upTo ?? null, counting.scanLimit ?? null, counting.sort])).digest('base64url').slice(0, 8);
}

function splitCursor(v: ListCursor | undefined): { after?: PromptListKey; carried?: Counted } {
  if (v === undefined || v === null || typeof v !== 'object') return { after: v };
  const { c, ...after } = v;
  const ok = Array.isArray(c) && c.length === 4 && Number.isSafeInteger(c[0]) && c[0] >= 0 && (c[1] === 0 || c[1] === 1) && Number.isSafeInteger(c[2]) && typeof c[3] === 'string';
  return { after: after as PromptListKey, ...(ok ? { carried: { n: c[0], partial: c[1] === 1, marker: c[2], key: c[3] } } : {}) };
}

const withCount = (key: PromptListKey, counted: Counted | undefined, countKey: string | undefined): ListCursor =>
  countKey === undefined || counted?.marker === undefined ? key : { ...key, c: [counted.n, counted.partial ? 1 : 0, counted.marker, countKey] };

export function clampLimit(limit: number | undefined, fallback = 50): number {
  if (limit === undefined) return fallback;
  return Math.max(1, Math.min(LIMITS.pageSizeMax, Math.floor(limit)));
}

export function createPromptService({ store, cursors, feed, resolver, policy = defaultLabelPolicy, bin, includes, searchScanLimit = SEARCH_SCAN_LIMIT, knownLabels, recentUse }: PromptServiceDeps) {
  const { read } = store;
  const promptBin = createPromptBin({ store, feed, ...bin });
  const mustFind = async (repos: Repositories, name: string) => {
    const p = await repos.prompts.head(name);
    if (!p) throw notFound(`prompt "${name}"`);
    return p;
  };
  const committed = async <T>(result: T): Promise<T> => {
    await feed.poke();
    return result;
  };
  const event = (actor: Actor, action: string, entityKey: string, served: boolean, details?: Record<string, unknown>): NewChangeEvent => ({
    actor: actor.name, action, entity: 'prompt', entityKey, served, ...(details ? { details } : {}),
  });
  /**
   * Tags decide which MCP tokens see a prompt, so a change is a served change (every
   * view reloads the prompt). Nothing is written when the tags stay the same.
   */
  async function retag(tx: Repositories, id: number, name: string, from: string[], to: string[], actor: Actor): Promise<void> {
    if (from.join(',') === to.join(',')) return;
    await tx.prompts.setTags(id, to);
    await tx.events.append([event(actor, 'prompt.tagged', name, true, { from, to })]);
  }
  const detailOf = async (tx: Repositories, name: string) => (await tx.prompts.detail(name))!;

  return {
    async create(input: CreatePromptInput, actor: Actor): Promise<PromptDetail> {
      // With `activate`, the production gate runs before the transaction (checks/gated-version-write.ts).
      const items: VersionWrite[] = [{ name: input.name, mode: 'create', versions: [input], activate: input.activate ? 1 : undefined, force: input.force }];
      const detail = await gatedVersionWrite(store, policy, items, actor, async (tx, checked) => {
        await writeVersions(tx, items, actor, new Date(), checked);
        if (input.tags?.length) {
          const head = (await tx.prompts.head(input.name))!;
          await retag(tx, head.id, input.name, [], normalizeTags(input.tags), actor);
        }
        return detailOf(tx, input.name);
      });
      return committed(detail);
    },

    /** `ifMatch` is the ETag the editor read; a stale one is a 412, never a lost update. */
    async createVersion(name: string, input: VersionInput, actor: Actor, opts: { ifMatch?: string } = {}): Promise<VersionCreated> {
      const expected = opts.ifMatch !== undefined ? parseEtag(opts.ifMatch) : undefined;
      const items: VersionWrite[] = [{ name, mode: 'append', versions: [input], expect: expected !== undefined ? { revision: expected } : undefined, activate: input.activate ? 'newest' : undefined, force: input.force }];
      const result = await gatedVersionWrite(store, policy, items, actor, async (tx, checked) => {
        const at = new Date();
        const [w] = await writeVersions(tx, items, actor, at, checked);
        // From this transaction's own writes: the version as stored, the revision it left.
        const created = tx.prompts.storedVersion({ promptId: 0, name, number: w!.created[0]!, input, author: actor.name }, at);
        return { created, etag: etagOf({ name, revision: w!.revision }) };
      });
      return committed(result);
    },

    async get(name: string): Promise<PromptDetail> {
      const d = await read.prompts.detail(name);
      if (!d) throw notFound(`prompt "${name}"`);
      return d;
    },

    /**
     * `label`: only prompts carrying it. `deleted`: the bin (soft-deleted prompts, with
     * deletedAt and deletedBy) instead of the live prompts. `status`: pending (production
     * behind the latest version), inactive (no production label) or archived. `total`:
     * how many match the filters (not the cursor); for a q= search at most
     * SEARCH_TOTAL_CAP, with totalIsLowerBound when more match. A q= that no index serves
     * reads at most searchScanLimit prompts per page: `searchIncomplete` when they held
     * fewer than a page of matches and more prompts follow (nextCursor continues the
     * search after `searchedThrough`; the total counts the first searchScanLimit prompts
     * and is a lower bound). The cursor carries the sort key, so a cursor of one sort
     * order is refused by another.
     */
    async list(opts: PromptListOptions): Promise<PromptListResult> {
      const limit = clampLimit(opts.limit);
      const sort = opts.sort ?? 'name';
      const scope = `${opts.deleted ? 'admin-prompts-deleted' : 'admin-prompts'}:${sort}`;
      const { after, carried } = splitCursor(opts.cursor ? cursors.decode<ListCursor>(scope, opts.cursor) : undefined);
      if (after && after.sort !== sort) throw badRequest('invalid cursor: it belongs to another sort order', [{ path: 'cursor', message: 'invalid cursor' }]);
      // A typo'd label is a 404 naming the known ones, not an empty list. Checked on the first
      // page only (a label that goes away between pages ends the list), and not in the bin,
      // whose prompts' labels are no longer known ones.
      if (opts.label !== undefined && !opts.cursor && !opts.deleted) await knownLabels?.require(opts.label);
      const filter: PromptListFilter = {
        q: opts.q || undefined,
        archived: opts.status === 'archived' ? true : opts.archived,
        label: opts.label,
        tags: opts.tags?.length ? opts.tags : undefined,
        deleted: opts.deleted,
        status: opts.status === 'archived' ? undefined : opts.status,
        unusedSince: opts.unusedFor === undefined ? undefined : unusedSince(opts.unusedFor, bin?.now),
      };
      // lastUsedAt is the same answer /usage gives: this process's unflushed counts too.
      const recent = recentUse?.();
      if (recent?.size) filter.recentUse = recent;
      // A q= total is counted up to SEARCH_TOTAL_CAP + 1 matches: an exact count of a
      // frequent query reads every prompt's text (issue 21), "1,000+" does not.
      const upTo = filter.q ? SEARCH_TOTAL_CAP + 1 : undefined;
      const scanLimit = filter.q ? searchScanLimit : undefined;
      const counting = { upTo, scanLimit, sort };
      // The count a later page reuses (see CarriedCount): only where every write that can
      // change it moves the change marker, so not with usage (lastUsed, unusedFor).
      const countKey = filter.unusedSince === undefined && sort !== 'lastUsed' ? countKeyOf(filter, counting) : undefined;
      const count = (marker = false) => read.prompts.count(filter, marker ? { ...counting, marker } : counting);
      // A first page with room to spare holds every match it read: its length is the
      // total (a lower bound when the scan stopped early), and the count (a second scan
      // of the same rows, the slow half of a rare q=) is skipped. A full first page is
      // counted by the repository while it reads the page's summaries (`counted`). The
      // count its cursor carries comes with the change marker its statement read (for a
      // scan that stopped, where the scan reads it anyway: the count of its stretch). A
      // later page reuses the carried count while the marker, read beside the page and
      // before any count, is the same; else it counts, as every later page did.
      const [listing, counted, carry] = after
        ? await Promise.all([
          read.prompts.list(filter, { sort, after, limit: limit + 1, scanLimit }),
          countKey === undefined
            ? count()
            : read.prompts.changeMarker().then(async (marker): Promise<Counted> =>
              carried && carried.key === countKey && carried.marker === marker ? carried : { ...(await count()), marker }),
        ]).then(([r, c]) => [r, c, c] as const)
        : await read.prompts.list(filter, { sort, limit: limit + 1, scanLimit, count: countKey === undefined ? counting : { ...counting, marker: true } })
          .then(async (r): Promise<readonly [PromptListPage, Counted, Counted | undefined]> => {
            const full = r.rows.length > limit ? (r.counted ?? (await count(countKey !== undefined))) : undefined;
            return [r, full ?? { n: r.rows.length, partial: r.stoppedAfter !== undefined }, full ?? r.counted];
          });
      const { rows, stoppedAfter } = listing;
      const page = rows.slice(0, limit);
      const totalIsLowerBound = counted.partial;
      // (A later page of an incomplete search may hold more matches than its count of the first stretch.)
      const total = upTo === undefined ? counted.n : Math.min(Math.max(counted.n, page.length), SEARCH_TOTAL_CAP);
      const continueAt = rows.length > limit ? page.at(-1)!.key : stoppedAfter?.key;
      return {
        items: page.map((r) => r.summary),
        nextCursor: continueAt ? cursors.encode(scope, withCount(continueAt, carry, countKey)) : null,
        total,
        totalIsLowerBound,
        searchIncomplete: rows.length <= limit && stoppedAfter !== undefined,
        searchedThrough: rows.length <= limit ? (stoppedAfter?.name ?? null) : null,
      };
    },

    async listVersions(name: string, opts: { limit?: number; cursor?: string }): Promise<Page<VersionSummary>> {
      const limit = clampLimit(opts.limit);
      const p = await mustFind(read, name);
      const before = opts.cursor ? cursors.decode<number>(`versions:${p.id}`, opts.cursor) : undefined;
      const items = await read.prompts.listVersions(p, { before, limit: limit + 1 });
      const more = items.length > limit;
      const page = items.slice(0, limit);
      return { items: page, nextCursor: more ? cursors.encode(`versions:${p.id}`, page.at(-1)!.version) : null };
    },

    async getVersion(name: string, number: number): Promise<Version> {
      const v = await read.prompts.version(name, number);
      if (!v) {
        await mustFind(read, name);
        throw notFound(`version ${number} of prompt "${name}"`);
      }
      return v;
    },

    /** Activates a version, or rolls back to an older one: the same cheap act. */
    async activate(name: string, number: number, actor: Actor, opts: { force?: boolean } = {}): Promise<PromptDetail> {
      policy.authorizeLabelMove(actor, PRODUCTION);
      // The move as writeVersions will make it, planned so its checks run before the
      // write transaction (checks/gated-write.ts); writeVersions gets their result.
      const plan = async (repos: Repositories) => {
        const head = await mustFind(repos, name);
        if (!(await repos.prompts.existingVersions([{ promptId: head.id, number }])).size) throw noSuchVersion(name, number);
        return [{ head, label: PRODUCTION, from: head.activeVersion, to: number }];
      };
      const detail = await gatedWrite(store, policy, plan, opts.force, async (tx, _moves, forced) => {
        const checked: LabelPolicy = { ...policy, gate: policy.gate && (async () => forced) };
        await writeVersions(tx, [{ name, mode: 'append', versions: [], activate: number, force: opts.force }], actor, new Date(), checked);
        return detailOf(tx, name);
      });
      return committed(detail);
    },

    async deactivate(name: string, actor: Actor): Promise<PromptDetail> {
      const detail = await store.write(async (tx) => {
        const p = await mustFind(tx, name);
        if (p.activeVersion !== null) {
          policy.authorizeLabelMove(actor, PRODUCTION);
          const moved = await writeLabelMoves(tx, [{ head: p, label: PRODUCTION, from: p.activeVersion, to: null }], new Date());
          await tx.events.append(moved.map((m) => moveEvent(actor, m, 'alias')));
        }
        return detailOf(tx, name);
      });
      return committed(detail);
    },

    async update(name: string, input: UpdatePromptInput, actor: Actor): Promise<PromptDetail> {
      const detail = await store.write(async (tx) => {
        const p = await mustFind(tx, name);
        // Every unarchived prompt is in the `latest` view, so a rename or an archive
        // toggle always changes something served; the catalog works out which views.
        const events: NewChangeEvent[] = [];
        let current = name;
        if (input.name !== undefined && input.name !== name) {
          if ((await tx.prompts.takenNames([input.name])).length) throw await nameConflict(tx, input.name);
          await refuseIfIncluded(tx, name, 'renamed');
          await tx.prompts.rename(p.id, input.name);
          events.push(event(actor, 'prompt.renamed', input.name, !p.archived, { from: name, to: input.name }));
          current = input.name;
        }
        if (input.archived !== undefined && input.archived !== p.archived) {
          // Archiving takes the prompt out of every label's view (production included),
          // unarchiving puts it back: under a protected label, that is the admin's call.
          const labels = ((await tx.labels.ofPrompts([p.id])).get(p.id) ?? []).map((l) => l.label);
          policy.authorizeServingChange(actor, labels, input.archived ? 'archiving' : 'unarchiving');
          if (input.archived) await refuseIfIncluded(tx, name, 'archived');
          await tx.prompts.setArchived(p.id, input.archived);
          events.push(event(actor, input.archived ? 'prompt.archived' : 'prompt.unarchived', current, true));
        }
        await tx.events.append(events);
        if (input.tags !== undefined) await retag(tx, p.id, current, await tx.prompts.tags(p.id), normalizeTags(input.tags), actor);
        return detailOf(tx, current);
      });
      return committed(detail);
    },

    /** Replaces the prompt's tags (`prompt.tagged` in the change log when they change). */
    async setTags(name: string, tags: string[], actor: Actor): Promise<PromptDetail> {
      const detail = await store.write(async (tx) => {
        const p = await mustFind(tx, name);
        await retag(tx, p.id, name, await tx.prompts.tags(p.id), normalizeTags(tags), actor);
        return detailOf(tx, name);
      });
      return committed(detail);
    },

    /** Soft delete, restore and purge: src/core/services/prompt-bin.ts. */
    delete: promptBin.delete,
    restore: promptBin.restore,
    purgeExpired: promptBin.purgeExpired,
    deletedRetentionDays: promptBin.retentionDays,

    /** Preview: renders the given (or active, else latest) version exactly as prompts/get would. */
    /** `onResolved`: told which version is being rendered before rendering (usage counts it even if rendering fails). */
    async render(name: string, input: RenderInput, onResolved?: (version: number) => void): Promise<RenderedPrompt> {
      const p = await mustFind(read, name);
      const number = input.version ?? p.activeVersion ?? p.latestVersion;
      const v = await read.prompts.version(name, number);
      if (!v) throw noSuchVersion(name, number);
      onResolved?.(number);
      return renderVersion(name, v, input.arguments, resolver, includes?.(PRODUCTION));
    },

    /** Served versions of other prompts that include this one (docs/contracts.md#includes). */
    async dependents(name: string): Promise<Dependent[]> {
      await mustFind(read, name);
      return dependentsOf(read, name);
    },

    /** What a version (default: the production one, else the latest) includes, and what each resolves to. */
    async includes(name: string, number?: number): Promise<{ version: number; includes: IncludeInfo[] }> {
      const p = await mustFind(read, name);
      const n = number ?? p.activeVersion ?? p.latestVersion;
      const v = await read.prompts.version(name, n);
      if (!v) throw noSuchVersion(name, n);
      const out: IncludeInfo[] = [];
      const seen = new Set<string>();
      for (const ref of includeRefsOf(v.messages)) {
        const include = formatIncludeRef(ref);
        if (seen.has(include)) continue;
        seen.add(include);
        const r = await resolveStored(read, ref);
        out.push({
          include,
          prompt: ref.prompt,
          label: ref.label ?? null,
          pinnedVersion: ref.version ?? null,
          resolvedVersion: 'version' in r ? r.version.version : null,
          problem: 'problem' in r ? r.problem : null,
        });
      }
      return { version: n, includes: out };
    },
  };
}

export type PromptService = ReturnType<typeof createPromptService>;
