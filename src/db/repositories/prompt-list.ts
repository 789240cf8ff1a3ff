// The admin prompt list: filters, search, sort and keyset paging in one SQL WHERE, shared
// by the page query and the total count so the two always agree. q= is a plain LIKE on
// both databases: the search text is stored lowercased and q is lowercased the same way
// (prompt-search.ts), so no per-row lower()/ILIKE is needed. Where the dialect has a
// separate text index (SQLite's FTS5 trigram table), the index narrows a q= whose
// candidates are few (searchPlan). A q= that no index serves (1–2 characters) reads a
// bounded number of rows per request when the caller asks for it (scanLimit).
import { Prisma, type Tx } from '../prisma.js';
import type { Dialect } from '../dialect.js';
import type { PromptListFilter, PromptListKey, PromptListPage, PromptSort } from '../../core/ports.js';
import { containsPattern } from './prompt-search.js';
import { PRODUCTION } from './labels-repo.js';
import { parseTags } from './prompts-repo.js';

/**
 * A q= whose text index yields at most this many candidate prompts is looked up through
 * the index (each candidate read and checked). With more, the index would hand over most
 * prompts, all read and sorted (SQLite, 100k prompts, `severity`: ~0.9 s), so the list
 * walks its order with the LIKE alone, which a frequent q stops early.
 */
const MAX_CANDIDATES = 2000;

type Search = 'indexed' | 'like-only';

/** Whether the index narrows this q= (see MAX_CANDIDATES): one bounded read of the index. */
async function searchPlan(tx: Tx, d: Dialect, f: PromptListFilter): Promise<Search> {
  const candidates = f.q ? d.searchCandidates(f.q.toLowerCase()) : undefined;
  if (!candidates) return 'like-only';
  const [row] = await tx.$queryRaw<{ n: number | bigint }[]>(Prisma.sql`SELECT COUNT(*) AS "n" FROM (${candidates} LIMIT ${MAX_CANDIDATES + 1}) c`);
  return Number(row?.n ?? 0) <= MAX_CANDIDATES ? 'indexed' : 'like-only';
}

const likeQ = (q: string) => Prisma.sql`p."searchText" LIKE ${containsPattern(q)} ESCAPE '\\'`;

function where(d: Dialect, f: PromptListFilter, after: PromptListKey | undefined, search: Search): Prisma.Sql {
  const candidates = f.q && search === 'indexed' ? d.searchCandidates(f.q.toLowerCase()) : undefined;
  // An indexed q= has few candidates (MAX_CANDIDATES at most), status=inactive usually few
  // prompts (drafts): the page comes from probing those. SQLite without statistics would
  // rather walk the (deletedAt, name) index in order and test every live prompt (all
  // 100,000 for a rare q), so there the deletedAt test is kept off the index.
  const fewRows = candidates !== undefined || f.status === 'inactive';
  const deletedAt = fewRows ? Prisma.raw(d.sql.noIndex('p."deletedAt"')) : Prisma.sql`p."deletedAt"`;
  const parts: Prisma.Sql[] = [f.deleted ? Prisma.sql`${deletedAt} IS NOT NULL` : Prisma.sql`${deletedAt} IS NULL`];
  if (f.archived !== undefined) parts.push(f.archived ? Prisma.sql`p."archived" = ${true}` : Prisma.sql`p."archived" = ${false}`);
  if (f.status === 'inactive') parts.push(Prisma.sql`p."activeVersionId" IS NULL`);
  // Prompt.pending is kept by the write path (bumpLatest, label moves) with an index of
  // its own: the few pending prompts, not a probe of every prompt's active version.
  if (f.status === 'pending') parts.push(Prisma.sql`p."pending" = ${true}`);
  // `production` is mirrored into Prompt.activeVersionId by every label move
  // (labels-repo.ts; status=inactive relies on the same mirror): a column test instead
  // of a probe of the label table per prompt, and SQLite no longer builds a Bloom filter
  // of the whole label table for a walk that stops after a page or a scan limit.
  if (f.label === PRODUCTION) parts.push(Prisma.sql`p."activeVersionId" IS NOT NULL`);
  else if (f.label !== undefined) parts.push(Prisma.sql`EXISTS (SELECT 1 FROM "PromptLabel" l WHERE l."promptId" = p."id" AND l."name" = ${f.label})`);
  // Tags match [a-z0-9-], so `"tag"` inside the JSON text is that tag exactly.
  if (f.tags?.length) parts.push(Prisma.sql`(${Prisma.join(f.tags.map((t) => Prisma.sql`p."tags" LIKE ${`%"${t}"%`}`), ' OR ')})`);
  if (f.q) parts.push(likeQ(f.q));
  if (candidates) parts.push(Prisma.sql`p."id" IN (${candidates})`);
  if (after?.sort === 'name') parts.push(Prisma.sql`p."name" > ${after.name}`);
  if (f.unusedSince) parts.push(Prisma.sql`(p."lastUsedAt" IS NULL OR p."lastUsedAt" < ${f.unusedSince})`);
  if (after?.sort === 'lastUsed') {
    // Never-served prompts come last, by id descending.
    if (after.lastUsedAt === null) parts.push(Prisma.sql`(p."lastUsedAt" IS NULL AND p."id" < ${after.id})`);
    else {
      const at = new Date(after.lastUsedAt);
      parts.push(Prisma.sql`(p."lastUsedAt" < ${at} OR (p."lastUsedAt" = ${at} AND p."id" < ${after.id}) OR p."lastUsedAt" IS NULL)`);
    }
  }
  if (after?.sort === 'updated') {
    const at = new Date(after.updatedAt);
    parts.push(Prisma.sql`(p."updatedAt" < ${at} OR (p."updatedAt" = ${at} AND p."id" < ${after.id}))`);
  }
  return Prisma.join(parts, ' AND ');
}

const ORDER: Record<PromptSort, Prisma.Sql> = {
  name: Prisma.sql`p."name" ASC`,
  updated: Prisma.sql`p."updatedAt" DESC, p."id" DESC`,
  lastUsed: Prisma.sql`CASE WHEN p."lastUsedAt" IS NULL THEN 1 ELSE 0 END ASC, p."lastUsedAt" DESC, p."id" DESC`,
};

/**
 * Prompts with when each was last served, from every instance's usage rows (only when a
 * query needs it): one probe of the (promptId, lastAt) index per prompt, rather than
 * grouping the whole usage table. With `recentUse` (this process's counts not flushed
 * yet), the later of the two, so a prompt just served sorts as served (issue 37.17).
 */
function withLastUsed(d: Dialect, recent: ReadonlyMap<string, Date> | undefined): Prisma.Sql {
  const stored = Prisma.sql`(SELECT MAX(b."lastAt") FROM "UsageBucket" b WHERE b."promptId" = p0."id")`;
  if (!recent?.size) return Prisma.sql`(SELECT p0.*, ${stored} AS "lastUsedAt" FROM "Prompt" p0) p`;
  const [before, after] = d.sql.instantParam;
  const values = Prisma.join([...recent].map(([name, at]) => Prisma.sql`(${name}, ${Prisma.raw(before)}${at}${Prisma.raw(after)})`));
  return Prisma.sql`(SELECT p1.*, CASE WHEN p1."pendingAt" IS NOT NULL AND (p1."storedAt" IS NULL OR p1."pendingAt" > p1."storedAt") THEN p1."pendingAt" ELSE p1."storedAt" END AS "lastUsedAt"
    FROM (SELECT p0.*, ${stored} AS "storedAt", r."at" AS "pendingAt" FROM "Prompt" p0
      LEFT JOIN (SELECT v.column1 AS "name", v.column2 AS "at" FROM (VALUES ${values}) v) r ON r."name" = p0."name") p1) p`;
}
const needsLastUsed = (f: PromptListFilter, sort?: PromptSort) => sort === 'lastUsed' || f.unusedSince !== undefined;
const from = (d: Dialect, f: PromptListFilter, sort?: PromptSort) => (needsLastUsed(f, sort) ? withLastUsed(d, f.recentUse) : Prisma.sql`"Prompt" p`);

/**
 * The columns a bounded scan's window hands on: the sort keys and the search text. Not
 * `p.*`: SQLite copies every column of each of the window's rows into its co-routine
 * (about a quarter of the statement's CPU at 5,000 rows).
 */
const windowColumns = (f: PromptListFilter, sort: PromptSort) =>
  needsLastUsed(f, sort)
    ? Prisma.sql`p."id", p."name", p."updatedAt", p."searchText", p."lastUsedAt"`
    : Prisma.sql`p."id", p."name", p."updatedAt", p."searchText"`;

/**
 * The q= of a bounded scan (see promptPageIds), or undefined: a q= that no index serves
 * reads every row's text (SQLite ~35 ms, PostgreSQL ~90 ms at 100,000 prompts), so with
 * a scan limit it reads that many rows per request instead.
 */
const scanned = (d: Dialect, f: PromptListFilter, scanLimit?: number) =>
  f.q && scanLimit !== undefined && !d.searchIndexed(f.q.toLowerCase()) ? f.q : undefined;

/**
 * The catalog's change marker (PromptRepository.changeMarker): the newest change event's
 * id, one probe of the primary key's end. As a column of a statement it is read with the
 * statement's own snapshot (once per statement: an uncorrelated subquery).
 */
const MARKER = Prisma.sql`(SELECT COALESCE(MAX(e."id"), 0) FROM "ChangeEvent" e)`;

export async function changeMarker(tx: Tx): Promise<number> {
  const [row] = await tx.$queryRaw<{ m: number | bigint }[]>(Prisma.sql`SELECT ${MARKER} AS "m"`);
  return Number(row?.m ?? 0);
}

/**
 * The last row a bounded scan read (its id; with its sort keys when the query had them at
 * hand). With `stretch` (the one-walk scan, when asked): the count of the window's first
 * scanLimit + 1 rows (countPrompts) from what the scan read, and the change marker as the
 * scan's statement saw it.
 */
export type ScanStop = { id: number; name?: string; updatedAt?: Date; stretch?: { matches: number; marker: number } };

/**
 * Ids of one page, in order. A bounded scan (q= with no index, `scanLimit`) reads the
 * first scanLimit rows of the window (the filters and cursor without q) and keeps those
 * matching; when fewer than `limit` match and more rows follow, `stoppedAfter` is the
 * last row read.
 */
export async function promptPageIds(
  tx: Tx, d: Dialect, f: PromptListFilter, opts: { sort: PromptSort; after?: PromptListKey; limit: number; scanLimit?: number; stretch?: boolean },
): Promise<{ ids: number[]; stoppedAfter?: ScanStop }> {
  const q = scanned(d, f, opts.scanLimit);
  if (q === undefined) {
    const w = where(d, f, opts.after, await searchPlan(tx, d, f));
    const rows = await tx.$queryRaw<{ id: number }[]>(Prisma.sql`SELECT p."id" AS "id" FROM ${from(d, f, opts.sort)} WHERE ${w} ORDER BY ${ORDER[opts.sort]} LIMIT ${opts.limit}`);
    return { ids: rows.map((r) => Number(r.id)) };
  }
  const window = where(d, { ...f, q: undefined }, opts.after, 'like-only');
  if (d.sql.streamingRowNumber) return scanInOneWalk(tx, d, f, window, q, { ...opts, scanLimit: opts.scanLimit! });
  const base = Prisma.sql`SELECT ${windowColumns(f, opts.sort)} FROM ${from(d, f, opts.sort)} WHERE ${window} ORDER BY ${ORDER[opts.sort]}`;
  const rows = await tx.$queryRaw<{ id: number }[]>(
    Prisma.sql`SELECT p."id" AS "id" FROM (${base} LIMIT ${opts.scanLimit}) p WHERE ${likeQ(q)} ORDER BY ${ORDER[opts.sort]} LIMIT ${opts.limit}`,
  );
  const ids = rows.map((r) => Number(r.id));
  if (ids.length >= opts.limit) return { ids };
  // Too few matches: did the scan stop at its limit with rows left, or reach the end?
  // (the scanLimit-th row, and whether another follows it). The inner LIMIT keeps the
  // walk of the sort's index: with a plain OFFSET, SQLite sorted the whole table instead
  // (26 ms of CPU at 100,000 prompts, against 0.7 ms).
  const [last, next] = await tx.$queryRaw<{ id: number }[]>(
    Prisma.sql`SELECT p."id" AS "id" FROM (${base} LIMIT ${opts.scanLimit! + 1}) p ORDER BY ${ORDER[opts.sort]} LIMIT 2 OFFSET ${opts.scanLimit! - 1}`,
  );
  return last && next ? { ids, stoppedAfter: { id: Number(last.id) } } : { ids };
}

/**
 * A bounded scan's page and where it stopped in one walk of the window (dialects whose
 * ROW_NUMBER streams, Dialect.sql.streamingRowNumber): the window's first scanLimit + 1
 * rows in the sort's order, each with whether it matches and its position; kept are the
 * matches among the first scanLimit and the rows at scanLimit and scanLimit + 1, in
 * order, at most limit + 2 of them. The same rows as the two statements above (the page,
 * then the scanLimit-th row and whether one follows), read once instead of twice, and
 * the stop row's sort keys come with it (no lookup of its key afterwards). A frequent q
 * stops after its page: the outer LIMIT stops the walk, as the page query's does.
 * With `stretch`, the two stop rows also bring the change marker, and the scan that
 * stopped knows the count of its stretch: its matches and whether the (scanLimit + 1)-th
 * row matches (ScanStop.stretch). SQLite's two statements do not (the second would need
 * the text test and the marker a read before the first: ~1 ms of CPU per first page).
 */
async function scanInOneWalk(
  tx: Tx, d: Dialect, f: PromptListFilter, window: Prisma.Sql, q: string, opts: { sort: PromptSort; limit: number; scanLimit: number; stretch?: boolean },
): Promise<{ ids: number[]; stoppedAfter?: ScanStop }> {
  const { sort, limit, scanLimit } = opts;
  const keys = needsLastUsed(f, sort) ? Prisma.sql`p."id", p."name", p."updatedAt", p."lastUsedAt"` : Prisma.sql`p."id", p."name", p."updatedAt"`;
  const marker = opts.stretch ? Prisma.sql`, CASE WHEN p."n" >= ${scanLimit} THEN ${MARKER} END AS "marker"` : Prisma.empty;
  const rows = await tx.$queryRaw<{ id: number; name: string; updatedAt: Date | string; hit: boolean; n: number | bigint; marker?: number | bigint | null }[]>(Prisma.sql`
    SELECT p."id" AS "id", p."name" AS "name", p."updatedAt" AS "updatedAt", p."hit" AS "hit", p."n" AS "n"${marker} FROM (
      SELECT ${keys}, p."hit", ROW_NUMBER() OVER (ORDER BY ${ORDER[sort]}) AS "n" FROM (
        SELECT ${keys}, ${likeQ(q)} AS "hit" FROM ${from(d, f, sort)} WHERE ${window} ORDER BY ${ORDER[sort]} LIMIT ${scanLimit + 1}
      ) p
    ) p WHERE (p."hit" AND p."n" <= ${scanLimit}) OR p."n" >= ${scanLimit} ORDER BY ${ORDER[sort]} LIMIT ${limit + 2}`);
  const ids = rows.filter((r) => r.hit && Number(r.n) <= scanLimit).slice(0, limit).map((r) => Number(r.id));
  if (ids.length >= limit) return { ids };
  const last = rows.find((r) => Number(r.n) === scanLimit);
  const next = rows.find((r) => Number(r.n) === scanLimit + 1);
  if (!last || !next) return { ids };
  const stretch = opts.stretch && next.marker != null ? { stretch: { matches: ids.length + (next.hit ? 1 : 0), marker: Number(next.marker) } } : {};
  return { ids, stoppedAfter: { id: Number(last.id), name: last.name, updatedAt: new Date(last.updatedAt), ...stretch } };
}

/**
 * How many prompts match. With `upTo` the count stops at that many matching rows: a
 * frequent q= then reads the rows up to its upTo-th match instead of every row. A
 * bounded scan (q= with no index, `scanLimit`) counts the matches among the first
 * scanLimit rows in the `sort` order.
 */
export async function countPrompts(
  tx: Tx, d: Dialect, f: PromptListFilter, opts: { upTo?: number; scanLimit?: number; sort?: PromptSort; marker?: boolean } = {},
): Promise<{ n: number; partial: boolean; marker?: number }> {
  const { upTo, scanLimit, sort = 'name' } = opts;
  const q = scanned(d, f, scanLimit);
  // With `marker`, the change marker read in the count's own statement.
  const column = opts.marker ? Prisma.sql`, ${MARKER} AS "marker"` : Prisma.empty;
  const markerOf = (row: { marker?: number | bigint } | undefined) => (opts.marker ? { marker: Number(row?.marker ?? 0) } : {});
  if (q !== undefined) {
    // The first scanLimit rows in the list's order: the rows the first page searched,
    // so its matches are among those counted.
    const window = where(d, { ...f, q: undefined }, undefined, 'like-only');
    const [row] = await tx.$queryRaw<{ rows: number | bigint; n: number | bigint | null; marker?: number | bigint }[]>(
      Prisma.sql`SELECT COUNT(*) AS "rows", SUM(CASE WHEN ${likeQ(q)} THEN 1 ELSE 0 END) AS "n"${column} FROM (SELECT ${windowColumns(f, sort)} FROM ${from(d, f, sort)} WHERE ${window} ORDER BY ${ORDER[sort]} LIMIT ${scanLimit! + 1}) p`,
    );
    return { ...scanCount(Number(row?.n ?? 0), Number(row?.rows ?? 0) > scanLimit!, upTo), ...markerOf(row) };
  }
  const w = where(d, f, undefined, await searchPlan(tx, d, f));
  const sql = upTo === undefined
    ? Prisma.sql`SELECT COUNT(*) AS "n"${column} FROM ${from(d, f)} WHERE ${w}`
    : Prisma.sql`SELECT COUNT(*) AS "n"${column} FROM (SELECT 1 FROM ${from(d, f)} WHERE ${w} LIMIT ${upTo}) capped`;
  const [row] = await tx.$queryRaw<{ n: number | bigint; marker?: number | bigint }[]>(sql);
  const n = Number(row?.n ?? 0);
  return { n, partial: upTo !== undefined && n >= upTo, ...markerOf(row) };
}

/** A bounded scan's count: `n` matches among the window's first scanLimit + 1 rows; `more`: it has more rows than scanLimit. */
export const scanCount = (n: number, more: boolean, upTo: number | undefined) => {
  const capped = upTo !== undefined && n >= upTo;
  return { n: capped ? upTo : n, partial: capped || more };
};

/** The later of a stored and a pending last use. */
export const laterOf = (stored: Date | null, pending: Date | undefined): Date | null =>
  pending !== undefined && (stored === null || pending.getTime() > stored.getTime()) ? pending : stored;

export const keyOf = (sort: PromptSort, p: { id: number; name: string; updatedAt: Date }, lastUsedAt: Date | null): PromptListKey =>
  sort === 'name'
    ? { sort, name: p.name }
    : sort === 'lastUsed'
      ? { sort, lastUsedAt: lastUsedAt ? lastUsedAt.toISOString() : null, id: p.id }
      : { sort, updatedAt: p.updatedAt.toISOString(), id: p.id };

type SummaryRow = {
  id: number; name: string; archived: boolean | number; latestVersion: number; updatedAt: Date; tags: string;
  deletedAt: Date | null; deletedBy: string | null; activeVersion: number | null; title: string | null; description: string | null;
  lastUsedAt: Date | string | null;
};

/**
 * The summaries of one page's prompts, in the order of `ids`: the prompt, its active
 * version's number and its latest version's title and description in one query (it was
 * three through Prisma: the prompts, their active versions, their latest versions, each
 * a round trip and a pass of Prisma's result mapping), with when each was last served
 * (one probe of the (promptId, lastAt) index per prompt, as withLastUsed does; it was a
 * fourth query, a grouped read of the page's usage rows), or when this process served it
 * since its last flush (`recentUse`), whichever is later.
 */
export async function pageSummaries(tx: Tx, ids: number[], sort: PromptSort, recentUse?: ReadonlyMap<string, Date>): Promise<PromptListPage['rows']> {
  if (!ids.length) return [];
  const rows = await tx.$queryRaw<SummaryRow[]>(Prisma.sql`
    SELECT p."id" AS "id", p."name" AS "name", p."archived" AS "archived", p."latestVersion" AS "latestVersion", p."updatedAt" AS "updatedAt",
      p."tags" AS "tags", p."deletedAt" AS "deletedAt", p."deletedBy" AS "deletedBy",
      av."number" AS "activeVersion", lv."title" AS "title", lv."description" AS "description",
      (SELECT MAX(b."lastAt") FROM "UsageBucket" b WHERE b."promptId" = p."id") AS "lastUsedAt"
    FROM "Prompt" p
    LEFT JOIN "PromptVersion" av ON av."id" = p."activeVersionId"
    LEFT JOIN "PromptVersion" lv ON lv."promptId" = p."id" AND lv."number" = p."latestVersion"
    WHERE p."id" IN (${Prisma.join(ids)})`);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const updatedAt = new Date(r.updatedAt);
    const lastUsedAt = laterOf(r.lastUsedAt === null ? null : new Date(r.lastUsedAt), recentUse?.get(r.name));
    const summary = {
      name: r.name,
      title: r.title ?? null,
      description: r.description ?? null,
      activeVersion: r.activeVersion === null ? null : Number(r.activeVersion),
      latestVersion: Number(r.latestVersion),
      archived: Boolean(Number(r.archived)),
      updatedAt,
      tags: parseTags(r.tags),
      ...(r.deletedAt ? { deletedAt: new Date(r.deletedAt), deletedBy: r.deletedBy } : {}),
      lastUsedAt,
    };
    return [{ summary, key: keyOf(sort, { id, name: r.name, updatedAt }, lastUsedAt) }];
  });
}
