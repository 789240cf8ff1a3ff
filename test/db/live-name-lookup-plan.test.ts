// Lookups of live prompts by a list of names (`deletedAt IS NULL AND name IN (…)`: the
// import's takenNames and headsByName in prompts-repo.ts, promptRevisions in
// import-hashes-repo.ts, label moves by prompt name) must probe an index by name. SQLite
// keeps no statistics unless ANALYZE runs, and with an index on deletedAt alone its planner
// took that index for the IS NULL and read every live prompt per lookup (issue 21,
// bench/history.md 35). Checked on the migrated schema, with both spellings the code sends.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { tempSqliteUrl } from '../helpers/db.js';

type Statement = { all(...args: unknown[]): { detail: string }[]; run(...args: unknown[]): unknown };
type Connection = { prepare(sql: string): Statement; exec(sql: string): void; close(): void };
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => Connection;

describe('SQLite: looking live prompts up by names', () => {
  it('probes an index by name, not every live prompt', async () => {
    const url = tempSqliteUrl();
    await migrateDatabase(url);
    const db = new Database(url.replace(/^file:/, ''));
    try {
      const insert = db.prepare(`INSERT INTO "Prompt" ("name", "createdAt", "updatedAt") VALUES (?, '2026-01-01', '2026-01-01')`);
      db.exec('BEGIN');
      for (let i = 0; i < 400; i++) insert.run(`p-${i}`);
      db.exec('COMMIT');
      const names = Array.from({ length: 250 }, (_, i) => `p-${i}`);
      const marks = names.map(() => '?').join(', ');
      const shapes = [
        // Prisma's findMany({ where: { name: { in }, deletedAt: null } }) on SQLite
        `SELECT \`main\`.\`Prompt\`.\`id\`, \`main\`.\`Prompt\`.\`name\` FROM \`main\`.\`Prompt\` WHERE (\`main\`.\`Prompt\`.\`name\` IN (${marks}) AND \`main\`.\`Prompt\`.\`deletedAt\` IS NULL) LIMIT ? OFFSET ?`,
        // the raw lookup of import-hashes-repo.ts
        `SELECT "id", "name", "revision", "latestVersion" FROM "Prompt" WHERE "deletedAt" IS NULL AND "name" IN (${marks})`,
      ];
      for (const sql of shapes) {
        const args = sql.includes('LIMIT ?') ? [...names, -1, 0] : names;
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args).map((r) => r.detail);
        expect(plan, sql).toHaveLength(1);
        expect(plan[0], sql).toMatch(/^SEARCH (main\.)?Prompt USING (COVERING )?INDEX \S+ \(.*name=\?\)$/);
        expect(db.prepare(sql).all(...args)).toHaveLength(250);
      }
    } finally {
      db.close();
    }
  });
});
