// A throwaway PostgreSQL database for the benchmark: CREATE DATABASE, DROP afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_ADMIN_URL } from './proc.js';

export interface TempPg {
  url: string;
  drop(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Resolves null when no PostgreSQL answers at PROMPTD_BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres). */
export async function createTempPg(): Promise<TempPg | null> {
  const name = `promptd_bench_${randomBytes(5).toString('hex')}`;
  try {
    await admin(`CREATE DATABASE "${name}"`);
  } catch {
    return null;
  }
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
