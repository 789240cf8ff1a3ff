// The admin prompt list: filters, search, sort and keyset paging in one SQL WHERE, shared
// by the page query and the total count so the two always agree. q= is a plain LIKE on
// both databases: the search text is stored lowercased and q is lowercased the same way
// (prompt-search.ts), so no per-row lower()/ILIKE is needed.
import { Prisma, type Tx } from '../prisma.js';
import type { Dialect } from '../dialect.js';
import type { PromptListFilter, PromptListKey, PromptSort } from '../../core/ports.js';
import { containsPattern } from './prompt-search.js';

function where(d: Dialect, f: PromptListFilter, after?: PromptListKey): Prisma.Sql {
  const parts: Prisma.Sql[] = [f.deleted ? Prisma.sql`p."deletedAt" IS NOT NULL` : Prisma.sql`p."deletedAt" IS NULL`];
  if (f.archived !== undefined) parts.push(f.archived ? Prisma.sql`p."archived" = ${true}` : Prisma.sql`p."archived" = ${false}`);
  if (f.status === 'inactive') parts.push(Prisma.sql`p."activeVersionId" IS NULL`);
  if (f.status === 'pending') {
    parts.push(Prisma.sql`EXISTS (SELECT 1 FROM "PromptVersion" av WHERE av."id" = p."activeVersionId" AND av."number" < p."latestVersion")`);
  }
  if (f.label !== undefined) parts.push(Prisma.sql`EXISTS (SELECT 1 FROM "PromptLabel" l WHERE l."promptId" = p."id" AND l."name" = ${f.label})`);
  // Tags match [a-z0-9-], so `"tag"` inside the JSON text is that tag exactly.
  if (f.tags?.length) parts.push(Prisma.sql`(${Prisma.join(f.tags.map((t) => Prisma.sql`p."tags" LIKE ${`%"${t}"%`}`), ' OR ')})`);
  if (f.q) parts.push(Prisma.sql`p."searchText" LIKE ${containsPattern(f.q)} ESCAPE '\\'`);
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
 * query needs it): one probe of the (prompt, lastAt) index per prompt, rather than
 * grouping the whole usage table.
 */
const WITH_LAST_USED = Prisma.sql`(SELECT p0.*, (SELECT MAX(b."lastAt") FROM "UsageBucket" b WHERE b."prompt" = p0."name") AS "lastUsedAt" FROM "Prompt" p0) p`;
const needsLastUsed = (f: PromptListFilter, sort?: PromptSort) => sort === 'lastUsed' || f.unusedSince !== undefined;
const from = (f: PromptListFilter, sort?: PromptSort) => (needsLastUsed(f, sort) ? WITH_LAST_USED : Prisma.sql`"Prompt" p`);

/** Ids of one page, in order. */
export async function promptPageIds(tx: Tx, d: Dialect, f: PromptListFilter, opts: { sort: PromptSort; after?: PromptListKey; limit: number }): Promise<number[]> {
  const rows = await tx.$queryRaw<{ id: number }[]>(Prisma.sql`SELECT p."id" AS "id" FROM ${from(f, opts.sort)} WHERE ${where(d, f, opts.after)} ORDER BY ${ORDER[opts.sort]} LIMIT ${opts.limit}`);
  return rows.map((r) => Number(r.id));
}

/**
 * How many prompts match. With `upTo` the count stops at that many matching rows: a
 * frequent q= then reads the rows up to its upTo-th match instead of every row.
 */
export async function countPrompts(tx: Tx, d: Dialect, f: PromptListFilter, upTo?: number): Promise<number> {
  const sql = upTo === undefined
    ? Prisma.sql`SELECT COUNT(*) AS "n" FROM ${from(f)} WHERE ${where(d, f)}`
    : Prisma.sql`SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM ${from(f)} WHERE ${where(d, f)} LIMIT ${upTo}) capped`;
  const [row] = await tx.$queryRaw<{ n: number | bigint }[]>(sql);
  return Number(row?.n ?? 0);
}

export const keyOf = (sort: PromptSort, p: { id: number; name: string; updatedAt: Date }, lastUsedAt: Date | null): PromptListKey =>
  sort === 'name'
    ? { sort, name: p.name }
    : sort === 'lastUsed'
      ? { sort, lastUsedAt: lastUsedAt ? lastUsedAt.toISOString() : null, id: p.id }
      : { sort, updatedAt: p.updatedAt.toISOString(), id: p.id };
