// Labels in library files: export writes each version's labels, import sets them
// (round trip exact), `--label staging` puts imported versions under staging instead
// of production, and bad labels in files are reported by field.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { importLibrary } from '../../src/library/apply.js';
import { exportLibrary } from '../../src/library/export.js';
import { freshCore, tempDir, writeFiles } from './helpers.js';

const actor = { name: 'test' };
const msg = (text: string) => ({ arguments: [], messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });
const pointers = async (core: Core, name: string) => (await core.labels.list(name)).items;

let source: Core;
beforeAll(async () => {
  source = await freshCore();
  await source.prompts.create({ name: 'rel', ...msg('one'), activate: true }, actor);
  await source.prompts.createVersion('rel', msg('two'), actor);
  await source.prompts.createVersion('rel', msg('three'), actor);
  await source.labels.set('rel', 'staging', 2, actor);
  await source.labels.set('rel', 'canary', 3, actor);
  await source.prompts.create({ name: 'only-staging', ...msg('s'), activate: false }, actor);
  await source.labels.set('only-staging', 'staging', 1, actor);
});
afterAll(() => source.close());

describe('labels in library files', () => {
  it('--all-versions writes each version\'s labels; importing with --activate sets them exactly; exporting again is identical', async () => {
    const dir = tempDir('pd-labels-');
    await exportLibrary(source, dir, { allVersions: true });
    const file = readFileSync(path.join(dir, 'prompts/rel.yaml'), 'utf8');
    expect(file).toMatch(/- version: 1\n    labels: \[production\]\n/);
    expect(file).toMatch(/- version: 2\n    labels: \[staging\]\n/);
    expect(file).toMatch(/- version: 3\n    labels: \[canary\]\n/);
    const target = await freshCore();
    try {
      expect((await importLibrary(target, dir, { activate: true })).failed).toBe(false);
      expect(await pointers(target, 'rel')).toEqual(await pointers(source, 'rel'));
      expect(await pointers(target, 'only-staging')).toEqual([{ label: 'staging', version: 1 }]);
      const again = tempDir('pd-labels-');
      await exportLibrary(target, again, { allVersions: true });
      for (const f of ['prompts/rel.yaml', 'prompts/only-staging.yaml']) expect(readFileSync(path.join(again, f), 'utf8')).toBe(readFileSync(path.join(dir, f), 'utf8'));
      // Importing again moves nothing.
      expect((await importLibrary(target, dir, { activate: true })).counts).toMatchObject({ created: 0, newVersion: 0, activated: 0 });
    } finally {
      await target.close();
    }
  });

  it('a single-version export lists the labels on the exported version', async () => {
    const dir = tempDir('pd-labels-');
    await exportLibrary(source, dir, { latest: true });
    expect(readFileSync(path.join(dir, 'prompts/rel.yaml'), 'utf8')).toMatch(/^name: rel\nlabels: \[canary\]\n/);
    expect(readFileSync(path.join(dir, 'prompts/only-staging.yaml'), 'utf8')).toMatch(/^name: only-staging\nlabels: \[staging\]\n/);
  });

  it('--label staging puts the imported versions under staging and leaves production alone', async () => {
    const target = await freshCore();
    const dir = tempDir('pd-labels-');
    try {
      writeFiles(dir, { 'prompts/greet.yaml': 'name: greet\nmessages: [{role: user, text: v1}]\n' });
      await importLibrary(target, dir, { activate: true });
      writeFiles(dir, { 'prompts/greet.yaml': 'name: greet\nlabels: [production]\nmessages: [{role: user, text: v2}]\n' });
      const r = await importLibrary(target, dir, { label: 'staging' });
      expect(r.prompts[0]).toMatchObject({ action: 'new-version', creates: [2], activate: 2, label: 'staging' });
      expect(await pointers(target, 'greet')).toEqual([{ label: 'production', version: 1 }, { label: 'staging', version: 2 }]);
      const moved = (await target.feed.since(0)).filter((e) => e.entityKey === 'greet').at(-1)!;
      expect(moved).toMatchObject({ action: 'label.set', details: { label: 'staging', from: null, to: 2 } });
    } finally {
      await target.close();
    }
  });

  it('reports bad labels in files by field', async () => {
    const target = await freshCore();
    const dir = tempDir('pd-labels-');
    try {
      writeFiles(dir, {
        'prompts/a.yaml': 'name: a\nlabels: [Bad]\nmessages: [{role: user, text: x}]\n',
        'prompts/b.yaml': 'name: b\nversions:\n  - version: 1\n    labels: [latest]\n    messages: [{role: user, text: x}]\n',
        'prompts/c.yaml': 'name: c\nversions:\n  - version: 1\n    labels: [qa]\n    messages: [{role: user, text: x}]\n  - version: 2\n    labels: [qa]\n    messages: [{role: user, text: y}]\n',
      });
      const r = await importLibrary(target, dir, { activate: true });
      const errs = Object.fromEntries(r.prompts.map((p) => [p.file, p.errors?.map((e) => e.path)]));
      expect(errs['prompts/a.yaml']).toEqual(['labels[0]']);
      expect(errs['prompts/b.yaml']).toEqual(['versions[0].labels']);
      expect(errs['prompts/c.yaml']).toEqual(['versions[1].labels']);
    } finally {
      await target.close();
    }
  });
});
