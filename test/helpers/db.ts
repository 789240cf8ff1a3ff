import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateDatabase, type Db } from '../../src/db/create-db.js';
import { openStore, type DbStore } from '../../src/db/store.js';
import { createCore, type Core, type CoreOptions } from '../../src/core/index.js';

/** Which database the suite runs against: PROMPTD_TEST_DB=postgres selects PostgreSQL. */
export const TEST_DB = process.env.PROMPTD_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export const PG_ADMIN_URL = process.env.PROMPTD_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Every database this run creates starts with this prefix, so concurrent runs never collide. */
export const PG_RUN_PREFIX = `pdt_${process.env.PROMPTD_TEST_RUN_ID ?? 'local'}_`;

/** A fresh SQLite file in its own temp directory. */
export function tempSqliteUrl(): string {
  return `file:${path.join(mkdtempSync(path.join(os.tmpdir(), 'promptd-test-')), 'test.db')}`;
}

/** A fresh PostgreSQL database of this test run. */
export async function tempPostgresUrl(): Promise<string> {
  const name = `${PG_RUN_PREFIX}${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh, empty database of the kind this run tests. */
export async function tempDbUrl(): Promise<string> {
  return TEST_DB === 'postgres' ? tempPostgresUrl() : tempSqliteUrl();
}

/** A core plus the database under it, for assertions on stored rows (the core itself never exposes it). */
export type TestCore = Core & { db: Db };

/** The composition root for tests: a store on `url` (migrated already) and a core on it. */
export async function coreOn(url: string, opts: Omit<CoreOptions, 'store'> & { poolMax?: number; poolTimeoutMs?: number } = {}): Promise<TestCore> {
  const { poolMax, poolTimeoutMs, ...coreOpts } = opts;
  const store = await openStore(url, { poolMax, poolTimeoutMs });
  return Object.assign(await createCore({ store, ...coreOpts }), { db: store.db });
}

export async function makeCore(opts: { url?: string; adminToken?: string } = {}): Promise<TestCore> {
  const url = opts.url ?? (await tempDbUrl());
  await migrateDatabase(url);
  return coreOn(url, { poolMax: 4, adminToken: opts.adminToken });
}

export const actor = { name: 'test' };

/** A fresh, migrated database of this run's kind, opened as a store whose retries do not wait. */
export async function freshStore(): Promise<DbStore> {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  return openStore(url, { backoffMs: () => 0 });
}

/** An event whose only purpose is to be counted: did the write that appended it commit? */
export const probeEvent = (key: string) => ({ actor: 'test', action: 'probe', entity: 'token' as const, entityKey: key });

/** How many probe events of `key` the store has committed. */
export const probeCount = async (store: DbStore, key: string) =>
  (await store.read.events.after(0, 10_000)).filter((e) => e.entityKey === key).length;

/** A migrated database whose prompt `greet` carries `staging` (an MCP or app token's label must be known, #37.4). */
export async function tempDbWithStaging(): Promise<string> {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  const core = await coreOn(url);
  try {
    await core.prompts.create({ name: 'greet', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }, actor);
    await core.labels.set('greet', 'staging', 1, actor);
  } finally {
    await core.close();
  }
  return url;
}
