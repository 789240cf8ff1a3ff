// q= search: a literal, case-insensitive substring. Prisma's `contains` puts the text
// into LIKE unescaped, so "_" and "%" acted as wildcards (q=a_b found "axb"), and it
// was case-insensitive on SQLite but not on PostgreSQL. Here the pattern is escaped
// with an explicit ESCAPE clause, which SQLite and PostgreSQL both understand, and
// both sides go through the database's lower(). Values are bound parameters.
import { Prisma } from '../prisma.js';
import type { Tx } from '../prisma.js';

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const matches = (column: Prisma.Sql, q: string) => Prisma.sql`lower(${column}) LIKE lower(${likePattern(q)}) ESCAPE '\\'`;

/** Ids of resources whose URI or name contains q, in URI order. */
export async function resourceIdsMatching(tx: Tx, opts: { q: string; afterUri?: string; limit: number }): Promise<number[]> {
  const rows = await tx.$queryRaw<{ id: number }[]>(Prisma.sql`
    SELECT r."id" AS "id" FROM "Resource" r
    WHERE (${matches(Prisma.raw('r."uri"'), opts.q)} OR ${matches(Prisma.raw('r."name"'), opts.q)})
      ${opts.afterUri === undefined ? Prisma.empty : Prisma.sql`AND r."uri" > ${opts.afterUri}`}
    ORDER BY r."uri" LIMIT ${opts.limit}`);
  return rows.map((r) => Number(r.id));
}
