// `syncOnce` and the watcher on real directories and a real database (SQLite, or
// PostgreSQL with PROMPTD_TEST_DB=postgres): files become versions, deleted files
// archive, edits made since the last sync are conflicts, links and .git are ignored,
// and an MCP client hears list_changed when a watched file changes.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../helpers/db.js';
import { VersionInputSchema } from '../../src/core/schemas.js';
import { syncOnce } from '../../src/library/sync.js';
import { watchDirectory } from '../../src/library/sync-watch.js';
import { connect, countListChanged } from '../mcp/helpers.js';
import { freshCore, snapshot, tempDir, writeFiles } from './helpers.js';

let core: TestCore;
let dir: string;
beforeEach(async () => {
  core = await freshCore();
  dir = tempDir('pd-sync-');
});
afterEach(async () => {
  await core.db.close();
});

const prompt = (text: string) => `---\ninput:\n  schema:\n    who: string\n---\n${text}\n`;
const textOf = async (name: string) => JSON.stringify((await core.prompts.get(name)).latest.messages);

describe('syncOnce', () => {
  it('a deleted file whose prompt served prompts include is kept and reported as a conflict, not archived', async () => {
    writeFiles(dir, { 'style.prompt': prompt('Be kind to {{who}}') });
    expect((await syncOnce(core, dir, { activate: true })).failed).toBe(false);
    await core.prompts.create({ name: 'uses-style', arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: '{{> style}}' } }], activate: true }, { name: 'ui' });
    rmSync(path.join(dir, 'style.prompt'));
    const r = await syncOnce(core, dir, { activate: true });
    expect(r.archived).toEqual([]);
    expect(r.failed).toBe(true);
    expect(r.conflicts).toEqual([expect.objectContaining({ name: 'style', message: expect.stringContaining('"uses-style"') })]);
    expect((await core.prompts.get('style')).archived).toBe(false);
  });

  it('creates, updates with a new version, and archives when a file is deleted; an unchanged re-sync writes nothing', async () => {
    writeFiles(dir, { 'greet.prompt': prompt('Hello {{who}}'), 'sub/bye.prompt': prompt('Bye {{who}}') });
    const first = await syncOnce(core, dir, { activate: true });
    expect(first.failed).toBe(false);
    expect(first.prompts.map((p) => [p.name, p.action])).toEqual([['greet', 'create'], ['bye', 'create']]); // by file: greet.prompt, sub/bye.prompt
    expect((await core.prompts.get('greet')).activeVersion).toBe(1);

    const before = await snapshot(core);
    const again = await syncOnce(core, dir, { activate: true });
    expect(again.prompts.every((p) => p.action === 'unchanged')).toBe(true);
    expect(await snapshot(core)).toEqual(before);

    writeFileSync(path.join(dir, 'greet.prompt'), prompt('Hi there {{who}}'));
    const changed = await syncOnce(core, dir, { activate: true });
    expect(changed.prompts.find((p) => p.name === 'greet')).toMatchObject({ action: 'new-version', creates: [2], activate: 2 });
    expect(await textOf('greet')).toContain('Hi there');
    // A rollback made in the UI since is not undone by a sync of unchanged files.
    await core.prompts.activate('greet', 1, { name: 'ui' });
    expect((await syncOnce(core, dir, { activate: true })).prompts.find((p) => p.name === 'greet')).toMatchObject({ action: 'unchanged' });
    expect((await core.prompts.get('greet')).activeVersion).toBe(1);

    rmSync(path.join(dir, 'sub/bye.prompt'));
    const deleted = await syncOnce(core, dir, { activate: true });
    expect(deleted.archived).toEqual(['bye']);
    expect((await core.prompts.get('bye')).archived).toBe(true);
    expect((await syncOnce(core, dir, { activate: true })).archived).toEqual([]);

    writeFiles(dir, { 'sub/bye.prompt': prompt('Bye {{who}}') });
    const back = await syncOnce(core, dir, { activate: true });
    expect(back.unarchived).toEqual(['bye']);
    expect((await core.prompts.get('bye')).archived).toBe(false);
  });

  it('reports a prompt edited through the API since the last sync as a conflict and does not overwrite it', async () => {
    writeFiles(dir, { 'greet.prompt': prompt('Hello {{who}}') });
    await syncOnce(core, dir, { activate: true });
    const edited = (await core.prompts.get('greet')).latest;
    await core.prompts.createVersion('greet', VersionInputSchema.parse({ arguments: edited.arguments, messages: [{ role: 'user', content: { type: 'text', text: 'UI edit {{who}}' } }], note: 'from the UI' }), { name: 'ui' });

    // The file did not change: the UI's edit stays and is reported.
    const r1 = await syncOnce(core, dir, { activate: true });
    expect(r1.failed).toBe(true);
    expect(r1.conflicts).toEqual([expect.objectContaining({ name: 'greet', synced: 1, latest: 2, message: expect.stringContaining('edited since the last sync') })]);
    expect(await textOf('greet')).toContain('UI edit');

    // Nor when it did, and deleting the file does not archive it either.
    writeFileSync(path.join(dir, 'greet.prompt'), prompt('File edit {{who}}'));
    const r2 = await syncOnce(core, dir, { activate: true });
    expect(r2.conflicts.map((c) => c.name)).toEqual(['greet']);
    expect((await core.prompts.get('greet')).latestVersion).toBe(2);
    rmSync(path.join(dir, 'greet.prompt'));
    const r3 = await syncOnce(core, dir);
    expect(r3.archived).toEqual([]);
    expect(r3.conflicts.map((c) => c.name)).toEqual(['greet']);
    expect((await core.prompts.get('greet')).archived).toBe(false);

    // --force: the file wins, and the conflict is gone afterwards.
    writeFiles(dir, { 'greet.prompt': prompt('File edit {{who}}') });
    const forced = await syncOnce(core, dir, { activate: true, force: true });
    expect(forced.conflicts).toEqual([]);
    expect(await textOf('greet')).toContain('File edit');
    expect((await syncOnce(core, dir, { activate: true })).failed).toBe(false);
  });

  it('two files naming one prompt: the first is synced, the other is an error, and other changes still land', async () => {
    writeFiles(dir, { 'a/greet.prompt': prompt('A {{who}}'), 'b/greet.prompt': prompt('B {{who}}'), 'other.prompt': prompt('Other {{who}}') });
    const r = await syncOnce(core, dir, { activate: true });
    expect(r.failed).toBe(true);
    expect(r.prompts.find((p) => p.file === 'b/greet.prompt')).toMatchObject({ action: 'error', errors: [{ path: 'name', message: expect.stringContaining('also defined in a/greet.prompt') }] });
    expect(r.prompts.filter((p) => p.action === 'create').map((p) => p.name).sort()).toEqual(['greet', 'other']);
    expect(await textOf('greet')).toContain('A {{who}}');
  });

  it('ignores .git and node_modules and follows no symbolic links', async () => {
    const outside = tempDir('pd-outside-');
    writeFiles(outside, { 'secret.prompt': prompt('Secret {{who}}') });
    writeFiles(dir, {
      'ok.prompt': prompt('Ok {{who}}'),
      '.git/hooks/hook.prompt': prompt('Hook {{who}}'),
      'node_modules/pkg/dep.prompt': prompt('Dep {{who}}'),
    });
    symlinkSync(path.join(outside, 'secret.prompt'), path.join(dir, 'link.prompt'));
    symlinkSync(outside, path.join(dir, 'linked-dir'));
    const r = await syncOnce(core, dir);
    expect(r.prompts.filter((p) => p.action === 'create').map((p) => p.name)).toEqual(['ok']);
    expect(r.prompts.find((p) => p.file === 'link.prompt')?.action).toBe('error');
    expect((await snapshot(core)).prompts).toBe(1);
  });
});

describe('watchDirectory', () => {
  it('syncs a changed file and an MCP client receives prompts/list_changed', async () => {
    writeFiles(dir, { 'greet.prompt': prompt('Hello {{who}}') });
    const reports: unknown[] = [];
    const errors: unknown[] = [];
    const w = watchDirectory(core, dir, { activate: true, onReport: (r) => reports.push(r), onError: (e) => errors.push(e) });
    const mcp = await connect(core);
    try {
      await w.flush(); // the initial sync has run
      expect((await mcp.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
      const seen = countListChanged(mcp.client);
      mkdirSync(path.join(dir, 'more'));
      writeFileSync(path.join(dir, 'more/new.prompt'), prompt('New {{who}}'));
      await seen.waitFor(1, 10_000); // the watcher's debounced run, not a flush
      expect((await mcp.client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(['greet', 'new']);

      seen.reset();
      rmSync(path.join(dir, 'greet.prompt'));
      await seen.waitFor(1, 10_000);
      expect((await mcp.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['new']);
      expect(errors).toEqual([]);
    } finally {
      await mcp.close();
      await w.close();
    }
  });

  it('debounces a burst of changes into one run (fake timers)', async () => {
    const pending: (() => void)[] = [];
    let cleared = 0;
    const timers = { setTimeout: (fn: () => void) => (pending.push(fn), pending.length), clearTimeout: () => void cleared++ };
    const runs: number[] = [];
    const w = watchDirectory(core, dir, { activate: true, timers, onReport: () => runs.push(1) });
    try {
      await w.flush();
      const n = runs.length;
      writeFiles(dir, { 'a.prompt': prompt('A {{who}}') });
      writeFiles(dir, { 'b.prompt': prompt('B {{who}}') });
      // Wait for the watcher to notice (an event, not a sleep), then fire the last timer.
      const deadline = Date.now() + 10_000;
      while (!w.pending && Date.now() < deadline) await new Promise((r) => setImmediate(r));
      expect(w.pending).toBe(true);
      const r = await w.flush();
      expect(runs.length).toBe(n + 1);
      expect(r?.prompts.filter((p) => p.action === 'create').map((p) => p.name).sort()).toEqual(['a', 'b']);
    } finally {
      await w.close();
    }
  });
});
