import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { adapterFactoryFor } from '../../src/db/adapter.js';
import { createDb, migrateDatabase, trackConnections } from '../../src/db/create-db.js';
import { projectRoot } from '../../src/db/paths.js';
import { diffMigrationsToSchema, openEngine } from '../../src/db/schema-engine.js';
import { toPostgresSchema } from '../../scripts/pg-schema-transform.mjs';
import { PG_ADMIN_URL, tempSqliteUrl } from '../helpers/db.js';

async function drift(provider: 'sqlite' | 'postgresql', url: string) {
  // A file-backed shadow database: the engine may connect to it more than once.
  const shadowDatabaseUrl = provider === 'sqlite' ? tempSqliteUrl().replace(/^file:/, '') : undefined;
  const t = trackConnections(adapterFactoryFor(url, { shadowDatabaseUrl }));
  const h = await openEngine(provider, t.factory);
  try {
    return await diffMigrationsToSchema(h);
  } finally {
    h.engine.free();
    await t.disposeAll();
  }
}

const isEmptyMigration = (sql: string) => sql.trim() === '' || /^-- This is an empty migration\.?$/.test(sql.trim());

describe('migrations', () => {
  it('SQLite: applying every migration to an empty database yields exactly the schema (engine diff is empty)', async () => {
    const sql = await drift('sqlite', tempSqliteUrl());
    expect(isEmptyMigration(sql), sql).toBe(true);
  });

  it('PostgreSQL: the same holds for the PostgreSQL migrations folder', async () => {
    const sql = await drift('postgresql', PG_ADMIN_URL);
    expect(isEmptyMigration(sql), sql).toBe(true);
  });

  it('the PostgreSQL schema is derived from the one model definition', () => {
    const sqlite = readFileSync(path.join(projectRoot, 'prisma', 'schema.prisma'), 'utf8');
    const pg = readFileSync(path.join(projectRoot, 'prisma', 'postgres', 'schema.prisma'), 'utf8');
    expect(pg).toBe(toPostgresSchema(sqlite));
  });

  it('migrate applies once, records _prisma_migrations, and is a no-op the second time; WAL, busy timeout and a 2 MB page cache (3 MB on the reader)', async () => {
    const url = tempSqliteUrl();
    const first = await migrateDatabase(url);
    expect(first.length).toBeGreaterThan(0);
    expect(await migrateDatabase(url)).toEqual([]);
    const db = await createDb(url);
    const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string; finished_at: unknown }[]>('SELECT migration_name, finished_at FROM _prisma_migrations');
    expect(rows.map((r) => r.migration_name)).toEqual(first);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
    expect(await db.prisma.$queryRawUnsafe('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    const [row] = await db.prisma.$queryRawUnsafe<{ timeout: bigint }[]>("PRAGMA busy_timeout");
    expect(Number(row?.timeout)).toBeGreaterThanOrEqual(5000);
    // better-sqlite3 builds SQLite with 16 MB per connection; the served catalog's load would fill it.
    // The reader (reads outside a transaction) keeps 3 MB: one bounded q= scan's window.
    const [cache] = await db.prisma.$queryRawUnsafe<{ cache_size: bigint }[]>('PRAGMA cache_size');
    expect(Number(cache?.cache_size)).toBe(-3000);
    const [writerCache] = await db.prisma.$transaction((tx) => tx.$queryRawUnsafe<{ cache_size: bigint }[]>('PRAGMA cache_size'));
    expect(Number(writerCache?.cache_size)).toBe(-2000);
    await db.close();
  });
});

describe('migrating a database another process holds', () => {
  it.skipIf(process.env.PROMPTD_TEST_DB === 'postgres')('says which database is held and what to do, instead of the engine\'s "unknown variant SocketTimeout"', async () => {
    const url = tempSqliteUrl();
    const file = url.replace(/^file:/, '');
    const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => { exec(sql: string): void; close(): void };
    const other = new Database(file);
    // Another process in the middle of a write: SQLite's busy timeout runs out for the engine.
    other.exec('BEGIN IMMEDIATE; CREATE TABLE held (x INTEGER);');
    try {
      await expect(migrateDatabase(url)).rejects.toThrow(/cannot apply migrations: another process holds .*; stop it and start again/);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(await migrateDatabase(url)).not.toHaveLength(0);
  }, 30_000);
});
