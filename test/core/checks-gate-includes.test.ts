// The check gate with the real include lookup, on both databases: one write moving
// production on many prompts loads the include candidates once
// (src/core/checks/include-candidates-cache.ts) and still finds every dependent — a
// text include, an include message, transitively — and a batch of an import with one
// refused prompt leaves exactly that prompt unwritten.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { openStore } from '../../src/db/store.js';
import type { DbStore } from '../../src/db/store.js';
import type { Message, VersionInput } from '../../src/core/index.js';
import { dependentsOf } from '../../src/core/services/include-checks.js';
import { withIncludeCandidatesCache } from '../../src/core/checks/include-candidates-cache.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';

const actor = { name: 'test' };
const text = (t: string): Message => ({ role: 'user', content: { type: 'text', text: t } });
const v = (messages: Message[], tests: VersionInput['tests'] = []): VersionInput => ({ arguments: [], messages, tests });
const says = (what: string) => [{ name: `says ${what}`, arguments: {}, expect: [{ contains: what }] }];

let core: TestCore;
let store: DbStore;
beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url);
  store = await openStore(url);
  await core.bulk.apply([
    { name: 'header', mode: 'create', expectLatest: 0, versions: [v([text('Welcome')])], activate: 1 },
    { name: 'footer', mode: 'create', expectLatest: 0, versions: [v([text('Bye')])], activate: 1 },
  ], actor);
  // page includes header in text, card includes footer by an include message, frame includes page.
  const [page, card, frame] = await core.bulk.apply([
    { name: 'page', mode: 'create', expectLatest: 0, versions: [v([text('{{> header}} and the body')], says('Welcome'))], activate: 1 },
    { name: 'card', mode: 'create', expectLatest: 0, versions: [v([{ role: 'user', content: { type: 'include', prompt: 'footer' } } as Message])], activate: 1 },
    { name: 'frame', mode: 'create', expectLatest: 0, versions: [v([text('[{{> page}}]')], says('[Welcome and'))], activate: 1 },
  ], actor);
  expect([page!.ok, card!.ok, frame!.ok]).toEqual([true, true, true]);
});
afterAll(async () => {
  await store.close();
  await core.close();
});

describe('include candidates, loaded once per write', () => {
  it('answer every name as the per-name query does', async () => {
    const cached = withIncludeCandidatesCache(store.read);
    for (const name of ['header', 'footer', 'page', 'card', 'frame', 'nobody']) {
      expect(await dependentsOf(cached, name)).toEqual(await dependentsOf(store.read, name));
    }
    expect((await dependentsOf(cached, 'header')).map((d) => d.prompt)).toEqual(['page']);
    expect((await dependentsOf(cached, 'footer')).map((d) => d.prompt)).toEqual(['card']);
    expect(await dependentsOf(cached, 'frame')).toEqual([]);
  });

  it('an import batch moving production on many prompts refuses only the one whose dependents fail', async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ name: `plain-${i}`, mode: 'create' as const, expectLatest: 0, versions: [v([text(`plain ${i}`)])], activate: 1 }));
    const out = await core.bulk.apply([
      ...many.slice(0, 15),
      // header says Goodbye: page's test fails, and frame's (which includes page) too.
      { name: 'header', mode: 'append', expectLatest: 1, versions: [v([text('Goodbye')])], activate: 2 },
      // footer changes; card has no test case: it passes.
      { name: 'footer', mode: 'append', expectLatest: 1, versions: [v([text('See you')])], activate: 2 },
      ...many.slice(15),
    ], actor, { batchSize: 100 });
    const failed = out.filter((o) => !o.ok);
    expect(failed.map((o) => o.name)).toEqual(['header']);
    const error = (failed[0] as { error: { code: string; errors: { path: string }[] } }).error;
    expect(error.code).toBe('conflict');
    expect(error.errors.map((e) => e.path).sort()).toEqual(['frame@1.tests[0]', 'page@1.tests[0]']);
    expect((await core.prompts.get('header')).activeVersion).toBe(1);
    expect((await core.prompts.get('header')).latestVersion).toBe(1);
    expect((await core.prompts.get('footer')).activeVersion).toBe(2);
    expect((await core.prompts.get('plain-29')).activeVersion).toBe(1);
  });
});
