// For PostgreSQL runs: give this run an id (its databases are named after it) and
// drop them afterwards. SQLite runs use temp files and need nothing here.
import pg from 'pg';
import { randomBytes } from 'node:crypto';

export default async function setup() {
  if (process.env.PROMPTD_TEST_DB !== 'postgres') return;
  process.env.PROMPTD_TEST_RUN_ID ??= randomBytes(4).toString('hex');
  const prefix = `pdt_${process.env.PROMPTD_TEST_RUN_ID}_`;
  const adminUrl = process.env.PROMPTD_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (e) {
    const shown = adminUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
    // Said once, instead of every file failing with ECONNREFUSED.
    throw new Error(
      `PostgreSQL is not reachable at ${shown} (${(e as Error).message}). Start it, or point the tests at another server with ` +
        'PROMPTD_TEST_PG_URL=postgres://user@host:5432/db (a database the user may CREATE DATABASE from); `npm run test:sqlite` runs without PostgreSQL.',
    );
  }
  await client.end();
  return async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    for (const r of rows) await c.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
    await c.end();
  };
}
