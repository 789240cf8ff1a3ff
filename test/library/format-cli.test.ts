// `promptd import --format` / `export --format`, spawned as a user runs them, on the
// fixtures in test/fixtures/formats (needs `npm run build:server`).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';
import { FIXTURES } from './formats/helpers.js';
import { tempDir } from './helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/promptd.js');
let dbUrl: string;

function promptd(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, '--database-url', dbUrl, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function counts() {
  const db = await createDb(dbUrl);
  try {
    return { prompts: await db.prisma.prompt.count(), versions: await db.prisma.promptVersion.count(), events: await db.prisma.changeEvent.count() };
  } finally {
    await db.close();
  }
}

beforeAll(() => {
  if (!existsSync(path.join(root, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build:server` before this test');
  dbUrl = `file:${path.join(tempDir(), 'cli.db')}`;
});

describe('promptd import/export --format (spawned)', () => {
  it('a dry run prints the plan and every warning with file:line, and writes nothing', async () => {
    const r = promptd('import', path.join(FIXTURES, 'prompty'), '--format', 'auto', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/create\s+chat v1/);
    expect(r.stderr).toContain('warning chat.prompty:26: {% for doc in documents %}');
    expect(r.stderr).toContain('warning basic.prompty:27: "system" message imported as a user message');
    expect((await counts()).prompts).toBe(0);
  });

  it('imports, and importing the same files again changes nothing', async () => {
    const dir = path.join(FIXTURES, 'claude-commands');
    const first = promptd('import', dir, '--format', 'claude-commands', '--activate');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('imported: 4 created, 0 new versions, 0 unchanged, 4 activated, 0 errors');
    expect(first.stderr).toContain('warning .claude/commands/git/commit.md:10: !`git status`');
    const before = await counts();
    const again = promptd('import', dir, '--format', 'auto', '--activate');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('imported: 0 created, 0 new versions, 4 unchanged, 0 activated, 0 errors');
    expect(await counts()).toEqual(before);
  });

  it('one bad file: nothing written and exit 1; --continue-on-error writes the rest', async () => {
    const before = await counts();
    const r = promptd('import', path.join(FIXTURES, 'bad'), '--format', 'auto');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error unclosed.prompt: messages[0].content.text: template does not parse');
    expect(r.stderr).toContain('skipped README.md');
    expect(r.stderr).toContain('nothing imported');
    expect(await counts()).toEqual(before);
    const c = promptd('import', path.join(FIXTURES, 'bad'), '--format', 'auto', '--continue-on-error', '--json');
    expect(c.code).toBe(1);
    const report = JSON.parse(c.stdout);
    expect(report).toMatchObject({ format: 'auto', applied: true, failed: true, counts: { created: 1 } });
    expect(report.prompts.find((p: { name?: string }) => p.name === 'ok').action).toBe('create');
  });

  it('exports in a format, with warnings for what it cannot hold', () => {
    const out = tempDir();
    const r = promptd('export', out, '--format', 'claude-commands');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/exported \d+ prompts as claude-commands/);
    expect(readFileSync(path.join(out, '.claude/commands/git/commit.md'), 'utf8')).toContain('git status'); // the namespace is kept
  });

  it('exits 2 for an unknown format', () => {
    expect(promptd('import', FIXTURES, '--format', 'word').code).toBe(2);
    expect(promptd('export', tempDir(), '--format', 'auto').code).toBe(2);
  });
});
