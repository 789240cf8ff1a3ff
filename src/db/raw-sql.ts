// Raw SQL of the write path (bulk INSERTs, the numbering bump, the search text, the
// change log), run either through Prisma or, where the dialect can, straight on the
// connection that holds the write transaction (dialect-sqlite.ts, sqlite-direct.ts).
import type { Prisma, Tx } from './prisma.js';

export interface RawSql {
  /** Rows of a statement that returns some (SELECT, … RETURNING). Integers may come back as bigint: wrap in Number(). */
  query<R>(sql: Prisma.Sql): Promise<R[]>;
  /** Runs a statement; the number of rows it changed. */
  execute(sql: Prisma.Sql): Promise<number>;
  /**
   * Bound parameters may be arrays, and the SQL may spread them into rows with
   * `unnest` (PostgreSQL): a bulk INSERT is then one statement of one parameter per
   * column (bulk-sql.ts) instead of one statement per 900 values.
   */
  readonly arrays?: boolean;
}

/** Through Prisma's raw queries on `tx` (a transaction or the client). */
export const prismaSql = (tx: Tx): RawSql => ({
  query: <R>(sql: Prisma.Sql) => tx.$queryRaw<R[]>(sql),
  execute: (sql) => tx.$executeRaw(sql),
});
