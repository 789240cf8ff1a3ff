// `importFormat` on a real database (SQLite, or PostgreSQL with PROMPTD_TEST_DB=postgres):
// the fixtures of every format import, re-importing changes nothing, the import is
// all or nothing unless continueOnError, and the directory walk never follows links.
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../helpers/db.js';
import { collectFormatFiles, importFormat } from '../../src/library/format-import.js';
import { exportFormat } from '../../src/library/format-export.js';
import { FIXTURES } from './formats/helpers.js';
import { freshCore, snapshot, tempDir, writeFiles } from './helpers.js';

let core: TestCore;
beforeEach(async () => {
  core = await freshCore();
});
afterEach(async () => {
  await core.db.close();
});

const GOOD_DIRS = ['claude-commands', 'prompt-md', 'dotprompt', 'prompty', 'langfuse'];

describe('importFormat', () => {
  it('imports every fixture folder with --format auto; a second run changes nothing', async () => {
    for (const dir of GOOD_DIRS) {
      const r = await importFormat(core, path.join(FIXTURES, dir), 'auto', { activate: true });
      expect(r.failed, dir).toBe(false);
      expect(r.applied).toBe(true);
      expect(r.counts.created).toBeGreaterThan(0);
    }
    const before = await snapshot(core);
    for (const dir of GOOD_DIRS) {
      const r = await importFormat(core, path.join(FIXTURES, dir), 'auto', { activate: true });
      expect(r.counts.created + r.counts.newVersion + r.counts.activated, dir).toBe(0);
    }
    expect(await snapshot(core)).toEqual(before);
    const git = await core.prompts.get('git-commit');
    expect(git.activeVersion).toBe(1);
  });

  it('reports what a format cannot represent as warnings with file and line', async () => {
    const r = await importFormat(core, path.join(FIXTURES, 'prompty'), 'prompty', { dryRun: true });
    expect(r.warnings).toContainEqual(expect.objectContaining({ file: 'chat.prompty', line: 26, message: expect.stringContaining('{% for doc in documents %}') }));
    expect((await snapshot(core)).prompts).toBe(0);
  });

  it('writes nothing when any file has an error, unless continueOnError', async () => {
    const bad = path.join(FIXTURES, 'bad');
    const r = await importFormat(core, bad, 'auto', { activate: true });
    expect(r.failed).toBe(true);
    expect(r.applied).toBe(false);
    expect(r.prompts.find((p) => p.name === 'ok')?.action).toBe('create');
    expect(r.prompts.filter((p) => p.action === 'error').map((p) => p.file)).toContain('unclosed.prompt');
    expect(r.skipped).toEqual(['README.md']);
    expect((await snapshot(core)).prompts).toBe(0);

    const c = await importFormat(core, bad, 'auto', { activate: true, continueOnError: true });
    expect(c.applied).toBe(true);
    expect(c.failed).toBe(true);
    expect(c.counts.created).toBe(1);
    expect((await core.prompts.get('ok')).activeVersion).toBe(1);
  });

  it('a changed file becomes a new version, the others stay unchanged', async () => {
    const dir = tempDir();
    cpSync(path.join(FIXTURES, 'claude-commands'), dir, { recursive: true });
    await importFormat(core, dir, 'claude-commands');
    writeFileSync(path.join(dir, '.claude/commands/fix-issue.md'), 'Fix issue $ARGUMENTS, then run the tests.\n');
    const r = await importFormat(core, dir, 'claude-commands');
    expect(r.prompts.map((p) => [p.name, p.action])).toEqual([
      ['fix-issue', 'new-version'],
      ['git-commit', 'unchanged'],
      ['review-pr', 'unchanged'],
      ['release-notes', 'unchanged'],
    ]);
  });

  it('exported files in a format read back unchanged', async () => {
    await importFormat(core, path.join(FIXTURES, 'dotprompt'), 'dotprompt', { activate: true });
    const out = tempDir();
    const ex = await exportFormat(core, out, 'dotprompt');
    expect(ex.files.sort()).toEqual(['prompts/_policy.prompt', 'prompts/greeting.prompt', 'prompts/support.prompt']); // the partial stays a partial
    const again = await importFormat(core, out, 'auto', { activate: true });
    expect(again.prompts.map((p) => p.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
  });
});

describe('bulk.apply atomic', () => {
  it('one failing write leaves every write of the run unwritten', async () => {
    const input = { arguments: [], messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }] };
    await core.bulk.apply([{ name: 'taken', mode: 'create', expectLatest: 0, versions: [input] }], { name: 't' });
    const before = await snapshot(core);
    const out = await core.bulk.apply(
      [
        { name: 'fresh', mode: 'create', expectLatest: 0, versions: [input] },
        { name: 'taken', mode: 'create', expectLatest: 0, versions: [input] },
      ],
      { name: 't' },
      { atomic: true },
    );
    expect(out.map((o) => o.ok)).toEqual([false, false]);
    expect(await snapshot(core)).toEqual(before);
  });
});

describe('collectFormatFiles', () => {
  it('skips .git and node_modules, follows no symlink, and refuses a linked prompt file', () => {
    const outside = writeFiles(tempDir(), { 'secret.md': 'Leak $ARGUMENTS\n', 'dir/x.prompt': '---\n---\nhi\n' });
    const dir = writeFiles(tempDir(), {
      '.claude/commands/a.md': 'Do $ARGUMENTS\n',
      '.git/HEAD.md': 'Do $ARGUMENTS\n',
      'node_modules/x/.claude/commands/b.md': 'Do $ARGUMENTS\n',
      'src/code.ts': 'export {}\n',
    });
    symlinkSync(path.join(outside, 'secret.md'), path.join(dir, '.claude/commands/leak.md'));
    symlinkSync(path.join(outside, 'dir'), path.join(dir, 'linked'));
    mkdirSync(path.join(dir, 'empty'));
    const c = collectFormatFiles(dir, 'auto');
    expect(c.files.map((f) => f.path)).toEqual(['.claude/commands/a.md']);
    expect(c.problems).toEqual([{ file: '.claude/commands/leak.md', errors: [expect.objectContaining({ message: expect.stringContaining('symbolic link') })] }]);
    expect(c.warnings).toEqual([{ file: 'linked', message: 'symbolic link; not followed' }]);
  });

  it('applies the size cap per file', () => {
    const dir = writeFiles(tempDir(), { 'big.prompt': `---\n---\n${'x'.repeat(2000)}\n`, 'small.prompt': '---\n---\nhi\n' });
    const c = collectFormatFiles(dir, 'dotprompt', { maxFileBytes: 1024 });
    expect(c.files.map((f) => f.path)).toEqual(['small.prompt']);
    expect(c.problems[0]!.errors[0]!.message).toContain('over the 1 KiB limit');
  });
});
