// For PostgreSQL runs: give this run an id (its databases are named after it) and
// drop them afterwards. SQLite runs use temp files and need nothing here.
import pg from 'pg';
import { randomBytes } from 'node:crypto';

export default async function setup() {
  if (process.env.PROMPTD_TEST_DB !== 'postgres') return;
  process.env.PROMPTD_TEST_RUN_ID ??= randomBytes(4).toString('hex');
  const prefix = `pdt_${process.env.PROMPTD_TEST_RUN_ID}_`;
  const adminUrl = process.env.PROMPTD_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.end();
  return async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    for (const r of rows) await c.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
    await c.end();
  };
}
