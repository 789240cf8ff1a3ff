// q= search: a literal, case-insensitive substring. Prisma's `contains` puts the text
// into LIKE unescaped, so "_" and "%" acted as wildcards (q=a_b found "axb"), and it
// was case-insensitive on SQLite but not on PostgreSQL. Here the pattern is escaped
// with an explicit ESCAPE clause, which SQLite and PostgreSQL both understand, and
// both sides go through the database's lower(). Values are bound parameters.
import { Prisma } from '../../generated/sqlite/client.js';
import type { Tx } from './tx.js';

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const matches = (column: Prisma.Sql, q: string) => Prisma.sql`lower(${column}) LIKE lower(${likePattern(q)}) ESCAPE '\\'`;

/** Ids of prompts whose name or any version's title contains q, in name order. */
export async function promptIdsMatching(tx: Tx, opts: { q: string; archived?: boolean; after?: string; limit: number }): Promise<number[]> {
  const rows = await tx.$queryRaw<{ id: number }[]>(Prisma.sql`
    SELECT p."id" AS "id" FROM "Prompt" p
    WHERE (${matches(Prisma.raw('p."name"'), opts.q)}
        OR EXISTS (SELECT 1 FROM "PromptVersion" v WHERE v."promptId" = p."id" AND ${matches(Prisma.raw('v."title"'), opts.q)}))
      ${opts.archived === undefined ? Prisma.empty : opts.archived ? Prisma.sql`AND p."archived"` : Prisma.sql`AND NOT p."archived"`}
      ${opts.after === undefined ? Prisma.empty : Prisma.sql`AND p."name" > ${opts.after}`}
    ORDER BY p."name" LIMIT ${opts.limit}`);
  return rows.map((r) => Number(r.id));
}

/** Ids of resources whose URI or name contains q, in URI order. */
export async function resourceIdsMatching(tx: Tx, opts: { q: string; afterUri?: string; limit: number }): Promise<number[]> {
  const rows = await tx.$queryRaw<{ id: number }[]>(Prisma.sql`
    SELECT r."id" AS "id" FROM "Resource" r
    WHERE (${matches(Prisma.raw('r."uri"'), opts.q)} OR ${matches(Prisma.raw('r."name"'), opts.q)})
      ${opts.afterUri === undefined ? Prisma.empty : Prisma.sql`AND r."uri" > ${opts.afterUri}`}
    ORDER BY r."uri" LIMIT ${opts.limit}`);
  return rows.map((r) => Number(r.id));
}
