// GET /admin/v1/prompts?q= with 1–2 characters: no index serves them, so each request
// reads at most the scan limit of prompts (issue 21). A page that found fewer matches
// than its limit says searchIncomplete and how far it got (searchedThrough); its cursor
// continues the search, and following the cursors finds exactly what an unbounded search
// finds. Here the limit is lowered to 10 prompts. Every response is checked strictly
// against the OpenAPI document (makeClient).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { actor, coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { promptPage, type PromptPage } from '../helpers/prompt-pages.js';

let core: TestCore;
let call: ReturnType<typeof makeClient>['call'];
const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });
const name = (i: number) => `p-${String(i).padStart(2, '0')}`;
const RARE = [3, 17, 31]; // "the ZQX marker"
const PERCENT = 5; // "100% literal"

beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { poolMax: 4, adminToken: TOKEN, searchScanLimit: 10 });
  call = makeClient(core).call;
  const writes = Array.from({ length: 35 }, (_, i) => ({
    name: name(i),
    mode: 'create' as const,
    expectLatest: 0,
    versions: [{ arguments: [], messages: [text(`plain words${RARE.includes(i) ? ', the ZQX marker' : ''}${i === PERCENT ? ', 100% literal' : ''}`)] }],
  }));
  expect((await core.bulk.apply(writes, actor)).every((o) => o.ok)).toBe(true);
}, 60_000);
afterAll(() => core.close());

const list = (query: string) => promptPage(call, query);
/** Every page of a query, following nextCursor. */
async function walk(query: string): Promise<PromptPage[]> {
  const pages = [await list(query)];
  while (pages.at(-1)!.nextCursor) pages.push(await list(`${query}&cursor=${encodeURIComponent(pages.at(-1)!.nextCursor!)}`));
  return pages;
}

it('a rare 2-character search reads 10 prompts a page and says how far it got', async () => {
  const pages = await walk('?q=zq');
  expect(pages.map((p) => p.items.map((i) => i.name))).toEqual([[name(3)], [name(17)], [], [name(31)]]);
  expect(pages.map((p) => [p.searchIncomplete, p.searchedThrough])).toEqual([[true, name(9)], [true, name(19)], [true, name(29)], [false, null]]);
  // The first page's total is what it found, a lower bound.
  expect(pages[0]).toMatchObject({ total: 1, totalIsLowerBound: true });
  // Case-insensitive, the same prompts.
  expect((await walk('?q=ZQ')).flatMap((p) => p.items.map((i) => i.name))).toEqual(RARE.map(name));
});

it('a short page limit still stops at the scan limit', async () => {
  const first = await list('?q=zq&limit=1');
  expect(first).toMatchObject({ items: [{ name: name(3) }], searchIncomplete: true, searchedThrough: name(9) });
  const second = await list(`?q=zq&limit=1&cursor=${encodeURIComponent(first.nextCursor!)}`);
  expect(second).toMatchObject({ items: [{ name: name(17) }], searchIncomplete: true, searchedThrough: name(19) });
});

it('a 1-character search is literal: % matches a percent sign only', async () => {
  const pages = await walk('?q=%25');
  expect(pages.flatMap((p) => p.items.map((i) => i.name))).toEqual([name(PERCENT)]);
  expect(pages.length).toBe(4);
});

it('a frequent short search fills its pages and is not incomplete', async () => {
  const first = await list('?q=p&limit=5');
  expect(first.items.map((i) => i.name)).toEqual([0, 1, 2, 3, 4].map(name));
  expect(first).toMatchObject({ searchIncomplete: false, searchedThrough: null, totalIsLowerBound: true });
  expect(first.total).toBeGreaterThanOrEqual(10);
  const all = await walk('?q=p&limit=7');
  expect(all.flatMap((p) => p.items.map((i) => i.name))).toEqual(Array.from({ length: 35 }, (_, i) => name(i)));
  expect(all.every((p) => !p.searchIncomplete)).toBe(true);
});

it('a search of 3+ characters uses its index: complete, with an exact total', async () => {
  expect(await list('?q=zqx')).toMatchObject({ items: RARE.map((i) => ({ name: name(i) })), total: 3, totalIsLowerBound: false, searchIncomplete: false, searchedThrough: null, nextCursor: null });
});

it('filters narrow what the scan reads; sort=updated walks its own order', async () => {
  await core.prompts.update(name(17), { archived: true }, actor);
  try {
    // Only one archived prompt: the scan reads all of them at once.
    expect(await list('?q=zq&status=archived')).toMatchObject({ items: [{ name: name(17) }], total: 1, totalIsLowerBound: false, searchIncomplete: false });
    const live = await walk('?q=zq');
    expect(live.flatMap((p) => p.items.map((i) => i.name))).toEqual([name(3), name(31)]);
    expect(live[1]).toMatchObject({ searchedThrough: name(20) }); // p-17 left out of the window
  } finally {
    await core.prompts.update(name(17), { archived: false }, actor);
  }
  // p-17 was edited last: first in updated order.
  const pages = await walk('?q=zq&sort=updated');
  const found = pages.flatMap((p) => p.items.map((i) => i.name));
  expect(found[0]).toBe(name(17));
  expect([...found].sort()).toEqual(RARE.map(name));
  expect(pages.at(-1)!.searchIncomplete).toBe(false);
});

it('a window of exactly the scan limit is read whole: complete, with an exact total', async () => {
  const first10 = Array.from({ length: 10 }, (_, i) => name(i));
  for (const n of first10) await core.prompts.update(n, { archived: true }, actor);
  try {
    expect(await list('?q=zq&status=archived')).toMatchObject({ items: [{ name: name(3) }], total: 1, totalIsLowerBound: false, searchIncomplete: false, searchedThrough: null, nextCursor: null });
    // One more archived prompt: the same search now stops after its tenth.
    await core.prompts.update(name(10), { archived: true }, actor);
    expect(await list('?q=zq&status=archived')).toMatchObject({ items: [{ name: name(3) }], total: 1, totalIsLowerBound: true, searchIncomplete: true, searchedThrough: name(9) });
  } finally {
    for (const n of [...first10, name(10)]) await core.prompts.update(n, { archived: false }, actor);
  }
});
