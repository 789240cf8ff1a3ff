// The check gate in the core, on both databases: the dependents hook (a stand-in for
// the includes work's reverse-dependency lookup) makes a move re-check the prompts
// whose output it changes, a promotion refuses as a whole, and a library import that
// sets production is gated too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { DomainError, type VersionInput } from '../../src/core/index.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';

const actor = { name: 'test' };
const v = (text: string, tests: VersionInput['tests'] = []): VersionInput => ({
  arguments: [], messages: [{ role: 'user', content: { type: 'text', text } }], tests,
});
const says = (what: string) => [{ name: `says ${what}`, arguments: {}, expect: [{ contains: what }] }];

let core: TestCore;
const asked: [string, string][] = [];
beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  // "page" includes "header" under every label (what the includes work will report).
  core = await coreOn(url, { checks: { dependents: async (_repos, prompt, label) => (asked.push([prompt, label]), prompt === 'header' ? ['page'] : []) } });
  await core.prompts.create({ name: 'header', ...v('Welcome'), activate: true }, actor);
  await core.prompts.createVersion('header', v('Goodbye'), actor);
  // page's test fails once header no longer says Welcome... but without include
  // rendering its own output does not change, so its failing test stands for it.
  await core.prompts.create({ name: 'page', ...v('Body', says('Body')), activate: true }, actor);
  await core.prompts.createVersion('page', v('Body', says('Welcome')), actor);
});
afterAll(() => core.close());

const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(DomainError);
  expect((e as DomainError).code).toBe('conflict');
  return e as DomainError;
};

describe('the gate and dependents', () => {
  it('moving a prompt re-checks its dependents at the version they carry under that label', async () => {
    // page@production is v1, which passes: header moves.
    await core.labels.set('header', 'production', 2, actor);
    expect(asked).toContainEqual(['header', 'production']);
    // page@production → v2 (forced: its test fails), then moving header again re-checks page@2 and refuses.
    await core.labels.set('page', 'production', 2, actor, { force: true });
    const e = await refusal(core.labels.set('header', 'production', 1, actor));
    expect(e.errors).toEqual([{ path: 'page@2.tests[0]', message: expect.stringMatching(/says Welcome/) }]);
    expect((await core.prompts.get('header')).activeVersion).toBe(2);
    // Unprotected labels: no checks, no dependents asked.
    asked.length = 0;
    await core.labels.set('header', 'staging', 1, actor);
    expect(asked).toEqual([]);
  });

  it('a promotion is refused as a whole when a dependent fails, even if the moved prompts pass', async () => {
    await core.labels.set('header', 'canary', 1, actor);
    const e = await refusal(core.labels.promote('canary', { to: 'production' }, actor));
    expect(e.errors.map((x) => x.path)).toEqual(['page@2.tests[0]']);
    expect((await core.prompts.get('header')).activeVersion).toBe(2);
    const forced = await core.labels.promote('canary', { to: 'production', force: true }, actor);
    expect(forced.changes).toEqual([{ prompt: 'header', from: 2, to: 1 }]);
    const [event] = (await core.activity.list({ limit: 1 })).items;
    expect(event!.details).toMatchObject({ label: 'production', source: 'canary', forced: true, failedChecks: [{ path: 'page@2.tests[0]' }] });
  });

  it('a library import that sets production on a failing version is refused; new versions without test cases pass unread', async () => {
    const [out] = await core.bulk.apply([{ name: 'imported', mode: 'create', expectLatest: 0, versions: [v('Nope', says('Yes'))], activate: 1 }], actor);
    expect(out!.ok).toBe(false);
    const r = await refusal(Promise.reject((out as { error: unknown }).error));
    expect(r.errors[0]!.path).toBe('imported@1.tests[0]');
    await expect(core.prompts.get('imported')).rejects.toThrow(/not found/);
    const [fine] = await core.bulk.apply([{ name: 'imported', mode: 'create', expectLatest: 0, versions: [v('Fine')], activate: 1 }], actor);
    expect(fine!.ok).toBe(true);
    expect((await core.prompts.get('imported')).activeVersion).toBe(1);
  });
});
