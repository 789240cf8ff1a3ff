// The data-security migration on a database that already has data: resources
// stored before visibility existed stay public (today's behaviour, now explicit),
// and duplicate token names become unique before the unique index is built.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import { expect, it } from 'vitest';
import { projectRoot } from '../../src/db/paths.js';
import { TEST_DB, tempPostgresUrl, tempSqliteUrl } from '../helpers/db.js';

// better-sqlite3 (the SQLite adapter's driver) ships no types; this is all the test uses.
interface SqliteDb { exec(sql: string): void; prepare(sql: string): { all(): unknown[]; get(): unknown }; close(): void }
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteDb;

const dir = (provider: 'sqlite' | 'postgresql') => path.join(projectRoot, 'prisma', ...(provider === 'postgresql' ? ['postgres'] : []), 'migrations');
const sqlOf = (provider: 'sqlite' | 'postgresql', name: string) => {
  const d = readdirSync(dir(provider)).find((m) => m.endsWith(name))!;
  return readFileSync(path.join(dir(provider), d, 'migration.sql'), 'utf8');
};

const seedRows = [
  `INSERT INTO "Resource" ("uri", "name", "mimeType", "text", "size", "updatedAt") VALUES ('docs://old', 'old', 'text/plain', 'x', 1, CURRENT_TIMESTAMP)`,
  `INSERT INTO "ApiToken" ("name", "prefix", "hash") VALUES ('ci', 'pd_a', 'h1'), ('ci', 'pd_b', 'h2'), ('other', 'pd_c', 'h3'), ('ci', 'pd_d', 'h4')`,
];
const expected = { visibility: ['public'], names: ['ci', 'ci-2', 'other', 'ci-4'] };

it('SQLite: existing resources become public, duplicate token names get their id as suffix', () => {
  const db = new Database(tempSqliteUrl().replace(/^file:/, ''));
  db.exec(sqlOf('sqlite', '_init'));
  for (const s of seedRows) db.exec(s);
  db.exec(sqlOf('sqlite', '_data_security'));
  expect(db.prepare('SELECT "visibility" FROM "Resource"').all().map((r) => (r as { visibility: string }).visibility)).toEqual(expected.visibility);
  expect(db.prepare('SELECT "name" FROM "ApiToken" ORDER BY "id"').all().map((r) => (r as { name: string }).name)).toEqual(expected.names);
  db.exec(`INSERT INTO "Resource" ("uri", "name", "mimeType", "text", "size", "updatedAt") VALUES ('docs://new', 'new', 'text/plain', 'x', 1, CURRENT_TIMESTAMP)`);
  expect(db.prepare(`SELECT "visibility" FROM "Resource" WHERE "uri" = 'docs://new'`).get()).toEqual({ visibility: 'bound' });
  db.close();
});

it.runIf(TEST_DB === 'postgres')('PostgreSQL: the same', async () => {
  const client = new pg.Client({ connectionString: await tempPostgresUrl() });
  await client.connect();
  try {
    await client.query(sqlOf('postgresql', '_init'));
    for (const s of seedRows) await client.query(s);
    await client.query(sqlOf('postgresql', '_data_security'));
    expect((await client.query('SELECT "visibility" FROM "Resource"')).rows.map((r) => r.visibility)).toEqual(expected.visibility);
    expect((await client.query('SELECT "name" FROM "ApiToken" ORDER BY "id"')).rows.map((r) => r.name)).toEqual(expected.names);
  } finally {
    await client.end();
  }
});
