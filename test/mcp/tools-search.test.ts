// list_prompts `query` over the served catalog: the raw documents are checked before
// any is parsed (src/core/catalog-search.ts), which must never drop a real match —
// characters that lowercase to ASCII, quotes JSON escapes — nor let template text match.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { connect, createPrompt, newCore, textPrompt } from './helpers.js';

let core: Core;
beforeAll(async () => {
  core = await newCore();
  await createPrompt(core, textPrompt('temp', 'x', { title: '\u212A', description: null }));
  await createPrompt(core, textPrompt('quote', 'x', { description: 'say "hi" now' }));
  await createPrompt(core, textPrompt('plain', 'the needle is only in this template'));
  // The search reads a document's head up to the description: escapes in the title must not end it early.
  await createPrompt(core, textPrompt('escapes', 'x', { title: 'ends in a trailing \\', description: 'after "escapes" comes tail-desc' }));
  await createPrompt(core, textPrompt('untitled', 'x', { description: 'untitled-desc' }));
  for (let i = 0; i < 9; i++) await createPrompt(core, textPrompt(`n-${i}`, 'x', { description: i % 3 === 0 ? 'Match ME' : 'other' }));
});
afterAll(() => core.close());

const search = async (query: string) => {
  const { client, close } = await connect(core);
  const r = (await client.callTool({ name: 'list_prompts', arguments: { query } })).structuredContent as { prompts: { name: string }[] };
  await close();
  return r.prompts.map((p) => p.name);
};

it('finds a title whose only match is a character that lowercases to ASCII (the Kelvin sign)', async () => {
  expect(await search('K')).toEqual(['temp']);
});

it('finds text JSON escapes in the document (a quote), and case-insensitively', async () => {
  expect(await search('SAY "HI" NOW')).toEqual(['quote']);
  expect(await search('match me')).toEqual(['n-0', 'n-3', 'n-6']);
});

it('finds a description after a title with escapes, or after no title', async () => {
  expect(await search('tail-desc')).toEqual(['escapes']);
  expect(await search('trailing')).toEqual(['escapes']);
  expect(await search('untitled-DESC')).toEqual(['untitled']);
});

it('template text is not searched', async () => {
  expect(await search('needle')).toEqual([]);
});

it('a bounded scan hands back a cursor from the last prompt examined, and the walk finds every match once', async () => {
  const view = core.catalog.view('production');
  await view.ready();
  const found: string[] = [];
  let cursor: string | undefined;
  let calls = 0;
  do {
    const page = view.search({ query: 'match', cursor, limit: 2, scan: 2 });
    expect(page.prompts.length).toBeLessThanOrEqual(2);
    found.push(...page.prompts.map((p) => p.name));
    cursor = page.nextCursor;
    calls++;
  } while (cursor);
  expect(found).toEqual(['n-0', 'n-3', 'n-6']);
  // 14 prompts, 2 examined per call: the walk needs 7 calls, the scan bound is real.
  expect(calls).toBe(7);
});
