// Multi-row INSERT/UPDATE through Prisma's raw SQL, for the bulk importer only.
// Prisma's createMany costs ~0.4 ms of CPU per row (every row goes through the query
// interpreter); one multi-row INSERT costs ~0.02 ms per row. Identifiers are constants
// from this file, values are always bound parameters, and Prisma.sql emits the right
// placeholders and value encodings (dates, booleans, bytes) for SQLite and PostgreSQL.
import { Prisma } from '../../generated/sqlite/client.js';
import type { Tx } from '../repo/tx.js';

// Well under SQLite's and PostgreSQL's bound-parameter limits.
const MAX_PARAMS = 900;

const ident = (names: string[]) => Prisma.raw(names.map((n) => `"${n}"`).join(', '));

/** Inserts rows (values in `columns` order); returns the `returning` columns of every row. */
export async function insertRows<R extends Record<string, unknown>>(
  tx: Tx,
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
    if (returning) out.push(...(await tx.$queryRaw<R[]>(Prisma.sql`${insert} RETURNING ${ident(returning)}`)));
    else await tx.$executeRaw(insert);
  }
  return out;
}

/** Points each prompt at its new active version and bumps its revision, in one UPDATE per chunk. */
export async function setActiveVersions(tx: Tx, pairs: { promptId: number; versionId: number }[], now: Date): Promise<void> {
  for (let i = 0; i < pairs.length; i += 250) {
    const part = pairs.slice(i, i + 250);
    // CAST: PostgreSQL cannot infer a CASE result type from parameters alone.
    const cases = Prisma.join(part.map((p) => Prisma.sql`WHEN ${p.promptId} THEN CAST(${p.versionId} AS INTEGER)`), ' ');
    await tx.$executeRaw(Prisma.sql`UPDATE "Prompt" SET "activeVersionId" = CASE "id" ${cases} END, "revision" = "revision" + 1, "updatedAt" = ${now}
      WHERE "id" IN (${Prisma.join(part.map((p) => p.promptId))})`);
  }
}
