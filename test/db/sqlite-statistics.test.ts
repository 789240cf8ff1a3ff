// SQLite's query planner statistics (sqlite_stat1) are kept by the store itself: at open
// for tables never analyzed, hourly while it runs, and at close after a bulk write. Without
// them list pages at 100,000 prompts took 100–600 ms (bench/history.md 35).
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { openStore } from '../../src/db/store.js';
import { tempSqliteUrl } from '../helpers/db.js';

type Connection = { prepare(sql: string): { all(...a: unknown[]): unknown[]; run(...a: unknown[]): unknown }; exec(sql: string): void; close(): void };
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string, opts?: { readonly?: boolean }) => Connection;

const fileOf = (url: string) => url.replace(/^file:/, '');
/** `n` prompts in one statement. */
const PROMPTS = (n: number) =>
  `INSERT INTO "Prompt" ("name", "createdAt", "updatedAt") WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < ${n}) SELECT 'p-' || v, '2026-01-01', '2026-01-01' FROM s`;

/** The statistics of Prompt's indexes (index → stat), read on a connection of its own. */
function statsOf(url: string): Map<string, string> {
  const db = new Database(fileOf(url), { readonly: true });
  try {
    const has = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'`).all().length > 0;
    const rows = has ? (db.prepare(`SELECT "idx", "stat" FROM sqlite_stat1 WHERE "tbl" = 'Prompt'`).all() as { idx: string; stat: string }[]) : [];
    return new Map(rows.map((r) => [r.idx, r.stat]));
  } finally {
    db.close();
  }
}
const promptStats = (url: string) => [...statsOf(url).keys()].sort();

/** A migrated database holding `n` prompts written by another connection, never analyzed. */
async function databaseWith(n: number): Promise<string> {
  const url = tempSqliteUrl();
  await migrateDatabase(url);
  if (n) {
    const db = new Database(fileOf(url));
    db.exec(PROMPTS(n));
    db.close();
  }
  expect(promptStats(url)).toEqual([]);
  return url;
}

afterEach(() => vi.useRealTimers());

describe('SQLite planner statistics', () => {
  it('are written at open for a table never analyzed', async () => {
    const url = await databaseWith(2_000);
    const store = await openStore(url);
    try {
      expect(promptStats(url)).toContain('Prompt_deletedAt_name_idx');
    } finally {
      await store.close();
    }
  });

  it('are brought up to date hourly while the store is open, and at close', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const url = await databaseWith(0);
    const store = await openStore(url);
    try {
      await store.db.prisma.$executeRawUnsafe(`INSERT INTO "Prompt" ("name", "createdAt", "updatedAt") VALUES ('first', '2026-01-01', '2026-01-01')`);
      expect(promptStats(url)).toEqual([]);
      // Grown from nothing to 3,000 rows on this connection: the hourly pass analyzes it.
      await store.db.prisma.$executeRawUnsafe(PROMPTS(3_000));
      expect(promptStats(url)).toEqual([]);
      await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
      expect(promptStats(url)).toContain('Prompt_deletedAt_name_idx');
    } finally {
      await store.close();
    }
  });

  it('are written at close after a bulk write', async () => {
    const url = await databaseWith(0);
    const store = await openStore(url);
    await store.db.prisma.$executeRawUnsafe(PROMPTS(3_000));
    expect(promptStats(url)).toEqual([]);
    await store.close();
    // The whole index read, not a sample: every prompt is live, so one deletedAt value
    // stands for all 3,000 rows (a 2,000-row sample said 2,001, and the planner then
    // took that index for a page sorted by another).
    expect(statsOf(url).get('Prompt_deletedAt_name_idx')).toBe('3000 3000 1');
  });

  it('are left alone by a read-only store', async () => {
    const url = await databaseWith(2_000);
    const store = await openStore(url, { sqlite: { readOnly: true } });
    await store.close();
    expect(promptStats(url)).toEqual([]);
  });
});
