// A migration on data: the real migration files up to one, rows written in the schema
// before it, then that migration, on SQLite (the driver adapter's own connection: raw
// scripts, no Prisma client, whose schema is the newest) or on PostgreSQL.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { adapterFactoryFor } from '../../src/db/adapter.js';
import { projectRoot } from '../../src/db/paths.js';
import { tempPostgresUrl, tempSqliteUrl } from './db.js';

interface SqliteConn {
  executeScript(sql: string): Promise<void>;
  queryRaw(q: { sql: string; args: unknown[]; argTypes: unknown[] }): Promise<{ rows: unknown[][] }>;
  dispose(): Promise<void>;
}

function migrationsUpTo(dir: string, name: string): { before: string[]; target: string } {
  const all = readdirSync(dir).filter((d) => /^\d{14}_/.test(d)).sort();
  const i = all.findIndex((d) => d.endsWith(`_${name}`));
  if (i < 0) throw new Error(`no migration named ${name} in ${dir}`);
  const sql = (d: string) => readFileSync(path.join(dir, d, 'migration.sql'), 'utf8');
  return { before: all.slice(0, i).map(sql), target: sql(all[i]!) };
}

/**
 * Applies every migration before `name`, runs `seed(now)` (`now`: the database's spelling
 * of a timestamp), applies `name`, and returns the rows of `ask` as arrays.
 */
export async function acrossMigration(db: 'sqlite' | 'postgresql', name: string, seed: (now: string) => string, ask: string): Promise<unknown[][]> {
  if (db === 'sqlite') {
    const { before, target } = migrationsUpTo(path.join(projectRoot, 'prisma', 'migrations'), name);
    const conn = await (adapterFactoryFor(tempSqliteUrl()) as unknown as { connect(): Promise<SqliteConn> }).connect();
    try {
      for (const m of before) await conn.executeScript(m);
      await conn.executeScript(seed(`'2026-01-01T00:00:00.000Z'`));
      await conn.executeScript(target);
      return (await conn.queryRaw({ sql: ask, args: [], argTypes: [] })).rows;
    } finally {
      await conn.dispose();
    }
  }
  const { before, target } = migrationsUpTo(path.join(projectRoot, 'prisma', 'postgres', 'migrations'), name);
  const client = new pg.Client({ connectionString: await tempPostgresUrl() });
  await client.connect();
  try {
    for (const m of before) await client.query(m);
    await client.query(seed('CURRENT_TIMESTAMP'));
    await client.query(target);
    return (await client.query({ text: ask, rowMode: 'array' })).rows as unknown[][];
  } finally {
    await client.end();
  }
}
