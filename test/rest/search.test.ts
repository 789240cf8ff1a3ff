// q= is a plain substring search: "%" and "_" match themselves, not SQL wildcards.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { actor, makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];

const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
  for (const [name, title] of [
    ['a_b', 'plain'],
    ['axb', 'plain'],
    ['sale', '50% off'],
    ['fifty', '50x off'],
    ['slash', 'back\\slash'],
    ['Upper', 'Case Title'],
    ['pastry', 'Éclair au CHOCOLAT'],
    ['quoted', 'say "hi" AND "bye" *now*'],
  ] as const) {
    await core.prompts.create({ name, title, arguments: [], messages: [text('hi')] }, actor);
  }
  for (const uri of ['file:///a_b.txt', 'file:///axb.txt', 'file:///100%25.txt']) {
    const res = await call('POST', '/resources', { uri, name: uri.slice(8), mimeType: 'text/plain', text: 'x' });
    expect(res.status, await res.clone().text()).toBe(201);
  }
});
afterAll(() => core.close());

const names = async (q: string) => ((await (await call('GET', `/prompts?q=${encodeURIComponent(q)}`)).json()).items as { name: string }[]).map((p) => p.name).sort();
const uris = async (q: string) => ((await (await call('GET', `/resources?q=${encodeURIComponent(q)}`)).json()).items as { uri: string }[]).map((r) => r.uri).sort();

it('"_" and "%" in q match only themselves', async () => {
  expect(await names('a_b')).toEqual(['a_b']);
  expect(await names('_')).toEqual(['a_b']);
  expect(await names('50%')).toEqual(['sale']);
  expect(await names('%')).toEqual(['sale']);
  expect(await names('\\')).toEqual(['slash']);
  expect(await uris('a_b')).toEqual(['file:///a_b.txt']);
  expect(await uris('%25')).toEqual(['file:///100%25.txt']);
});

it('quotes, AND and * in q are text, not FTS5 query syntax (SQLite trigram index)', async () => {
  expect(await names('"hi" and "b')).toEqual(['quoted']);
  expect(await names('*now*')).toEqual(['quoted']);
  expect(await names('" AND "')).toEqual(['quoted']);
  expect(await names('"hi" or')).toEqual([]);
  // spaces only, and an emoji (one trigram character, two UTF-16 units): text too
  expect(await names('   ')).toEqual([]);
  expect(await names('a\u{1F600}b')).toEqual([]);
});

it('matching ignores case, on SQLite and PostgreSQL alike', async () => {
  expect(await names('upper')).toEqual(['Upper']);
  expect(await names('CASE t')).toEqual(['Upper']);
  expect(await uris('A_B')).toEqual(['file:///a_b.txt']);
});

it('case folds beyond ASCII on both databases (the text is stored lowercased)', async () => {
  expect(await names('éclair')).toEqual(['pastry']);
  expect(await names('ÉCLAIR AU chocolat')).toEqual(['pastry']);
  expect(await names('PASTRY')).toEqual(['pastry']);
});

it('archived= and paging still apply to a search', async () => {
  await call('PATCH', '/prompts/axb', { archived: true });
  expect(((await (await call('GET', '/prompts?q=x&archived=false')).json()).items as { name: string }[]).map((p) => p.name)).toEqual(['fifty']);
  expect(((await (await call('GET', '/prompts?q=x&archived=true')).json()).items as { name: string }[]).map((p) => p.name)).toEqual(['axb']);
  const first = await (await call('GET', '/prompts?q=f&limit=1')).json();
  expect(first.items.map((p: { name: string }) => p.name)).toEqual(['fifty']);
  const second = await (await call('GET', `/prompts?q=f&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`)).json();
  expect(second.items.map((p: { name: string }) => p.name)).toEqual(['sale']);
  await call('PATCH', '/prompts/axb', { archived: false });
});

it('an ordinary substring still matches names and titles', async () => {
  expect(await names('x')).toEqual(['axb', 'fifty']);
  expect(await names('off')).toEqual(['fifty', 'sale']);
  expect(await uris('.txt')).toHaveLength(3);
});
