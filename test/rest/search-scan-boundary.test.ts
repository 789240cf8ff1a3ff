// The bounded q= scan (1–2 characters, no index) at the edges of its stretch, against a
// model of what it answers (issue 21; bench/history.md 16, 32): every page holds the
// matches among the next `scanLimit` prompts of the window (the filters without q, after
// the cursor, in the sort's order), the first `limit` of them; a page that found fewer
// stops after the scanLimit-th prompt when more follow (searchIncomplete, searchedThrough,
// the cursor continues after it); a full page continues after its last item. The total
// of a first page with room to spare is its length (a lower bound when it stopped); of
// any other page, the matches among the window's first scanLimit + 1 prompts from its
// start. PostgreSQL finds a page and where it stopped in one walk, SQLite in two
// statements: both must give exactly this, matches placed on the scanLimit-th and the
// (scanLimit + 1)-th prompt included. Here scanLimit is 5.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { actor, coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { promptPage, type PromptPage } from '../helpers/prompt-pages.js';

const SCAN = 5;
const N = 23;
let core: TestCore;
let call: ReturnType<typeof makeClient>['call'];
const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });
const name = (i: number) => `s-${String(i).padStart(2, '0')}`;
// Markers by prompt index (name order): `qj` on the 5th and 6th prompts of the window and
// around later stretch edges, `vw` on the 6th only, `kx` almost everywhere, `%` twice.
const MARKS: Record<string, number[]> = {
  qj: [4, 5, 9, 10, 14, 15, 20, 22],
  vw: [5],
  kx: [0, 1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22],
  '%': [6, 19],
};
const ARCHIVED = [2, 5, 11, 16, 17, 18];
const textOf = (i: number) => `plain words ${Object.entries(MARKS).filter(([, at]) => at.includes(i)).map(([m]) => `<${m}>`).join(' ')}`;

beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { poolMax: 4, adminToken: TOKEN, searchScanLimit: SCAN });
  call = makeClient(core).call;
  // One at a time, so sort=updated has an order of its own (newest first).
  for (let i = 0; i < N; i++) {
    const [o] = await core.bulk.apply([{ name: name(i), mode: 'create', expectLatest: 0, versions: [{ arguments: [], messages: [text(textOf(i))] }] }], actor);
    expect(o!.ok).toBe(true);
  }
  for (const i of ARCHIVED) await core.prompts.update(name(i), { archived: true }, actor);
}, 120_000);
afterAll(() => core.close());

const list = (query: string) => promptPage(call, query);

/** What each page of `q` should be, from the window's order (the same list without q). */
function model(order: string[], q: string, limit: number) {
  const hits = new Set(MARKS[q]!.map(name));
  const head = order.slice(0, SCAN + 1);
  const firstCount = { n: head.filter((n) => hits.has(n)).length, partial: order.length > SCAN };
  const pages: ({ names: string[]; more: boolean } & Pick<PromptPage, 'total' | 'totalIsLowerBound' | 'searchIncomplete' | 'searchedThrough'>)[] = [];
  for (let at = 0, first = true; ; first = false) {
    const read = order.slice(at, at + SCAN);
    const found = read.filter((n) => hits.has(n));
    const full = found.length > limit;
    const names = found.slice(0, limit);
    const stop = !full && order.length > at + SCAN ? read.at(-1)! : undefined;
    const counted = first && !full ? { n: names.length, partial: stop !== undefined } : firstCount;
    const total = Math.min(Math.max(counted.n, names.length), 1000);
    const more = full || stop !== undefined;
    pages.push({ names, more, total, totalIsLowerBound: counted.partial, searchIncomplete: !full && stop !== undefined, searchedThrough: full ? null : (stop ?? null) });
    if (!more) return pages;
    at = order.indexOf(full ? names.at(-1)! : stop!) + 1;
  }
}

for (const sort of ['name', 'updated', 'lastUsed'] as const) {
  for (const filter of ['', '&status=archived', '&archived=all']) {
    it(`matches the model at the stretch edges: sort=${sort}${filter}`, async () => {
      const base = `?sort=${sort}${filter}`;
      const order = (await list(`${base}&limit=100`)).items.map((i) => i.name);
      expect(order.length).toBeGreaterThan(SCAN); // every window has more than one stretch
      for (const q of Object.keys(MARKS)) {
        for (const limit of [1, 2, 3, 50]) {
          const want = model(order, q, limit);
          const got: PromptPage[] = [await list(`${base}&q=${encodeURIComponent(q)}&limit=${limit}`)];
          while (got.at(-1)!.nextCursor && got.length <= want.length) {
            got.push(await list(`${base}&q=${encodeURIComponent(q)}&limit=${limit}&cursor=${encodeURIComponent(got.at(-1)!.nextCursor!)}`));
          }
          const shape = (p: PromptPage) => ({ names: p.items.map((i) => i.name), more: p.nextCursor !== null, total: p.total, totalIsLowerBound: p.totalIsLowerBound, searchIncomplete: p.searchIncomplete, searchedThrough: p.searchedThrough });
          expect(got.map(shape), `q=${q} limit=${limit}`).toEqual(want);
        }
      }
    }, 60_000);
  }
}
