import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, migrateDatabase } from '../../src/db/create-db.js';
import { createCore, type Core } from '../../src/core/index.js';

/** A fresh SQLite file in its own temp directory. */
export function tempSqliteUrl(): string {
  return `file:${path.join(mkdtempSync(path.join(os.tmpdir(), 'promptd-test-')), 'test.db')}`;
}

export async function makeCore(opts: { url?: string; adminToken?: string } = {}): Promise<Core> {
  const url = opts.url ?? tempSqliteUrl();
  await migrateDatabase(url);
  return createCore({ db: await createDb(url), adminToken: opts.adminToken });
}

export const actor = { name: 'test' };
