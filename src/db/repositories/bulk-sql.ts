// Multi-row INSERT/UPDATE through Prisma's raw SQL, for every version write.
// Prisma's createMany costs ~0.4 ms of CPU per row (every row goes through the query
// interpreter); one multi-row INSERT costs ~0.02 ms per row. Identifiers are constants
// from this file, values are always bound parameters, and Prisma.sql emits the right
// placeholders and value encodings (dates, booleans, bytes) for SQLite and PostgreSQL.
import { Prisma } from '../prisma.js';
import type { RawSql } from '../raw-sql.js';

// Prisma caps bound parameters per query (below SQLite's own limit); an OR of 400
// (promptId, number) pairs already exceeds it, so reads go in chunks of 100.
const CHUNK = 100;
export const chunks = <T>(xs: T[], n = CHUNK): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/**
 * A where clause for rows whose (promptId, number) is among `pairs`, as two `in` lists:
 * an OR of n pairs is a new query shape for every n, and Prisma keeps one compiled plan
 * per shape (an LRU of 1,000; ~185 KiB each at 150 pairs, bench/plan-cache.ts), which
 * grew a serving process's heap for hours. `in` lists of any length share one plan.
 * The rows can include pairs not asked for (the cross product): keep them with `hasPair`.
 */
export function pairsWhere(pairs: { promptId: number; number: number }[]) {
  return { promptId: { in: [...new Set(pairs.map((p) => p.promptId))] }, number: { in: [...new Set(pairs.map((p) => p.number))] } };
}

export function hasPair(pairs: { promptId: number; number: number }[]): (r: { promptId: number; number: number }) => boolean {
  const wanted = new Set(pairs.map((p) => `${p.promptId}:${p.number}`));
  return (r) => wanted.has(`${r.promptId}:${r.number}`);
}

// Well under SQLite's and PostgreSQL's bound-parameter limits.
const MAX_PARAMS = 900;

const ident = (names: string[]) => Prisma.raw(names.map((n) => `"${n}"`).join(', '));

/** Inserts rows (values in `columns` order); returns the `returning` columns of every row. */
export async function insertRows<R extends Record<string, unknown>>(
  sql: RawSql,
  table: string,
  columns: string[],
  rows: unknown[][],
  returning?: string[],
): Promise<R[]> {
  const out: R[] = [];
  const per = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for (let i = 0; i < rows.length; i += per) {
    const values = Prisma.join(rows.slice(i, i + per).map((r) => Prisma.sql`(${Prisma.join(r)})`));
    const insert = Prisma.sql`INSERT INTO ${ident([table])} (${ident(columns)}) VALUES ${values}`;
    if (returning) out.push(...(await sql.query<R>(Prisma.sql`${insert} RETURNING ${ident(returning)}`)));
    else await sql.execute(insert);
  }
  return out;
}
