// A later page of the prompt list reuses the count its cursor carries (issue 21; bench/
// history.md 34): the first page's count (n, partial) travels in the signed cursor with
// the catalog's change marker read before it was counted, and a later page reuses it
// while the marker is unchanged; after any write that can change the count it counts
// again. A first page whose bounded scan stopped (it counts nothing itself) hands over
// the count of its stretch on PostgreSQL, whose one-walk scan reads the row after the
// stretch anyway; on SQLite its next page counts, and the pages after that reuse. Counts are observed through the store's repository (a wrapper of
// read.prompts.count). Each later page's total is also compared with the same page
// asked with the cursor as earlier builds issued it (no count carried: the page counts,
// as it always did). Real database (SQLite, or PostgreSQL with PROMPTD_TEST_DB=postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { openStore, type DbStore } from '../../src/db/store.js';
import { createCore, type Core, type VersionInput } from '../../src/core/index.js';
import type { PromptListOptions } from '../../src/core/services/prompt-service.js';
import { actor, tempDbUrl, TEST_DB } from '../helpers/db.js';

const SCAN = 10;
const N = 35;
const RARE = [3, 17, 31]; // carry "zq"
const DAY = 86_400_000;
/** Whether a first page whose scan stopped carries a count (see the header). */
const STOP_CARRIES = TEST_DB === 'postgres';
const name = (i: number) => `p-${String(i).padStart(2, '0')}`;
const text = (t: string): VersionInput => ({ arguments: [], messages: [{ role: 'user', content: { type: 'text', text: t } }] });
const textOf = (i: number) => `plain words${RARE.includes(i) ? ' zq marker' : ''}`;

let store: DbStore;
let core: Core;
let counts = 0;
let clock = Date.parse('2026-11-27T12:00:00Z');

beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  store = await openStore(url, { poolMax: 4 });
  const count = store.read.prompts.count;
  store.read.prompts.count = (...args) => {
    counts++;
    return count(...args);
  };
  core = await createCore({ store, searchScanLimit: SCAN, purgeIntervalMs: 0, deletedRetentionDays: 1, now: () => new Date(clock) });
  const writes = Array.from({ length: N }, (_, i) => ({
    name: name(i), mode: 'create' as const, expectLatest: 0, activate: 1, versions: [text(textOf(i))],
  }));
  expect((await core.bulk.apply(writes, actor)).every((o) => o.ok)).toBe(true);
  for (let i = 0; i < N; i++) await core.prompts.setTags(name(i), ['red'], actor);
}, 120_000);
afterAll(() => core?.close());

/** The cursor as an earlier build issued it: the same key, no count carried. */
function withoutCount(cursor: string, sort = 'name', deleted = false): string {
  const scope = `${deleted ? 'admin-prompts-deleted' : 'admin-prompts'}:${sort}`;
  const { c, ...key } = core.cursors.decode<Record<string, unknown>>(scope, cursor);
  expect(c).toBeDefined();
  return core.cursors.encode(scope, key);
}

type Page = Awaited<ReturnType<Core['prompts']['list']>>;
/** One page and how many counts it made. */
async function page(opts: PromptListOptions): Promise<Page & { counts: number }> {
  const before = counts;
  const p = await core.prompts.list(opts);
  return { ...p, counts: counts - before };
}
const shape = (p: Page) => ({ names: p.items.map((i) => i.name), total: p.total, totalIsLowerBound: p.totalIsLowerBound, searchIncomplete: p.searchIncomplete, searchedThrough: p.searchedThrough, more: p.nextCursor !== null });

/**
 * The page after `prev` of `opts`: asked twice with the carried count (no count made:
 * nothing changed between), and once with the cursor of an earlier build (it counts):
 * the same answer each time. Returns it.
 */
async function nextPage(opts: PromptListOptions, prev: Page, first = false) {
  const cursor = prev.nextCursor!;
  const carries = !(first && prev.searchIncomplete) || STOP_CARRIES;
  const a = await page({ ...opts, cursor });
  const b = await page({ ...opts, cursor });
  const old = await page({ ...opts, cursor: carries ? withoutCount(cursor, opts.sort, opts.deleted) : cursor });
  expect([a.counts, b.counts, old.counts]).toEqual(carries ? [0, 0, 1] : [1, 1, 1]);
  expect(shape(a)).toEqual(shape(old));
  expect(shape(b)).toEqual(shape(old));
  return a;
}

describe('no write between the pages', () => {
  it('a bounded scan that stopped (q= of 2 characters): every later page reuses the count of the first stretch', async () => {
    const opts = { q: 'zq', limit: 5 };
    const first = await page(opts);
    expect(first).toMatchObject({ items: [{ name: name(3) }], total: 1, totalIsLowerBound: true, searchIncomplete: true, searchedThrough: name(9), counts: 0 });
    const second = await nextPage(opts, first, true);
    expect(shape(second)).toEqual({ names: [name(17)], total: 1, totalIsLowerBound: true, searchIncomplete: true, searchedThrough: name(19), more: true });
    const third = await nextPage(opts, second);
    expect(shape(third)).toMatchObject({ names: [], total: 1, searchedThrough: name(29) });
    const fourth = await nextPage(opts, third);
    expect(shape(fourth)).toMatchObject({ names: [name(31)], total: 1, more: false });
  });

  it('the prompt right after the first stretch is counted as before (the count reads scanLimit + 1 prompts)', async () => {
    await core.prompts.createVersion(name(SCAN), text('now with zq'), actor);
    const opts = { q: 'zq', limit: 1 };
    const first = await page(opts);
    expect(first).toMatchObject({ total: 1, searchedThrough: name(9) }); // the first page counts what it read
    const second = await nextPage(opts, first, true);
    expect(second).toMatchObject({ items: [{ name: name(SCAN) }], total: 2, totalIsLowerBound: true }); // the count of the window's first 11
    await core.prompts.createVersion(name(SCAN), text(textOf(SCAN)), actor);
  });

  it('full pages, sorts and filters: name and updated, a full scan page, an indexed q, no q, the bin', async () => {
    for (const opts of [
      { q: 'zq', limit: 1 }, { q: 'p', limit: 4 }, { q: 'zq m', limit: 1 }, { limit: 7 }, { sort: 'updated' as const, q: 'zq', limit: 1 },
      { sort: 'updated' as const, limit: 10 }, { label: 'production', q: 'zq', limit: 1 }, { tags: ['red'], q: 'w', limit: 3 },
    ]) {
      const first = await page(opts);
      expect(first.nextCursor, JSON.stringify(opts)).not.toBeNull();
      const second = await nextPage(opts, first, true);
      if (second.nextCursor) await nextPage(opts, second);
    }
  });

  it('usage decides the lastUsed order and the unusedFor filter: those pages count every time', async () => {
    for (const opts of [{ sort: 'lastUsed' as const, q: 'zq', limit: 1 }, { unusedFor: '30d', limit: 5 }, { sort: 'lastUsed' as const, limit: 5 }]) {
      const first = await page(opts);
      const cursor = first.nextCursor!;
      expect(core.cursors.decode<Record<string, unknown>>(`admin-prompts:${opts.sort ?? 'name'}`, cursor).c).toBeUndefined();
      expect((await page({ ...opts, cursor })).counts).toBe(1);
    }
  });

  it("another query's cursor counts for its own query", async () => {
    const { nextCursor } = await page({ q: 'zq', limit: 5 });
    const other = await page({ q: 'or', limit: 5, cursor: nextCursor! });
    expect(other.counts).toBe(1);
    expect(other).toMatchObject({ total: SCAN + 1, totalIsLowerBound: true });
  });

  it('a carried count that was tampered with is refused like any tampered cursor', async () => {
    const { nextCursor } = await page({ limit: 5 });
    const [payload, sig] = nextCursor!.split('.');
    const body = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    body.v.c[0] = 999;
    const forged = `${Buffer.from(JSON.stringify(body)).toString('base64url')}.${sig}`;
    await expect(core.prompts.list({ limit: 5, cursor: forged })).rejects.toMatchObject({ code: 'bad_request' });
  });
});

describe('every write that can change the count makes the next page count again', () => {
  // `qj` is written into prompts of the window's first stretch only: every page after the
  // first finds none, so its total is the count itself.
  const qj = { q: 'qj', limit: 5 };
  const plain = (i: number | string) => core.prompts.createVersion(typeof i === 'number' ? name(i) : i, text('plain words'), actor);
  const marked = (i: number | string) => core.prompts.createVersion(typeof i === 'number' ? name(i) : i, text('plain words qj'), actor);

  /**
   * Page `probe` of `opts` (following the cursors; no count: the count carried is
   * reused), then `write`, then that page again by the same cursor: it counts once, its
   * total moves from `before` to `after`, and it is the page an earlier build's cursor
   * gives. The page after it reuses the count it made. The qj searches probe their third
   * page: the second may count on SQLite (see the header), and both find nothing.
   */
  async function across(opts: PromptListOptions, write: () => Promise<unknown>, before: number, after: number, probe = opts.q === 'qj' ? 3 : 2) {
    expect(after).not.toBe(before);
    let cursor = (await page(opts)).nextCursor!;
    for (let i = 2; i < probe; i++) cursor = (await page({ ...opts, cursor })).nextCursor!;
    expect(cursor).not.toBeNull();
    const reused = await page({ ...opts, cursor });
    expect(reused).toMatchObject({ counts: 0, total: before });
    await write();
    const fresh = await page({ ...opts, cursor });
    expect(fresh).toMatchObject({ counts: 1, total: after });
    const old = await page({ ...opts, cursor: withoutCount(cursor, opts.sort, opts.deleted) });
    expect(shape(fresh)).toEqual(shape(old));
    if (fresh.nextCursor) expect((await page({ ...opts, cursor: fresh.nextCursor })).counts).toBe(0);
  }

  it('a new version whose text now matches q, and one whose text no longer does', async () => {
    await across(qj, () => marked(5), 0, 1);
    await across(qj, () => plain(5), 1, 0);
    await marked(5);
    await marked(6);
  });

  it('delete, restore and purge', async () => {
    await across(qj, () => core.prompts.delete(name(5), actor), 2, 1);
    await across(qj, () => core.prompts.restore(name(5), actor), 1, 2);
    await core.prompts.delete(name(7), actor);
    await core.prompts.delete(name(8), actor);
    await across({ deleted: true, limit: 1 }, async () => {
      clock += 2 * DAY;
      expect(await core.prompts.purgeExpired()).toBe(2);
    }, 2, 0);
  });

  it('a rename', async () => {
    await across(qj, () => core.prompts.update(name(6), { name: 'zz-06' }, actor), 2, 1);
  });

  it('archive and unarchive (archived=false)', async () => {
    const opts = { ...qj, archived: false };
    await across(opts, () => core.prompts.update(name(5), { archived: true }, actor), 1, 0);
    await across(opts, () => core.prompts.update(name(5), { archived: false }, actor), 0, 1);
  });

  it('label moves: production (deactivate, activate), another label set and removed', async () => {
    const prod = { ...qj, label: 'production' };
    await across(prod, () => core.prompts.deactivate(name(5), actor), 1, 0);
    await across(prod, () => core.prompts.activate(name(5), 1, actor), 0, 1);
    for (let i = 9; i <= 34; i++) await core.labels.set(name(i), 'beta', 1, actor);
    const beta = { ...qj, label: 'beta' };
    await across(beta, () => core.labels.set(name(5), 'beta', 1, actor), 0, 1);
    await across(beta, () => core.labels.remove(name(5), 'beta', actor), 1, 0);
  });

  it('tags', async () => {
    const red = { ...qj, tags: ['red'] };
    await across(red, () => core.prompts.setTags(name(5), ['blue'], actor), 1, 0);
    await across(red, () => core.prompts.update(name(5), { tags: ['red'] }, actor), 0, 1);
  });

  it('an import, and a new prompt', async () => {
    await across(qj, () => core.bulk.apply([{ name: 'p-00a', mode: 'create', expectLatest: 0, versions: [text('qj imported')] }], actor), 1, 2);
    const all = { limit: 10 };
    const before = (await page(all)).total;
    await across(all, () => core.prompts.create({ name: 'q-new', ...text('hello') }, actor), before, before + 1);
  });

  it('sort=updated: a new version moves its prompt to the front of the window', async () => {
    for (const p of [name(5), 'zz-06', 'p-00a']) await plain(p);
    // The twelve newest: p-20 … p-31, none with qj.
    for (let i = 20; i <= 31; i++) await plain(i);
    await across({ ...qj, sort: 'updated' }, () => marked(33), 0, 1);
  });
});
