// What MCP serves: the active version of every unarchived prompt, compiled and kept
// in memory so prompts/list and prompts/get never touch the database in the steady
// state. Reloaded per prompt from the change log.
import type { Db } from '../db/create-db.js';
import type { ChangeFeed } from './change-feed.js';
import type { CursorCodec } from './cursor.js';
import { DomainError } from './errors.js';
import { renderVersion, type ResourceResolver } from './render.js';
import { toVersion, type VersionRow } from './repo/prompts-repo.js';
import type { Argument, ChangeEvent, RenderedPrompt, Version } from './types.js';
import type { Icon } from './schemas.js';

export interface ServedPrompt {
  name: string;
  title: string | null;
  description: string | null;
  icons: Icon[] | null;
  arguments: Argument[];
  version: Version;
}

export interface CompletionResult {
  values: string[];
  total: number;
  hasMore: boolean;
}

const MAX_COMPLETIONS = 100;

export function createServedCatalog({ db, feed, resolver, cursors }: { db: Db; feed: ChangeFeed; resolver: ResourceResolver; cursors: CursorCodec }) {
  // name → the active version as the database's JSON text, parsed on use: ~3× less
  // memory than parsed objects at 100k prompts, and no parsing at start. Parsed
  // prompts are kept in a bounded LRU, so hot prompts are parsed once.
  const byName = new Map<string, string>();
  const parsed = new Map<string, ServedPrompt>();
  let sorted: string[] = [];
  const listeners = new Set<(events: ChangeEvent[]) => void>();
  let loaded: Promise<void> | undefined;
  let changedWhileLoading: Set<string> | undefined;

  const toServed = (name: string, row: VersionRow): ServedPrompt => {
    const version = toVersion(row);
    return { name, title: version.title, description: version.description, icons: version.icons, arguments: version.arguments, version };
  };

  /**
   * `keep`: remember the parsed prompt (prompts/get, completion). Listing pages parse
   * without keeping, so a client walking 100k prompts leaves only short-lived garbage
   * instead of promoting every prompt into the old generation on its way out.
   */
  function get(name: string, keep = true): ServedPrompt | undefined {
    let p = parsed.get(name);
    if (p) {
      if (keep) {
        parsed.delete(name);
        parsed.set(name, p);
      }
      return p;
    }
    const json = byName.get(name);
    if (json === undefined) return undefined;
    p = toServed(name, versionRow(JSON.parse(json) as VersionDoc));
    if (keep) {
      parsed.set(name, p);
      if (parsed.size > PARSED_MAX) parsed.delete(parsed.keys().next().value!);
    }
    return p;
  }

  /** Served prompts' JSON by name, or all of them (in keyset batches) when `names` is absent. */
  async function loadServed(names?: string[]): Promise<Row[]> {
    const out: Row[] = [];
    const sqlite = db.provider === 'sqlite';
    const ph = (i: number) => (sqlite ? '?' : `$${i}`);
    const take = (rows: Row[]) => {
      for (const r of rows) out.push(r);
    };
    if (names) {
      for (let i = 0; i < names.length; i += NAMES_BATCH) {
        const chunk = names.slice(i, i + NAMES_BATCH);
        take(await db.prisma.$queryRawUnsafe(servedSql(sqlite, `p."name" IN (${chunk.map((_, k) => ph(k + 1)).join(', ')})`), ...chunk));
      }
      return out;
    }
    let after: string | undefined;
    for (;;) {
      const rows = await db.prisma.$queryRawUnsafe<Row[]>(
        `${servedSql(sqlite, after === undefined ? '1 = 1' : `p."name" > ${ph(1)}`)} LIMIT ${LOAD_BATCH}`,
        ...(after === undefined ? [] : [after]),
      );
      take(rows);
      if (rows.length < LOAD_BATCH) return out;
      after = rows.at(-1)!.name;
    }
  }

  function resort() {
    sorted = [...byName.keys()].sort(compareNames);
  }

  // A few names change per write: splice them in and out instead of sorting 100k names.
  function place(name: string, present: boolean) {
    const i = lowerBound(sorted, name);
    if (sorted[i] === name) {
      if (!present) sorted.splice(i, 1);
    } else if (present) sorted.splice(i, 0, name);
  }

  async function onEvents(events: ChangeEvent[]) {
    const names = new Set<string>();
    for (const e of events) {
      if (e.entity !== 'prompt' || !e.served) continue;
      names.add(e.entityKey);
      const from = e.details?.from;
      if (typeof from === 'string') names.add(from);
    }
    if (!names.size) return;
    for (const n of names) changedWhileLoading?.add(n);
    const fresh = await loadServed([...names]);
    for (const n of names) {
      byName.delete(n);
      parsed.delete(n);
    }
    for (const r of fresh) byName.set(r.name, r.version);
    if (names.size > 64) resort();
    else for (const n of names) place(n, byName.has(n));
    const served = events.filter((e) => e.entity === 'prompt' && e.served);
    for (const fn of listeners) fn(served);
  }

  return {
    /** Loads everything once and starts following the change log. */
    ready(): Promise<void> {
      loaded ??= (async () => {
        // Changes that arrive while the batches load are applied by onEvents from a
        // newer read; the (possibly older) batch row of such a name is skipped.
        changedWhileLoading = new Set();
        feed.subscribe(onEvents);
        for (const r of await loadServed()) if (!changedWhileLoading.has(r.name)) byName.set(r.name, r.version);
        changedWhileLoading = undefined;
        resort();
      })();
      return loaded;
    },
    onServedChange(fn: (events: ChangeEvent[]) => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    size: () => sorted.length,
    list(opts: { cursor?: string; limit: number }): { prompts: ServedPrompt[]; nextCursor?: string } {
      const after = opts.cursor !== undefined ? cursors.decode<string>('mcp-prompts', opts.cursor) : undefined;
      const start = after === undefined ? 0 : upperBound(sorted, after);
      const names = sorted.slice(start, start + opts.limit);
      const prompts = names.map((n) => get(n, false)!);
      const more = start + opts.limit < sorted.length;
      return { prompts, ...(more && names.length ? { nextCursor: cursors.encode('mcp-prompts', names.at(-1)) } : {}) };
    },
    find(name: string): ServedPrompt | undefined {
      return get(name);
    },
    async render(name: string, args: Record<string, string>): Promise<RenderedPrompt> {
      const p = get(name);
      if (!p) throw new DomainError('not_found', `prompt "${name}" not found: no active prompt has that name (prompts/list shows what is served)`);
      return renderVersion(name, p.version, args, resolver);
    },
    complete(name: string, argument: string, value: string, context: Record<string, string> = {}): CompletionResult {
      const p = get(name);
      if (!p) throw new DomainError('not_found', `prompt "${name}" not found`);
      const a = p.arguments.find((x) => x.name === argument);
      if (!a) throw new DomainError('validation', `prompt "${name}" has no argument "${argument}"`);
      void context; // choices are static per argument; context is accepted for clients that send it
      return rankCompletions(a.choices ?? [], value);
    },
  };
}

export type ServedCatalog = ReturnType<typeof createServedCatalog>;

// Byte-wise comparison, matching SQL's ordering of the same names.
const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const LOAD_BATCH = 2_000;
const PARSED_MAX = 5_000;

interface Row {
  name: string;
  /** VersionDoc as JSON text */
  version: string;
}
// Bound parameters per query stay under SQLite's default limit of 999.
const NAMES_BATCH = 500;

/**
 * One row per served prompt: its name and its active version as one compact JSON
 * array built by the database (arguments and messages in position order). Loading
 * 100k prompts through Prisma's nested includes took ~8 s, and its relation queries
 * bind one parameter per parent row (past the driver's limit beyond ~1,000 rows).
 * `NOT archived` (not `archived = false`) lets SQLite walk the name index, so each
 * batch builds only the documents it returns.
 */
function servedSql(sqlite: boolean, filter: string): string {
  const arr = sqlite ? 'json_array' : 'json_build_array';
  // SQLite: json() keeps a subquery's array an array instead of a string.
  const agg = (expr: string, order: string) => (sqlite ? `json(json_group_array(${expr} ORDER BY ${order}))` : `COALESCE(json_agg(${expr} ORDER BY ${order}), '[]'::json)`);
  const arg = `${arr}(a."name", a."title", a."description", a."required", a."choices", a."maxLength")`;
  const data = sqlite ? 'hex(m."data")' : `encode(m."data", 'hex')`;
  const msg = `${arr}(m."role", m."type", m."text", ${data}, m."mimeType", m."annotations", b."uri")`;
  return `SELECT p."name" AS "name", ${arr}(
      v."number", v."title", v."description", v."icons", v."note", v."author", v."createdAt",
      (SELECT ${agg(arg, 'a."position"')} FROM "PromptArgument" a WHERE a."versionId" = v."id"),
      (SELECT ${agg(msg, 'm."position"')} FROM "PromptMessage" m LEFT JOIN "ResourceBinding" b ON b."messageId" = m."id" WHERE m."versionId" = v."id")
    )${sqlite ? '' : '::text'} AS "version"
    FROM "Prompt" p JOIN "PromptVersion" v ON v."id" = p."activeVersionId"
    WHERE NOT p."archived" AND ${filter}
    ORDER BY p."name"`;
}

type S = string | null;
/** [number, title, description, icons, note, author, createdAt, arguments, messages] */
type VersionDoc = [number, S, S, S, S, S, string | number, [string, S, S, boolean | number, S, number | null][], [string, string, S, S, S, S, S][]];

// SQLite stores Prisma's DateTime as ISO text (or epoch ms); PostgreSQL's
// timestamp(3) comes without a zone and is UTC.
const dbDate = (v: string | number) => new Date(typeof v === 'number' || /(Z|[+-]\d\d:?\d\d)$/i.test(v) ? v : `${v.replace(' ', 'T')}Z`);

/** The shape Prisma's `versionInclude` returns, so toVersion stays the one mapping. */
const versionRow = ([number, title, description, icons, note, author, createdAt, args, messages]: VersionDoc) =>
  ({
    number,
    title,
    description,
    icons,
    note,
    author,
    createdAt: dbDate(createdAt),
    arguments: args.map(([name, title, description, required, choices, maxLength]) => ({ name, title, description, required: Boolean(required), choices, maxLength })),
    messages: messages.map(([role, type, text, data, mimeType, annotations, uri]) => ({
      role,
      type,
      text,
      data: data ? Buffer.from(data, 'hex') : null,
      mimeType,
      annotations,
      binding: uri == null ? null : { uri },
    })),
  }) as unknown as VersionRow;

function lowerBound(arr: string[], key: string): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
