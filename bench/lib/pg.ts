// A throwaway PostgreSQL database for the benchmark: CREATE DATABASE, DROP afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_ADMIN_URL, cpuMsOf } from './proc.js';

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

/** CPU (ms) used so far by the backends connected to `client`'s database, itself left out (a local server: /proc). */
export async function backendsCpuMs(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  let sum = 0;
  for (const r of rows) {
    try {
      sum += cpuMsOf(r.pid);
    } catch {
      /* exited meanwhile */
    }
  }
  return sum;
}
