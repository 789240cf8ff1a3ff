// The watcher sees every way editors and tools save a file (issue #37, item 1): in place,
// a new file renamed over the old one (then edited again in place), delete and recreate,
// `sed -i`, and a `git checkout` changing many files at once, on a real directory, a real
// git repository and a real database (SQLite, or PostgreSQL with PROMPTD_TEST_DB=postgres).
// Node 20's recursive fs.watch on Linux followed the replaced file's old inode, so the
// edits after a rename-over and the deletion after a `sed -i` went unseen.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../helpers/db.js';
import { waitFor } from '../helpers/spawn.js';
import type { SyncReport } from '../../src/library/sync.js';
import { watchDirectory, type SyncWatcher } from '../../src/library/sync-watch.js';
import { freshCore, tempDir, writeFiles } from './helpers.js';

let core: TestCore;
let dir: string;
let w: SyncWatcher | undefined;
let reports: SyncReport[];
let errors: unknown[];
beforeEach(async () => {
  core = await freshCore();
  dir = tempDir('pd-watch-');
  reports = [];
  errors = [];
});
afterEach(async () => {
  await w?.close();
  w = undefined;
  await core.db.close();
});

const prompt = (text: string) => `---\ninput:\n  schema:\n    who: string\n---\n${text}\n`;
const textOf = async (name: string) => JSON.stringify((await core.prompts.get(name)).latest.messages);

async function start() {
  w = watchDirectory(core, dir, { activate: true, debounceMs: 50, onReport: (r) => reports.push(r), onError: (e) => errors.push(e) });
  await w.flush(); // the initial sync has run and the tree is watched
}

/** Waits (bounded) for a sync run after `from` whose report satisfies `pred`: the watcher's own event, never a sleep. */
function runAfter(from: number, what: string, pred: (r: SyncReport) => boolean) {
  return waitFor(() => reports.slice(from).find(pred), 15_000, `a sync run that ${what}`);
}
const newVersionOf = (name: string) => (r: SyncReport) => r.prompts.some((p) => p.name === name && (p.action === 'new-version' || p.action === 'create'));

describe('sync --watch sees every kind of save', () => {
  it('in place, renamed over (then edited in place), deleted and recreated, sed -i then rm', async () => {
    writeFiles(dir, { 'f.prompt': prompt('One {{who}}') });
    await start();
    expect(await textOf('f')).toContain('One');
    const outside = tempDir('pd-watch-tmp-');

    let mark = reports.length;
    writeFileSync(path.join(dir, 'f.prompt'), prompt('Two {{who}}')); // in place
    await runAfter(mark, 'writes f v2', newVersionOf('f'));
    expect(await textOf('f')).toContain('Two');

    mark = reports.length;
    writeFileSync(path.join(outside, 'tmp'), prompt('Three {{who}}'));
    renameSync(path.join(outside, 'tmp'), path.join(dir, 'f.prompt')); // `mv tmp D/f.prompt`
    await runAfter(mark, 'writes f v3', newVersionOf('f'));
    expect(await textOf('f')).toContain('Three');

    mark = reports.length;
    writeFileSync(path.join(dir, 'f.prompt'), prompt('Four {{who}}')); // the edit after the rename
    appendFileSync(path.join(dir, 'f.prompt'), 'and more\n');
    await runAfter(mark, 'writes f v4', newVersionOf('f'));
    expect(await textOf('f')).toContain('and more');

    mark = reports.length;
    rmSync(path.join(dir, 'f.prompt'));
    await runAfter(mark, 'archives f', (r) => r.archived.includes('f'));
    mark = reports.length;
    writeFileSync(path.join(dir, 'f.prompt'), prompt('Five {{who}}'));
    await runAfter(mark, 'unarchives f', (r) => r.unarchived.includes('f'));
    expect(await textOf('f')).toContain('Five');

    mark = reports.length;
    execFileSync('sed', ['-i', 's/Five/Six/', path.join(dir, 'f.prompt')]); // a new file renamed over
    await runAfter(mark, 'writes the sed edit', newVersionOf('f'));
    expect(await textOf('f')).toContain('Six');
    mark = reports.length;
    execFileSync('sed', ['-i', 's/Six/Seven/', path.join(dir, 'f.prompt')]);
    await runAfter(mark, 'writes the second sed edit', newVersionOf('f'));
    expect(await textOf('f')).toContain('Seven');
    mark = reports.length;
    rmSync(path.join(dir, 'f.prompt'));
    await runAfter(mark, 'archives f after sed -i', (r) => r.archived.includes('f'));
    expect((await core.prompts.get('f')).archived).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);

  it('a new subdirectory, a renamed one, and files under them', async () => {
    await start();
    let mark = reports.length;
    mkdirSync(path.join(dir, 'a/b'), { recursive: true });
    writeFileSync(path.join(dir, 'a/b/deep.prompt'), prompt('Deep {{who}}'));
    await runAfter(mark, 'creates deep', newVersionOf('deep'));
    mark = reports.length;
    appendFileSync(path.join(dir, 'a/b/deep.prompt'), 'edited\n');
    await runAfter(mark, 'writes deep v2', newVersionOf('deep'));
    mark = reports.length;
    renameSync(path.join(dir, 'a'), path.join(dir, 'z'));
    await runAfter(mark, 'sees the renamed directory', () => true);
    mark = reports.length;
    appendFileSync(path.join(dir, 'z/b/deep.prompt'), 'again\n');
    await runAfter(mark, 'writes deep v3 under the renamed directory', newVersionOf('deep'));
    expect(await textOf('deep')).toContain('again');
    mark = reports.length;
    rmSync(path.join(dir, 'z'), { recursive: true });
    await runAfter(mark, 'archives deep', (r) => r.archived.includes('deep'));
    expect(errors).toEqual([]);
  }, 60_000);

  it('a git checkout of a branch that changes, adds and deletes many files at once, and back', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', '-C', dir, ...args], { stdio: 'pipe' });
    const names = Array.from({ length: 12 }, (_, i) => `p${i}`);
    writeFiles(dir, Object.fromEntries(names.map((n) => [`${n}.prompt`, prompt(`Main ${n} {{who}}`)])));
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'main');
    git('checkout', '-qb', 'feature');
    for (const n of names.slice(0, 8)) writeFileSync(path.join(dir, `${n}.prompt`), prompt(`Feature ${n} {{who}}`));
    rmSync(path.join(dir, 'p11.prompt'));
    writeFiles(dir, { 'new/q1.prompt': prompt('Q1 {{who}}'), 'new/q2.prompt': prompt('Q2 {{who}}') });
    git('add', '-A');
    git('commit', '-qm', 'feature');
    git('checkout', '-q', 'main');

    await start();
    const served = async () => {
      const out: Record<string, string> = {};
      for (const p of await core.db.prisma.prompt.findMany({ select: { name: true, archived: true }, orderBy: { name: 'asc' } })) {
        out[p.name] = p.archived ? 'archived' : (await textOf(p.name)).match(/(Main|Feature|Q\d)/)![1]!;
      }
      return out;
    };
    const sorted = (o: Record<string, string>) => JSON.stringify(Object.fromEntries(Object.entries(o).sort()));
    const expectFeature = { ...Object.fromEntries(names.map((n, i) => [n, i < 8 ? 'Feature' : 'Main'])), p11: 'archived', q1: 'Q1', q2: 'Q2' };
    git('checkout', '-q', 'feature');
    await waitFor(async () => JSON.stringify(await served()) === sorted(expectFeature) || undefined, 15_000, 'the feature branch synced');
    // Then edits after the checkout replaced the files: in place, and a deletion.
    let mark = reports.length;
    appendFileSync(path.join(dir, 'p0.prompt'), 'after checkout\n');
    await runAfter(mark, 'writes p0', newVersionOf('p0'));
    mark = reports.length;
    rmSync(path.join(dir, 'p1.prompt'));
    await runAfter(mark, 'archives p1', (r) => r.archived.includes('p1'));

    git('checkout', '-q', '--', '.');
    git('checkout', '-q', 'main');
    const expectMain = { ...Object.fromEntries(names.map((n) => [n, 'Main'])), q1: 'archived', q2: 'archived' };
    await waitFor(async () => JSON.stringify(await served()) === sorted(expectMain) || undefined, 15_000, 'the main branch synced');
    expect(errors).toEqual([]);
  }, 60_000);
});
