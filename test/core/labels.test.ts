// Release labels at the service level (no HTTP): pointers, the production alias,
// the change log, If-Match, promotion, the protected-label check and the served views.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatePromptInputSchema, VersionInputSchema } from '../../src/core/schemas.js';
import { createLabelPolicy } from '../../src/core/label-policy.js';
import { actor, makeCore, type TestCore } from '../helpers/db.js';

let core: TestCore;
const create = (name: string, text: string, activate = true) =>
  core.prompts.create(CreatePromptInputSchema.parse({ name, arguments: [], messages: [{ role: 'user', content: { type: 'text', text } }], activate }), actor);
const addVersion = (name: string, text: string) => core.prompts.createVersion(name, VersionInputSchema.parse({ arguments: [], messages: [{ role: 'user', content: { type: 'text', text } }] }), actor);
const code = async (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code);
const eventsOf = async (name: string) => (await core.feed.since(0, 10_000)).filter((e) => e.entityKey === name);

beforeAll(async () => {
  core = await makeCore();
});
afterAll(() => core.close());

describe('label service', () => {
  it('activation is the production label: detail, versions and the label list agree', async () => {
    await create('alpha', 'a1');
    await addVersion('alpha', 'a2');
    expect((await core.labels.list('alpha')).items).toEqual([{ label: 'production', version: 1 }]);
    await core.labels.set('alpha', 'staging', 2, actor);
    const d = await core.prompts.get('alpha');
    expect(d.labels).toEqual(['production', 'staging']);
    expect(d.activeVersion).toBe(1);
    const versions = (await core.prompts.listVersions('alpha', {})).items;
    expect(versions.map((v) => [v.version, v.labels, v.active])).toEqual([[2, ['staging'], false], [1, ['production'], true]]);
    // Moving production through the label API is activation.
    await core.labels.set('alpha', 'production', 2, actor);
    expect((await core.prompts.get('alpha')).activeVersion).toBe(2);
    await core.prompts.deactivate('alpha', actor);
    expect((await core.labels.list('alpha')).items).toEqual([{ label: 'staging', version: 2 }]);
    expect((await core.prompts.get('alpha')).activeVersion).toBeNull();
  });

  it('every move is in the change log with actor, label, from and to', async () => {
    await create('beta', 'b1');
    await addVersion('beta', 'b2');
    await core.labels.set('beta', 'staging', 2, actor);
    await core.labels.set('beta', 'staging', 1, actor);
    await core.labels.remove('beta', 'staging', actor);
    await core.prompts.activate('beta', 2, actor);
    const moves = (await eventsOf('beta')).filter((e) => e.details && 'label' in e.details);
    expect(moves.map((e) => [e.action, e.actor, e.details!.label, e.details!.from, e.details!.to])).toEqual([
      ['prompt.activated', 'test', 'production', null, 1],
      ['label.set', 'test', 'staging', null, 2],
      ['label.set', 'test', 'staging', 2, 1],
      ['label.removed', 'test', 'staging', 1, null],
      ['prompt.activated', 'test', 'production', 1, 2],
    ]);
    // Setting a label where it already points changes nothing and logs nothing.
    const before = (await eventsOf('beta')).length;
    await core.labels.set('beta', 'production', 2, actor);
    expect((await eventsOf('beta')).length).toBe(before);
  });

  it('refuses bad names and `latest` (validation, naming label), unknown prompts and versions (not_found), stale If-Match (412)', async () => {
    await create('gamma', 'g1');
    for (const bad of ['Staging', '-x', 'a'.repeat(37), 'latest', 'with space']) {
      const e = await core.labels.set('gamma', bad, 1, actor).catch((x) => x);
      expect(e.code, bad).toBe('validation');
      expect(e.errors[0].path).toBe('label');
    }
    expect(await code(core.labels.set('nope', 'staging', 1, actor))).toBe('not_found');
    expect(await code(core.labels.set('gamma', 'staging', 9, actor))).toBe('not_found');
    expect(await code(core.labels.remove('gamma', 'staging', actor))).toBe('not_found');
    const { etag } = await core.labels.set('gamma', 'staging', 1, actor);
    expect(etag).toMatch(/^"\d+"$/);
    expect(await code(core.labels.set('gamma', 'canary', 1, actor, { ifMatch: '"1"' }))).toBe('precondition_failed');
    expect(await code(core.labels.set('gamma', 'canary', 1, actor, { ifMatch: etag }))).toBe('ok');
  });

  it('promote copies pointers in one go; dryRun shows the same changes without writing; named prompts only', async () => {
    for (const n of ['p1', 'p2', 'p3']) {
      await create(n, `${n} v1`);
      await addVersion(n, `${n} v2`);
    }
    await core.labels.set('p1', 'rc', 2, actor);
    await core.labels.set('p2', 'rc', 2, actor);
    await core.labels.set('p3', 'rc', 1, actor); // already what production serves
    const dry = await core.labels.promote('rc', { to: 'production', dryRun: true }, actor);
    expect(dry.changes).toEqual([{ prompt: 'p1', from: 1, to: 2 }, { prompt: 'p2', from: 1, to: 2 }]);
    expect((await core.prompts.get('p1')).activeVersion).toBe(1);
    const only = await core.labels.promote('rc', { to: 'production', prompts: ['p2'] }, actor);
    expect(only.changes).toEqual([{ prompt: 'p2', from: 1, to: 2 }]);
    const all = await core.labels.promote('rc', { to: 'production' }, actor);
    expect(all.changes).toEqual([{ prompt: 'p1', from: 1, to: 2 }]);
    expect((await core.prompts.get('p1')).activeVersion).toBe(2);
    const ev = (await eventsOf('p1')).at(-1)!;
    expect(ev).toMatchObject({ action: 'labels.promoted', served: true, details: { label: 'production', source: 'rc', from: 1, to: 2 } });
    // A new label (no pointers yet) gets from: null.
    expect((await core.labels.promote('rc', { to: 'qa', prompts: ['p1'] }, actor)).changes).toEqual([{ prompt: 'p1', from: null, to: 2 }]);
    expect(await code(core.labels.promote('rc', { to: 'rc' }, actor))).toBe('validation');
    expect(await code(core.labels.promote('rc', { to: 'latest' }, actor))).toBe('validation');
    expect(await code(core.labels.promote('rc', { to: 'qa', prompts: ['no-such'] }, actor))).toBe('not_found');
    const e = await core.labels.promote('rc', { to: 'qa', prompts: ['alpha'] }, actor).catch((x) => x);
    expect(e.code).toBe('validation');
    expect(e.errors[0].path).toBe('prompts[0]');
    const summary = (await core.labels.summary()).items;
    expect(summary.find((l) => l.label === 'rc')).toEqual({ label: 'rc', prompts: 3 });
    expect(summary.find((l) => l.label === 'qa')).toEqual({ label: 'qa', prompts: 1 });
    expect((await core.prompts.list({ label: 'rc' })).items.map((p) => p.name)).toEqual(['p1', 'p2', 'p3']);
    expect((await core.prompts.list({ label: 'rc', q: 'p2' })).items.map((p) => p.name)).toEqual(['p2']);
  });

  it('the protected-label check is one function: a non-admin may move staging but not production', () => {
    const policy = createLabelPolicy(['production']);
    expect(() => policy.authorizeLabelMove({ name: 'viewer', admin: false }, 'staging')).not.toThrow();
    expect(() => policy.authorizeLabelMove({ name: 'viewer', admin: false }, 'production')).toThrow(/protected/);
    expect(() => policy.authorizeLabelMove({ name: 'admin-token' }, 'production')).not.toThrow();
  });

  it('is enforced on every path that moves a protected label', async () => {
    const viewer = { name: 'viewer', admin: false };
    await create('delta', 'd1', false);
    expect(await code(core.labels.set('delta', 'production', 1, viewer))).toBe('forbidden');
    expect(await code(core.prompts.activate('delta', 1, viewer))).toBe('forbidden');
    expect(await code(core.labels.promote('rc', { to: 'production' }, viewer))).toBe('forbidden');
    expect(await code(core.labels.set('delta', 'staging', 1, viewer))).toBe('ok');
  });

  it('serves each label as its own view, sharing one entry per distinct version', async () => {
    const prod = await core.catalog.open('production');
    const staging = await core.catalog.open('staging');
    const latest = await core.catalog.open('latest');
    expect(staging.find('alpha')?.version.version).toBe(2);
    expect(prod.find('alpha')).toBeUndefined(); // deactivated above
    expect(prod.find('p1')?.version.version).toBe(2);
    expect(latest.find('gamma')?.version.version).toBe(1);
    const names = (v: typeof prod) => v.list({ limit: 100 }).prompts.map((p) => p.name);
    expect(names(staging)).toEqual(['alpha', 'delta', 'gamma']);
    // one entry per distinct version across the three views
    const ids = new Set<string>();
    for (const v of [prod, staging, latest]) for (const p of v.list({ limit: 100 }).prompts) ids.add(`${p.name}@${p.version.version}`);
    expect(core.catalog.stats().versions).toBe(ids.size);
    await expect(core.catalog.open('nope')).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/known labels: .*production.*staging/) });
  });

  it('views follow moves, new versions (latest), renames and archiving', async () => {
    const staging = await core.catalog.open('staging');
    const latest = await core.catalog.open('latest');
    const changed: string[][] = [];
    const off = core.catalog.onServedChange((_e, labels) => changed.push([...labels].sort()));
    await core.labels.set('beta', 'staging', 1, actor);
    expect(staging.find('beta')?.version.version).toBe(1);
    expect(changed.at(-1)).toEqual(['staging']);
    await addVersion('gamma', 'g2');
    expect(latest.find('gamma')?.version.version).toBe(2);
    expect(changed.at(-1)).toEqual(['latest']);
    await core.prompts.update('alpha', { name: 'alpha2' }, actor);
    expect(staging.find('alpha')).toBeUndefined();
    expect(staging.find('alpha2')?.name).toBe('alpha2');
    expect(changed.at(-1)).toEqual(['latest', 'staging']); // production does not carry it
    await core.prompts.update('alpha2', { archived: true }, actor);
    expect(staging.find('alpha2')).toBeUndefined();
    expect(latest.find('alpha2')).toBeUndefined();
    expect(changed.at(-1)).toEqual(['latest', 'staging']);
    off();
  });
});
