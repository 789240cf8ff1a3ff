// The prompt use cases straight through the core, no HTTP: activation, rollback,
// archive, refused versions, and the events each writes. Real database (SQLite, or
// PostgreSQL with PROMPTD_TEST_DB=postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, type ChangeEvent, type CreatePromptInput, type VersionInput } from '../../src/core/index.js';
import { actor, makeCore, type TestCore } from '../helpers/db.js';

let core: TestCore;
beforeAll(async () => {
  core = await makeCore();
  await core.catalog.ready();
});
afterAll(() => core?.close());

const text = (t: string, args: string[] = []): VersionInput => ({
  arguments: args.map((name) => ({ name, required: true })),
  messages: [{ role: 'user', content: { type: 'text', text: t } }],
});
const prompt = (name: string, t = 'hello', extra: Partial<CreatePromptInput> = {}): CreatePromptInput => ({ name, ...text(t), ...extra });

/** Events about `name` written since `after`, as [action, details]. */
async function eventsOf(name: string, after: number): Promise<[string, Record<string, unknown> | null][]> {
  return (await core.feed.since(after)).filter((e: ChangeEvent) => e.entityKey === name).map((e) => [e.action, e.details]);
}

async function rejection(p: Promise<unknown>): Promise<DomainError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(DomainError);
  return e as DomainError;
}

describe('activation and rollback', () => {
  it('activating a newer version is an activation, an older one a rollback; the same one again writes nothing', async () => {
    await core.prompts.create(prompt('act', 'v1'), actor);
    await core.prompts.createVersion('act', text('v2'), actor);
    await core.prompts.createVersion('act', text('v3'), actor);
    const start = core.feed.lastId();

    expect((await core.prompts.activate('act', 3, actor)).activeVersion).toBe(3);
    expect((await core.prompts.activate('act', 1, actor)).activeVersion).toBe(1);
    const before = await core.prompts.get('act');
    const again = await core.prompts.activate('act', 1, actor);
    expect(again.revision).toBe(before.revision);

    expect(await eventsOf('act', start)).toEqual([
      ['prompt.activated', { version: 3, previous: null, label: 'production', from: null, to: 3 }],
      ['prompt.rolled_back', { version: 1, previous: 3, label: 'production', from: 3, to: 1 }],
    ]);
    expect(core.catalog.find('act')?.version.version).toBe(1);
  });

  it('activating a version that does not exist is a validation error naming it, and changes nothing', async () => {
    const before = await core.prompts.get('act');
    const e = await rejection(core.prompts.activate('act', 9, actor));
    expect(e.code).toBe('validation');
    expect(e.message).toBe('prompt "act" has no version 9');
    expect(e.errors).toEqual([{ path: 'version', message: 'no version 9' }]);
    expect((await core.prompts.get('act')).revision).toBe(before.revision);
    expect((await rejection(core.prompts.activate('nope', 1, actor))).code).toBe('not_found');
  });

  it('a new version saved with activate is served at once; a draft is not', async () => {
    await core.prompts.createVersion('act', { ...text('v4'), activate: true }, actor);
    expect(core.catalog.find('act')?.version.version).toBe(4);
    await core.prompts.createVersion('act', text('v5 draft'), actor);
    expect(core.catalog.find('act')?.version.version).toBe(4);
    expect((await core.prompts.get('act')).latestVersion).toBe(5);
  });

  it('deactivating stops serving; the versions stay', async () => {
    const d = await core.prompts.deactivate('act', actor);
    expect(d.activeVersion).toBeNull();
    expect(core.catalog.find('act')).toBeUndefined();
    expect((await core.prompts.listVersions('act', {})).items.map((v) => v.version)).toEqual([5, 4, 3, 2, 1]);
  });
});

describe('archive', () => {
  it('an archived prompt keeps its active version but is not served; unarchiving serves it again', async () => {
    await core.prompts.create(prompt('arch', 'served', { activate: true }), actor);
    expect(core.catalog.find('arch')).toBeDefined();
    const start = core.feed.lastId();
    const archived = await core.prompts.update('arch', { archived: true }, actor);
    expect([archived.archived, archived.activeVersion]).toEqual([true, 1]);
    expect(core.catalog.find('arch')).toBeUndefined();
    // Activation while archived is recorded but changes nothing served.
    await core.prompts.createVersion('arch', text('v2'), actor);
    await core.prompts.activate('arch', 2, actor);
    expect(core.catalog.find('arch')).toBeUndefined();
    await core.prompts.update('arch', { archived: false }, actor);
    expect(core.catalog.find('arch')?.version.version).toBe(2);
    const served = (await core.feed.since(start)).filter((e) => e.entityKey === 'arch').map((e) => [e.action, e.served]);
    expect(served).toEqual([
      ['prompt.archived', true],
      ['version.created', false],
      ['prompt.activated', false],
      ['prompt.unarchived', true],
    ]);
  });

  it('renaming onto a taken name is a conflict on `name`', async () => {
    const e = await rejection(core.prompts.update('arch', { name: 'act' }, actor));
    expect([e.code, e.errors]).toEqual(['conflict', [{ path: 'name', message: 'already exists' }]]);
  });
});

describe('refused writes', () => {
  it('a refused version leaves numbering contiguous: the next accepted one takes the next number', async () => {
    await core.prompts.create(prompt('gapless'), actor);
    const start = core.feed.lastId();
    // {{who}} is not a declared argument: the whole version is refused.
    const e = await rejection(core.prompts.createVersion('gapless', text('Hi {{who}}'), actor));
    expect(e.code).toBe('validation');
    expect(e.message).toMatch(/^the version is invalid: /);
    const missing = await rejection(core.prompts.createVersion('gapless', { ...text('see'), messages: [{ role: 'user', content: { type: 'resource', uri: 'file:///nowhere.txt' } }] }, actor));
    expect(missing.code).toBe('validation');
    expect((await core.prompts.get('gapless')).latestVersion).toBe(1);

    const { created } = await core.prompts.createVersion('gapless', text('Hi {{who}}', ['who']), actor);
    expect(created.version).toBe(2);
    expect((await core.prompts.listVersions('gapless', {})).items.map((v) => v.version)).toEqual([2, 1]);
    expect(await eventsOf('gapless', start)).toEqual([['version.created', { version: 2, labels: ['latest'] }]]);
  });

  it('a stale If-Match is a 412 and writes nothing; createVersion returns the ETag of its own write', async () => {
    const { etag } = await core.prompts.createVersion('gapless', text('v3'), actor);
    expect(etag).toBe(`"${(await core.prompts.get('gapless')).revision}"`);
    const next = await core.prompts.createVersion('gapless', text('v4'), actor, { ifMatch: etag });
    expect(next.created.version).toBe(4);
    expect(next.etag).not.toBe(etag);
    const e = await rejection(core.prompts.createVersion('gapless', text('lost update'), actor, { ifMatch: etag }));
    expect(e.code).toBe('precondition_failed');
    expect((await core.prompts.get('gapless')).latestVersion).toBe(4);
  });

  it('creating a prompt whose name is taken is a conflict; nothing else is written', async () => {
    const start = core.feed.lastId();
    const e = await rejection(core.prompts.create(prompt('gapless', 'again'), actor));
    expect([e.code, e.message]).toEqual(['conflict', 'a prompt named "gapless" already exists']);
    expect(await core.feed.since(start)).toEqual([]);
  });
});

describe('import through the same write path', () => {
  it('bulk writes follow the same rules: stale plans, missing targets and invalid versions fail per prompt only', async () => {
    await core.prompts.create(prompt('imp-a', 'a1'), actor);
    const out = await core.bulk.apply(
      [
        { name: 'imp-new', mode: 'create', expectLatest: 0, versions: [text('n1'), text('n2')], activate: 1 },
        { name: 'imp-a', mode: 'append', expectLatest: 1, versions: [text('a2')], activate: 2 },
        { name: 'imp-stale', mode: 'append', expectLatest: 7, versions: [text('x')] },
        { name: 'imp-a', mode: 'append', expectLatest: 5, versions: [text('a-stale')] },
        { name: 'imp-bad', mode: 'create', expectLatest: 0, versions: [text('Hi {{who}}')] },
        { name: 'gapless', mode: 'append', expectLatest: 4, versions: [], activate: 12 },
      ],
      { name: 'import' },
    );
    expect(out.map((o) => (o.ok ? ['ok', o.created, o.activated] : ['error', (o.error as DomainError).code]))).toEqual([
      ['ok', [1, 2], true],
      ['ok', [2], true],
      ['error', 'not_found'],
      ['error', 'precondition_failed'],
      ['error', 'validation'],
      ['error', 'validation'],
    ]);
    expect(core.catalog.find('imp-new')?.version.version).toBe(1);
    expect((await core.prompts.get('imp-new')).latestVersion).toBe(2);
    expect(core.catalog.find('imp-a')?.version.version).toBe(2);
    expect((await core.prompts.get('imp-a')).latestVersion).toBe(2);
    await expect(core.prompts.get('imp-bad')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('re-importing an older active version is recorded as a rollback, as through the API', async () => {
    const start = core.feed.lastId();
    const [o] = await core.bulk.apply([{ name: 'imp-a', mode: 'append', expectLatest: 2, versions: [], activate: 1 }], { name: 'import' });
    expect(o).toMatchObject({ ok: true, activated: true, created: [] });
    expect(await eventsOf('imp-a', start)).toEqual([['prompt.rolled_back', { version: 1, previous: 2, label: 'production', from: 2, to: 1 }]]);
  });
});
