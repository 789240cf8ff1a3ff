// Re-import skips parsing files the last import read unchanged (import hashes), and
// never when anything that decides the outcome changed: the file's bytes, a media file
// it names, the manifest, the options, or the prompt in the database.
import { readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../helpers/db.js';
import { importLibrary, type ImportOptions } from '../../src/library/apply.js';
import { FRESH_MS, importSalt } from '../../src/library/import-hashes.js';
import { readLibrary } from '../../src/library/read-library.js';
import { freshCore, snapshot, tempDir, writeFiles } from './helpers.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const prompt = (name: string, text: string) => `name: ${name}\ndescription: The ${name} prompt.\nmessages:\n  - role: user\n    text: ${text}\n`;
const LIB = {
  'resources.yaml': 'resources:\n  - uri: notes://a\n    name: a\n    mimeType: text/plain\n    text: A.\n',
  'prompts/alpha.yaml': prompt('alpha', 'Say alpha.'),
  'prompts/beta.yaml': prompt('beta', 'Say beta.'),
  'prompts/pic.yaml': 'name: pic\nmessages:\n  - role: user\n    image: {file: media/pic.png, mimeType: image/png}\n  - role: user\n    text: What is this?\n',
  'media/pic.png': PNG,
};

let core: TestCore;
let dir: string;
beforeEach(async () => {
  core = await freshCore();
  dir = writeFiles(tempDir('pd-skip-'), LIB);
});
afterEach(() => core.close());

/** Which files the next import would skip and which it would parse. */
async function wouldSkip(opts: ImportOptions = {}): Promise<{ skipped: string[]; parsed: string[] }> {
  const recorded = await core.importHashes.load(path.resolve(dir));
  const lib = readLibrary(dir, {}, undefined, { salt: importSalt(opts), unchanged: recorded.unchanged });
  return { skipped: (lib.unchanged ?? []).map((u) => u.file).sort(), parsed: lib.prompts.map((p) => p.file).sort() };
}
const ALL = ['prompts/alpha.yaml', 'prompts/beta.yaml', 'prompts/pic.yaml'];

describe('import hashes', () => {
  it('skips every unchanged file on a re-import, reports them unchanged and writes nothing', async () => {
    expect(await wouldSkip({ activate: true })).toEqual({ skipped: [], parsed: ALL });
    expect((await importLibrary(core, dir, { activate: true })).counts).toMatchObject({ created: 3, errors: 0 });
    expect(await wouldSkip({ activate: true })).toEqual({ skipped: ALL, parsed: [] });
    const before = await snapshot(core);
    const r = await importLibrary(core, dir, { activate: true });
    expect(r.counts).toMatchObject({ created: 0, newVersion: 0, unchanged: 3, activated: 0, errors: 0 });
    expect(r.prompts.map((p) => [p.file, p.name, p.action, p.latest])).toEqual(ALL.map((f) => [f, path.basename(f, '.yaml'), 'unchanged', 1]));
    expect(await snapshot(core)).toEqual(before);
    // --reparse parses everything, with the same outcome.
    expect((await importLibrary(core, dir, { activate: true, reparse: true })).counts).toMatchObject({ unchanged: 3, newVersion: 0 });
  });

  it('re-parses a file with one byte changed, and a file whose media file changed', async () => {
    await importLibrary(core, dir, { activate: true });
    writeFileSync(path.join(dir, 'prompts/alpha.yaml'), prompt('alpha', 'Say alphA.'));
    writeFileSync(path.join(dir, 'media/pic.png'), Buffer.concat([PNG, Buffer.from([0])]));
    expect(await wouldSkip({ activate: true })).toEqual({ skipped: ['prompts/beta.yaml'], parsed: ['prompts/alpha.yaml', 'prompts/pic.yaml'] });
    const r = await importLibrary(core, dir, { activate: true });
    expect(r.counts).toMatchObject({ newVersion: 2, unchanged: 1 });
    expect((await core.prompts.get('alpha')).latestVersion).toBe(2);
    expect((await core.prompts.get('pic')).latestVersion).toBe(2);
    expect(await wouldSkip({ activate: true })).toEqual({ skipped: ALL, parsed: [] });
  });

  it('does not skip a prompt changed in the database since: the file is compared and wins as before', async () => {
    await importLibrary(core, dir, { activate: true });
    // A new version through the API, a label moved back, tags set: each is a divergence.
    await core.prompts.createVersion('alpha', { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'Edited in the UI.' } }] } as never, { name: 'ui' });
    await core.labels.set('beta', 'staging', 1, { name: 'ui' });
    await core.prompts.setTags('pic', ['x'], { name: 'ui' });
    expect(await wouldSkip({ activate: true })).toEqual({ skipped: [], parsed: ALL });
    const r = await importLibrary(core, dir, { activate: true });
    // alpha: the file differs from the latest (the UI edit), so it is a new version, as without hashes.
    expect(r.prompts.find((p) => p.name === 'alpha')).toMatchObject({ action: 'new-version', latest: 2, creates: [3] });
    expect(r.prompts.find((p) => p.name === 'beta')).toMatchObject({ action: 'unchanged' });
    expect((await core.prompts.get('alpha')).activeVersion).toBe(3);
    // Recorded again after this import: the next one skips.
    expect(await wouldSkip({ activate: true })).toEqual({ skipped: ALL, parsed: [] });
  });

  it('does not skip after a label moved, and the import moves it back as before', async () => {
    await importLibrary(core, dir, { activate: true });
    writeFileSync(path.join(dir, 'prompts/alpha.yaml'), prompt('alpha', 'Second.'));
    await importLibrary(core, dir, { activate: true });
    await core.labels.set('alpha', 'production', 1, { name: 'ui' }); // a rollback in the UI
    expect((await wouldSkip({ activate: true })).parsed).toEqual(['prompts/alpha.yaml']);
    const r = await importLibrary(core, dir, { activate: true });
    expect(r.prompts.find((p) => p.name === 'alpha')).toMatchObject({ action: 'unchanged', activate: 2 });
    expect((await core.prompts.get('alpha')).activeVersion).toBe(2);
  });

  it('does not skip when the options or the manifest differ', async () => {
    await importLibrary(core, dir);
    expect((await wouldSkip()).skipped).toEqual(ALL);
    expect((await wouldSkip({ activate: true })).skipped).toEqual([]);
    expect((await wouldSkip({ label: 'staging' })).skipped).toEqual([]);
    const r = await importLibrary(core, dir, { activate: true });
    expect(r.counts).toMatchObject({ unchanged: 3, activated: 3 });
    expect((await core.prompts.get('beta')).activeVersion).toBe(1);
    writeFileSync(path.join(dir, 'resources.yaml'), `${LIB['resources.yaml']}  - uri: notes://b\n    name: b\n    mimeType: text/plain\n    text: B.\n`);
    expect((await wouldSkip({ activate: true })).skipped).toEqual([]);
  });

  it('a deleted, a renamed and a re-created prompt behave as before', async () => {
    await importLibrary(core, dir, { activate: true });
    rmSync(path.join(dir, 'prompts/beta.yaml'));
    writeFiles(dir, { 'prompts/gamma.yaml': prompt('gamma', 'Say beta.') });
    renameSync(path.join(dir, 'prompts/alpha.yaml'), path.join(dir, 'prompts/alpha2.yaml')); // name no longer matches the file
    const r = await importLibrary(core, dir, { activate: true });
    expect(r.prompts.find((p) => p.file === 'prompts/alpha2.yaml')).toMatchObject({ action: 'error' });
    expect(r.prompts.find((p) => p.file === 'prompts/gamma.yaml')).toMatchObject({ action: 'create' });
    expect(r.prompts.some((p) => p.file === 'prompts/beta.yaml')).toBe(false);
    expect((await core.prompts.get('beta')).latestVersion).toBe(1); // import never deletes
    const rows = (await core.importHashes.load(path.resolve(dir))).unchanged;
    expect([...rows.keys()].sort()).toEqual(['prompts/gamma.yaml', 'prompts/pic.yaml']);

    // A prompt deleted and created again under the same name is another prompt: parsed.
    await core.prompts.delete('pic', { name: 'ui' });
    expect((await wouldSkip({ activate: true })).skipped).toEqual(['prompts/gamma.yaml']);
  });

  describe('stat fingerprints (unchanged without reading, as git does)', () => {
    // Files written by the test are fresh; an import that "starts" later trusts their stat.
    const later = () => Date.now() + FRESH_MS + 1_000;
    const skipWith = async (unchanged: Awaited<ReturnType<typeof core.importHashes.load>>['unchanged'], startedMs: number) =>
      readLibrary(dir, {}, undefined, { salt: importSalt({ activate: true }), unchanged, startedMs });

    it('records no fingerprint for a file changed within FRESH_MS of the import start', async () => {
      await importLibrary(core, dir, { activate: true });
      const rows = (await core.importHashes.load(path.resolve(dir))).unchanged;
      expect([...rows.values()].map((r) => r.stat)).toEqual(['', '', '']);
    });

    it('a matching fingerprint skips without reading; a rewrite that keeps size and mtime is still read (ctime)', async () => {
      await importLibrary(core, dir, { activate: true, startedMs: later() });
      const rows = (await core.importHashes.load(path.resolve(dir))).unchanged;
      expect([...rows.values()].every((r) => r.stat !== '')).toBe(true);
      // A wrong recorded hash proves the bytes were not consulted: the stat decided.
      const bogus = new Map([...rows].map(([f, r]) => [f, { ...r, hash: 'not-the-hash' }]));
      expect((await skipWith(bogus, later())).unchanged?.map((u) => u.file).sort()).toEqual(ALL);

      // Same length, mtime put back: the change time still differs, so the bytes decide.
      const file = path.join(dir, 'prompts/alpha.yaml');
      const { atime, mtime } = statSync(file);
      writeFileSync(file, readFileSync(file, 'utf8').replace('Say alpha.', 'Say ALPHA.'));
      utimesSync(file, atime, mtime);
      const lib = await skipWith(rows, later());
      expect(lib.prompts.map((p) => p.file)).toEqual(['prompts/alpha.yaml']);
      expect((await importLibrary(core, dir, { activate: true, startedMs: later() })).counts).toMatchObject({ newVersion: 1, unchanged: 2 });
      expect((await core.prompts.get('alpha')).latestVersion).toBe(2);
    });

    it('a media file whose stat changed sends its prompt to the bytes', async () => {
      await importLibrary(core, dir, { activate: true, startedMs: later() });
      const rows = (await core.importHashes.load(path.resolve(dir))).unchanged;
      writeFileSync(path.join(dir, 'media/pic.png'), Buffer.concat([PNG, Buffer.from([1])]));
      const bogus = new Map([...rows].map(([f, r]) => [f, { ...r, hash: 'not-the-hash' }]));
      const lib = await skipWith(bogus, later());
      expect(lib.prompts.map((p) => p.file)).toEqual(['prompts/pic.yaml']);
    });

    it('same bytes with a new stat (a checkout touched the file): unchanged, and the new fingerprint is recorded', async () => {
      await importLibrary(core, dir, { activate: true, startedMs: later() });
      const before = (await core.importHashes.load(path.resolve(dir))).unchanged.get('prompts/beta.yaml')!;
      const file = path.join(dir, 'prompts/beta.yaml');
      writeFileSync(file, readFileSync(file)); // same bytes, new times
      const r = await importLibrary(core, dir, { activate: true, startedMs: later() });
      expect(r.counts).toMatchObject({ newVersion: 0, unchanged: 3 });
      const after = (await core.importHashes.load(path.resolve(dir))).unchanged.get('prompts/beta.yaml')!;
      expect(after.hash).toBe(before.hash);
      expect(after.stat).not.toBe(before.stat);
      expect(after.stat).not.toBe('');
    });

    it('other options never match a fingerprint recorded under these', async () => {
      await importLibrary(core, dir, { activate: true, startedMs: later() });
      const rows = (await core.importHashes.load(path.resolve(dir))).unchanged;
      const bogus = new Map([...rows].map(([f, r]) => [f, { ...r, hash: 'not-the-hash' }]));
      const lib = readLibrary(dir, {}, undefined, { salt: importSalt({ activate: false }), unchanged: bogus, startedMs: later() });
      expect(lib.prompts.map((p) => p.file).sort()).toEqual(ALL);
    });
  });
});
