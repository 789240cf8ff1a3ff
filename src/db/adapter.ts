import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { providerOf } from './provider.js';

export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

export function sqliteFilePath(url: string): string {
  return url.replace(/^file:/, '');
}

export function adapterFactoryFor(url: string, opts: { shadowDatabaseUrl?: string; poolMax?: number } = {}) {
  if (providerOf(url) === 'postgresql') {
    return new PrismaPg({ connectionString: url, max: opts.poolMax ?? 10 });
  }
  const file = sqliteFilePath(url);
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // better-sqlite3's `timeout` is SQLite's busy timeout: a writer waits for the
  // other process's lock instead of failing with SQLITE_BUSY.
  return new PrismaBetterSqlite3(
    { url: `file:${file}`, timeout: SQLITE_BUSY_TIMEOUT_MS },
    { shadowDatabaseUrl: opts.shadowDatabaseUrl ?? ':memory:' },
  );
}
