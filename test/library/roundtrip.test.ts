import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { importLibrary } from '../../src/library/apply.js';
import { exportLibrary } from '../../src/library/export.js';
import { contentKey } from '../../src/library/format.js';
import { seedIfEmpty } from '../../src/library/seed.js';
import { argumentSets, freshCore, tempDir } from './helpers.js';

const actor = { name: 'test' };

/** Every file under dir → its bytes, for byte-for-byte comparison of two exports. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${e}` : e;
      if (statSync(path.join(dir, r)).isDirectory()) walk(r);
      else out[r] = readFileSync(path.join(dir, r)).toString('base64');
    }
  };
  walk('');
  return out;
}

async function renders(core: Core): Promise<Record<string, unknown>> {
  await core.catalog.ready();
  const out: Record<string, unknown> = {};
  for (const p of core.catalog.list({ limit: 1000 }).prompts) {
    argumentSets(p.arguments).forEach((args, i) => {
      out[`${p.name}#${i}`] = core.catalog.render(p.name, args);
    });
  }
  for (const k of Object.keys(out)) out[k] = await out[k];
  return out;
}

let source: Core;
beforeAll(async () => {
  source = await freshCore();
  await seedIfEmpty(source);
  // Some history worth keeping: a draft v2 (not served) and an inline image message.
  const base = (await source.prompts.get('summarize')).latest;
  await source.prompts.createVersion('summarize', { ...base, note: 'draft', messages: [...base.messages, { role: 'user', content: { type: 'text', text: 'Be brief.' } }] }, actor);
  const tiny = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1').toString('base64');
  await source.prompts.create({ name: 'inline-media', description: 'Has inline media.', arguments: [], activate: true, messages: [
    { role: 'user', content: { type: 'image', data: tiny, mimeType: 'image/gif', annotations: { priority: 0.5 } } },
  ] }, actor);
});
afterAll(() => source.close());

describe('export → import round trip', () => {
  it('renders every prompt identically after importing the export into an empty database', async () => {
    const dir = tempDir('pd-export-');
    const r = await exportLibrary(source, dir);
    expect(r.prompts).toBe(17);
    const target = await freshCore();
    try {
      const imported = await importLibrary(target, dir, { activate: true });
      expect(imported.failed).toBe(false);
      const [a, b] = [await renders(source), await renders(target)];
      expect(Object.keys(a).length).toBeGreaterThanOrEqual(34);
      expect(b).toEqual(a);
      // Exporting the copy gives the same bytes: output is deterministic and lossless.
      const again = tempDir('pd-export-');
      await exportLibrary(target, again);
      expect(tree(again)).toEqual(tree(dir));
    } finally {
      await target.close();
    }
  });

  it('--all-versions keeps history and every label, and re-importing it changes nothing', async () => {
    const dir = tempDir('pd-history-');
    await exportLibrary(source, dir, { allVersions: true });
    expect(readFileSync(path.join(dir, 'prompts/summarize.yaml'), 'utf8')).toMatch(/^name: summarize\nversions:\n  - version: 1\n    labels: \[production\]\n/);
    const target = await freshCore();
    try {
      expect((await importLibrary(target, dir, { activate: true })).failed).toBe(false);
      const s = await target.prompts.get('summarize');
      expect([s.latestVersion, s.activeVersion]).toEqual([2, 1]);
      const orig = await source.prompts.getVersion('summarize', 2);
      expect(contentKey(await target.prompts.getVersion('summarize', 2))).toBe(contentKey(orig));
      expect(await renders(target)).toEqual(await renders(source));

      const again = await importLibrary(target, dir, { activate: true });
      expect(again.counts).toMatchObject({ created: 0, newVersion: 0, activated: 0, errors: 0 });

      // Appending to the source's history and re-exporting appends exactly that version.
      await source.prompts.createVersion('summarize', { ...orig, note: 'v3', description: 'Shorter.' }, actor);
      await exportLibrary(source, dir, { allVersions: true });
      const third = await importLibrary(target, dir);
      expect(third.prompts.find((p) => p.name === 'summarize')).toMatchObject({ action: 'new-version', creates: [3] });
    } finally {
      await target.close();
    }
  });

  it('--latest exports prompts without an active version; the default skips them', async () => {
    await source.prompts.create({ name: 'draft-only', description: 'Never served.', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }, actor);
    const d1 = tempDir('pd-export-');
    expect((await exportLibrary(source, d1)).skipped).toEqual(['draft-only']);
    const d2 = tempDir('pd-export-');
    await exportLibrary(source, d2, { latest: true });
    expect(readFileSync(path.join(d2, 'prompts/summarize.yaml'), 'utf8')).toContain('Shorter.');
    expect(readFileSync(path.join(d2, 'prompts/draft-only.yaml'), 'utf8')).toContain('Never served.');
  });
});
