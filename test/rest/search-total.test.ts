// GET /admin/v1/prompts?q=: a search counts its matches up to SEARCH_TOTAL_CAP; beyond,
// total is the cap and totalIsLowerBound says "more" (issue 21: an exact count of a
// frequent query read every prompt's text). Lists without q= stay exact. Every response
// is checked strictly against the OpenAPI document (makeClient).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { SEARCH_TOTAL_CAP } from '../../src/core/services/prompt-service.js';
import { actor, makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });
const MANY = SEARCH_TOTAL_CAP + 5;

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
  // MANY prompts say "common"; every 100th also says "sometimes"; one says "unique".
  const writes = Array.from({ length: MANY }, (_, i) => ({
    name: `p-${String(i).padStart(5, '0')}`,
    mode: 'create' as const,
    expectLatest: 0,
    versions: [{ arguments: [], messages: [text(`common words${i % 100 === 0 ? ', sometimes' : ''}${i === 7 ? ', unique' : ''}`)] }],
  }));
  const out = await core.bulk.apply(writes, actor);
  expect(out.every((o) => o.ok)).toBe(true);
}, 120_000);
afterAll(() => core.close());

type PageBody = { items: { name: string }[]; nextCursor: string | null; total: number; totalIsLowerBound: boolean };
const list = async (query: string): Promise<PageBody> => {
  const res = await call('GET', `/prompts${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
};

it('a frequent search says "more than the cap"; a first and a later page alike', async () => {
  const first = await list('?q=COMMON&limit=10');
  expect(first).toMatchObject({ total: SEARCH_TOTAL_CAP, totalIsLowerBound: true });
  expect(first.items).toHaveLength(10);
  const second = await list(`?q=common&limit=10&cursor=${encodeURIComponent(first.nextCursor!)}`);
  expect(second).toMatchObject({ total: SEARCH_TOTAL_CAP, totalIsLowerBound: true });
  expect(second.items[0]!.name).toBe('p-00010');
});

it('a search below the cap is exact, with or without a count query', async () => {
  expect(await list('?q=sometimes&limit=3')).toMatchObject({ total: Math.ceil(MANY / 100), totalIsLowerBound: false });
  expect(await list('?q=sometimes')).toMatchObject({ total: Math.ceil(MANY / 100), totalIsLowerBound: false });
  expect(await list('?q=unique')).toMatchObject({ total: 1, totalIsLowerBound: false, items: [{ name: 'p-00007' }] });
  expect(await list('?q=absent-here')).toMatchObject({ total: 0, totalIsLowerBound: false, items: [] });
});

it('exactly the cap is exact; one more is a lower bound', async () => {
  // Archive all but SEARCH_TOTAL_CAP of the matches: then exactly the cap match.
  const extra = MANY - SEARCH_TOTAL_CAP;
  for (let i = 0; i < extra; i++) await core.prompts.update(`p-${String(MANY - 1 - i).padStart(5, '0')}`, { archived: true }, actor);
  expect(await list('?q=common&limit=5')).toMatchObject({ total: SEARCH_TOTAL_CAP, totalIsLowerBound: false });
  await core.prompts.update(`p-${String(MANY - 1).padStart(5, '0')}`, { archived: false }, actor);
  expect(await list('?q=common&limit=5')).toMatchObject({ total: SEARCH_TOTAL_CAP, totalIsLowerBound: true });
});

it('a list without q= counts exactly beyond the cap', async () => {
  expect(await list('?limit=1&archived=all')).toMatchObject({ total: MANY, totalIsLowerBound: false });
});
