// Release labels and soft delete together: a deleted prompt leaves every label view
// (and the label counts and promotions), its delete snapshot records its labels, and a
// restore brings it back under the same labels and tells those views' listeners.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatePromptInputSchema, VersionInputSchema } from '../../src/core/schemas.js';
import { actor, makeCore, type TestCore } from '../helpers/db.js';

let core: TestCore;
const create = (name: string, text: string) =>
  core.prompts.create(CreatePromptInputSchema.parse({ name, arguments: [], messages: [{ role: 'user', content: { type: 'text', text } }], activate: true }), actor);
const addVersion = (name: string, text: string) => core.prompts.createVersion(name, VersionInputSchema.parse({ arguments: [], messages: [{ role: 'user', content: { type: 'text', text } }] }), actor);
const eventsOf = async (name: string, action: string) => (await core.feed.since(0, 10_000)).filter((e) => e.entityKey === name && e.action === action);

beforeAll(async () => {
  core = await makeCore();
  await create('kept', 'k1');
  await create('binned', 'b1');
  await addVersion('binned', 'b2');
  await addVersion('binned', 'b3');
  await core.labels.set('binned', 'staging', 2, actor);
  await core.labels.set('binned', 'canary', 3, actor);
  await core.labels.set('kept', 'staging', 1, actor);
});
afterAll(() => core.close());

describe('labels and soft delete', () => {
  it('a deleted prompt vanishes from every label view, the label counts and promotions; restore brings its labels back', async () => {
    const views = await Promise.all(['production', 'staging', 'canary', 'latest'].map((l) => core.catalog.open(l)));
    for (const v of views) expect(v.find('binned'), v.label).toBeDefined();
    const changed: string[][] = [];
    const off = core.catalog.onServedChange((_e, labels) => changed.push([...labels].sort()));

    await core.prompts.delete('binned', actor);
    for (const v of views) expect(v.find('binned'), v.label).toBeUndefined();
    expect(views[1]!.find('kept')).toBeDefined();
    expect(changed.at(-1)).toEqual(['canary', 'latest', 'production', 'staging']);
    expect((await core.labels.summary()).items).toEqual([{ label: 'production', prompts: 1 }, { label: 'staging', prompts: 1 }]);
    // Only the deleted prompt carried canary: it is no longer a known label (#37.4).
    await expect(core.prompts.list({ label: 'canary' })).rejects.toMatchObject({ code: 'not_found', message: 'label "canary" is not known; known labels: latest, production, staging' });
    expect((await core.prompts.list({ label: 'canary', deleted: true })).items.map((p) => p.name)).toEqual(['binned']);
    // A promotion does not touch the deleted prompt's pointers.
    expect((await core.labels.promote('staging', { to: 'production', dryRun: true }, actor)).changes.map((c) => c.prompt)).toEqual([]);
    expect(await core.catalog.knownLabels()).not.toContain('canary');

    const restored = await core.prompts.restore('binned', actor);
    expect(restored.labels).toEqual(['canary', 'production', 'staging']);
    expect(views.map((v) => v.find('binned')?.version.version)).toEqual([1, 2, 3, 3]);
    expect(changed.at(-1)).toEqual(['canary', 'latest', 'production', 'staging']);
    off();
  });

  it('the delete snapshot records each label and its version; delete and restore name the views they change', async () => {
    await core.prompts.delete('binned', actor);
    const [deleted] = await eventsOf('binned', 'prompt.deleted');
    expect((deleted!.details!.snapshot as { labels: unknown }).labels).toEqual({ canary: 3, production: 1, staging: 2 });
    expect(deleted!.details!.labels).toEqual(['latest', 'canary', 'production', 'staging']);
    expect(deleted!.served).toBe(true);
    await core.prompts.restore('binned', actor);
    const restored = (await eventsOf('binned', 'prompt.restored')).at(-1)!;
    expect(restored.details!.labels).toEqual(['latest', 'canary', 'production', 'staging']);
  });

  it('a prompt served only under a label other than production is still unserved by delete', async () => {
    await create('staging-only', 's1');
    await core.prompts.deactivate('staging-only', actor);
    await core.labels.set('staging-only', 'staging', 1, actor);
    const staging = await core.catalog.open('staging');
    expect(staging.find('staging-only')).toBeDefined();
    await core.prompts.delete('staging-only', actor);
    expect(staging.find('staging-only')).toBeUndefined();
    await core.prompts.restore('staging-only', actor);
    expect(staging.find('staging-only')?.version.version).toBe(1);
  });
});
