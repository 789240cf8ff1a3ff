// What `promptd import` last read from each prompt file of a library root
// (src/core/services/import-hashes.ts): loaded with the prompts' current revisions in
// one query, replaced in one transaction. Raw SQL: Prisma's per-row cost
// (bulk-sql.ts) would be most of a 10,000-file re-import.
import { Prisma, type Models } from '../prisma.js';
import type { ImportHashRow, ImportHashState, PromptRevision } from '../../core/ports.js';
import { chunks, insertRows } from './bulk-sql.js';
import type { RawSql } from '../raw-sql.js';

function parseDeps(raw: string): string[] {
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : [];
  } catch {
    return [];
  }
}

type Row = { file: string; hash: string; deps: string; stat: string; promptId: number | bigint; name: string; revision: number | bigint; curId: number | bigint | null; curRevision: number | bigint | null; curLatest: number | bigint | null };

/** The rows of `root`, each with its prompt as it is now (absent: gone, deleted or renamed). */
export async function loadImportHashes(models: Models, root: string): Promise<ImportHashState[]> {
  const rows = await models.$queryRaw<Row[]>(Prisma.sql`
    SELECT h."file", h."hash", h."deps", h."stat", h."promptId", h."name", h."revision",
           p."id" AS "curId", p."revision" AS "curRevision", p."latestVersion" AS "curLatest"
    FROM "ImportHash" h
    LEFT JOIN "Prompt" p ON p."id" = h."promptId" AND p."name" = h."name" AND p."deletedAt" IS NULL
    WHERE h."root" = ${root}`);
  return rows.map((r) => ({
    file: r.file, hash: r.hash, deps: parseDeps(r.deps), stat: r.stat, promptId: Number(r.promptId), name: r.name, revision: Number(r.revision),
    ...(r.curId !== null ? { current: { id: Number(r.curId), revision: Number(r.curRevision), latestVersion: Number(r.curLatest) } } : {}),
  }));
}

/** Live prompts' ids, revisions and latest version numbers, by name. */
export async function promptRevisions(models: Models, names: string[]): Promise<Map<string, PromptRevision>> {
  const out = new Map<string, PromptRevision>();
  for (const part of chunks(names, 500)) {
    const rows = await models.$queryRaw<{ id: number | bigint; name: string; revision: number | bigint; latestVersion: number | bigint }[]>(Prisma.sql`
      SELECT "id", "name", "revision", "latestVersion" FROM "Prompt" WHERE "deletedAt" IS NULL AND "name" IN (${Prisma.join(part)})`);
    for (const r of rows) out.set(r.name, { id: Number(r.id), revision: Number(r.revision), latestVersion: Number(r.latestVersion) });
  }
  return out;
}

/**
 * Replaces the rows of these files (delete + insert: the same statements on both
 * databases) and deletes those of `drop`. `sql`: the write transaction's (Db.writeSql:
 * on SQLite straight on the connection, on PostgreSQL one array INSERT for 10,000 rows).
 */
export async function saveImportHashes(sql: RawSql, root: string, rows: ImportHashRow[], drop: string[]): Promise<void> {
  const files = [...new Set([...rows.map((r) => r.file), ...drop])];
  for (const part of chunks(files, 500)) await sql.execute(Prisma.sql`DELETE FROM "ImportHash" WHERE "root" = ${root} AND "file" IN (${Prisma.join(part)})`);
  await insertRows(sql, 'ImportHash', ['root', 'file', 'hash', 'deps', 'promptId', 'name', 'revision', 'stat'],
    rows.map((r) => [root, r.file, r.hash, JSON.stringify(r.deps), r.promptId, r.name, r.revision, r.stat]));
}
