// The labels migration on data: every prompt's active pointer becomes a `production`
// label, on SQLite and on PostgreSQL, by running the real migration files in order
// over a database that holds prompts written before labels existed.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { adapterFactoryFor } from '../../src/db/adapter.js';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/db/paths.js';
import { tempPostgresUrl, tempSqliteUrl } from '../helpers/db.js';

function migrationsUpTo(dir: string, name: string): { before: string[]; labels: string } {
  const all = readdirSync(dir).filter((d) => /^\d{14}_/.test(d)).sort();
  const i = all.findIndex((d) => d.endsWith(`_${name}`));
  const sql = (d: string) => readFileSync(path.join(dir, d, 'migration.sql'), 'utf8');
  return { before: all.slice(0, i).map(sql), labels: sql(all[i]!) };
}

// Two prompts served (one of them at an older version), one never activated.
const seed = (now: string) => `
  INSERT INTO "Prompt" ("id", "name", "latestVersion", "revision", "createdAt", "updatedAt") VALUES
    (1, 'served', 2, 3, ${now}, ${now}), (2, 'rolled-back', 2, 4, ${now}, ${now}), (3, 'draft', 1, 1, ${now}, ${now});
  INSERT INTO "PromptVersion" ("id", "promptId", "number", "createdAt") VALUES
    (10, 1, 1, ${now}), (11, 1, 2, ${now}), (20, 2, 1, ${now}), (21, 2, 2, ${now}), (30, 3, 1, ${now});
  UPDATE "Prompt" SET "activeVersionId" = 11 WHERE "id" = 1;
  UPDATE "Prompt" SET "activeVersionId" = 20 WHERE "id" = 2;`;

const expected = [
  { promptId: 1, name: 'production', versionId: 11 },
  { promptId: 2, name: 'production', versionId: 20 },
];

interface SqliteConn {
  executeScript(sql: string): Promise<void>;
  queryRaw(q: { sql: string; args: unknown[]; argTypes: unknown[] }): Promise<{ rows: unknown[][] }>;
  dispose(): Promise<void>;
}

describe('labels migration', () => {
  it('SQLite: active pointers become production labels', async () => {
    const { before, labels } = migrationsUpTo(path.join(projectRoot, 'prisma', 'migrations'), 'labels');
    // The driver adapter's own connection: raw scripts, no Prisma client (its schema has labels already).
    const conn = await (adapterFactoryFor(tempSqliteUrl()) as unknown as { connect(): Promise<SqliteConn> }).connect();
    try {
      for (const m of before) await conn.executeScript(m);
      await conn.executeScript(seed(`'2026-01-01T00:00:00.000Z'`));
      await conn.executeScript(labels);
      const rs = await conn.queryRaw({ sql: 'SELECT "promptId", "name", "versionId" FROM "PromptLabel" ORDER BY "promptId"', args: [], argTypes: [] });
      expect(rs.rows.map(([promptId, name, versionId]) => ({ promptId: Number(promptId), name, versionId: Number(versionId) }))).toEqual(expected);
    } finally {
      await conn.dispose();
    }
  });

  it('PostgreSQL: the same', async () => {
    const { before, labels } = migrationsUpTo(path.join(projectRoot, 'prisma', 'postgres', 'migrations'), 'labels');
    const client = new pg.Client({ connectionString: await tempPostgresUrl() });
    await client.connect();
    try {
      for (const m of before) await client.query(m);
      await client.query(seed('CURRENT_TIMESTAMP'));
      await client.query(labels);
      expect((await client.query('SELECT "promptId", "name", "versionId" FROM "PromptLabel" ORDER BY "promptId"')).rows).toEqual(expected);
    } finally {
      await client.end();
    }
  });
});
