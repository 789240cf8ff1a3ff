import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCore } from '../helpers/db.js';
import { seedIfEmpty, seedLibrary } from '../../src/library/seed.js';
import { freshCore, snapshot } from './helpers.js';

let core: TestCore;
beforeAll(async () => {
  core = await freshCore();
});
afterAll(() => core.close());

describe('seed library', () => {
  it('loads at least 12 active, fully described prompts into an empty database', async () => {
    const loaded = await seedIfEmpty(core);
    expect(loaded).toBeGreaterThanOrEqual(12);
    const { items } = await core.prompts.list({ limit: 200 });
    expect(items).toHaveLength(loaded);
    for (const s of items) {
      const p = await core.prompts.get(s.name);
      expect(p.activeVersion, s.name).toBe(1);
      expect(p.active!.description, `${s.name} description`).toBeTruthy();
      for (const a of p.active!.arguments) expect(a.description, `${s.name}.${a.name} description`).toBeTruthy();
    }
    await core.catalog.ready();
    expect(core.catalog.size()).toBe(loaded);
    // The seed covers images and resource bindings, and their resources are stored.
    const kinds = new Set(items.length ? (await Promise.all(items.map((s) => core.prompts.get(s.name)))).flatMap((p) => p.active!.messages.map((m) => m.content.type)) : []);
    expect(kinds).toContain('image');
    expect(kinds).toContain('resource');
    const img = await core.catalog.render('review-architecture-diagram', {});
    expect(img.messages[0]!.content).toMatchObject({ type: 'image', mimeType: 'image/png' });
  });

  it('does nothing when the database already has prompts, and `seed` twice changes nothing', async () => {
    const before = await snapshot(core);
    expect(await seedIfEmpty(core)).toBe(0);
    const again = await seedLibrary(core);
    expect(again.failed).toBe(false);
    expect(again.counts).toMatchObject({ created: 0, newVersion: 0, activated: 0, errors: 0, resourcesCreated: 0, resourcesUpdated: 0 });
    expect(await snapshot(core)).toEqual(before);
  });

  it('re-seeding restores a seed prompt someone deactivated, as a plain activation', async () => {
    await core.prompts.deactivate('summarize', { name: 'test' });
    const r = await seedLibrary(core);
    expect(r.counts).toMatchObject({ created: 0, newVersion: 0, activated: 1 });
    expect((await core.prompts.get('summarize')).activeVersion).toBe(1);
  });
});
