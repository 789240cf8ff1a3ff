// Benchmark fixtures: the prompt set both servers of the prompts/get comparison
// hold, and a fast bulk population of a SQLite database (multi-row INSERTs in
// batches: a fixture, not the product's write path, which is measured separately).
import { createDb, migrateDatabase, type Db } from '../../src/db/create-db.js';

export const ARG = 'who';
export const ARG_VALUE = 'bench-user';

export const promptName = (i: number) => `p-${String(i).padStart(6, '0')}`;

/** The Mustache template of prompt i: one required argument used twice. */
export function promptTemplate(i: number): string {
  return (
    `You are reviewing change request #${i} on behalf of {{who}}. Read the description, list the risks ` +
    'you see in order of severity, say which tests would catch each one, and end with a short verdict ' +
    '(approve, approve with comments, or request changes) and one sentence of reasoning. Keep the tone ' +
    'factual and address {{who}} directly; do not repeat the description back.'
  );
}

/** What prompts/get returns for prompt i with `who` = value: the same text both servers serve. */
export const renderPrompt = (i: number, value: string) => promptTemplate(i).replaceAll('{{who}}', value);

export const promptDescription = (i: number) => `Review checklist number ${i}`;

const BATCH = 5_000;

const lit = (v: string | number | null) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`);

/** One multi-row INSERT through Prisma's raw SQL: createMany on the wasm engine took ~160 s for 100k prompts. */
async function insertRows(db: Db, table: string, columns: string[], rows: (string | number | null)[][]): Promise<void> {
  const values = rows.map((r) => `(${r.map(lit).join(', ')})`).join(',\n');
  await db.prisma.$executeRawUnsafe(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${values}`);
}

/**
 * Migrates a fresh SQLite database and inserts `n` served prompts named p-000000…:
 * one active version each (the production label), with one argument and one text message.
 */
export async function populate(databaseUrl: string, n: number, onProgress?: (done: number) => void): Promise<void> {
  if (!databaseUrl.startsWith('file:')) throw new Error('the bulk fixture is for SQLite files');
  await migrateDatabase(databaseUrl);
  const db = await createDb(databaseUrl);
  const now = new Date().toISOString().replace('Z', '+00:00');
  try {
    for (let start = 1; start <= n; start += BATCH) {
      const ids = Array.from({ length: Math.min(BATCH, n - start + 1) }, (_, k) => start + k);
      await db.prisma.$transaction(async (tx) => {
        const t = { prisma: tx } as unknown as Db;
        await insertRows(t, 'Prompt', ['id', 'name', 'archived', 'latestVersion', 'revision', 'createdAt', 'updatedAt'], ids.map((id) => [id, promptName(id - 1), 0, 1, 1, now, now]));
        await insertRows(t, 'PromptVersion', ['id', 'promptId', 'number', 'description', 'author', 'note', 'createdAt'], ids.map((id) => [id, id, 1, promptDescription(id - 1), 'bench', 'fixture', now]));
        await insertRows(t, 'PromptArgument', ['id', 'versionId', 'position', 'name', 'description', 'required'], ids.map((id) => [id, id, 0, ARG, 'who the review is for', 1]));
        await insertRows(t, 'PromptMessage', ['id', 'versionId', 'position', 'role', 'type', 'text'], ids.map((id) => [id, id, 0, 'user', 'text', promptTemplate(id - 1)]));
        await tx.$executeRawUnsafe(`UPDATE "Prompt" SET "activeVersionId" = "id" WHERE "id" BETWEEN ${ids[0]} AND ${ids.at(-1)}`);
        // What is served is the production label; activeVersionId is its mirror.
        await insertRows(t, 'PromptLabel', ['promptId', 'name', 'versionId', 'updatedAt'], ids.map((id) => [id, 'production', id, now]));
      });
      onProgress?.(ids.at(-1)!);
    }
    await db.prisma.$queryRawUnsafe('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    await db.close();
  }
}
