// The CLI itself, spawned as a user would run it (needs `npm run build:server`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';
import { tempDir, writeFiles } from './helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/promptd.js');
let dbUrl: string;

function promptd(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, '--database-url', dbUrl, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const good = 'name: hello\ndescription: Says hello.\narguments:\n  - name: who\n    description: Who.\nmessages:\n  - role: user\n    text: "Hello {{who}}"\n';

beforeAll(() => {
  if (!existsSync(path.join(root, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build:server` before this test');
  dbUrl = `file:${path.join(tempDir(), 'cli.db')}`;
});

describe('promptd import/export/seed (spawned)', () => {
  it('import --dry-run prints the plan, writes nothing and exits 0', async () => {
    const lib = writeFiles(tempDir(), { 'prompts/hello.yaml': good });
    const r = promptd('import', lib, '--dry-run');
    expect(r.stderr).toBe(`promptd: database ${dbUrl.replace(/^file:/, '')} (new)\n`); // the first command on this file
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/create\s+hello v1/);
    expect(r.stdout).toContain('plan: 1 to create');
    const db = await createDb(dbUrl);
    try {
      expect(await db.prisma.prompt.count()).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('exits 1 and names file and field for an invalid file, still applying the rest', () => {
    const lib = writeFiles(tempDir(), { 'prompts/hello.yaml': good, 'prompts/bad.yaml': 'name: bad\ndescription: d\nmessages:\n  - role: user\n    text: "{{nope}}"\n' });
    const dry = promptd('import', lib, '--dry-run');
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain('prompts/bad.yaml: messages[0].content.text: {{nope}} is not a declared argument');
    expect(dry.stderr).not.toMatch(/\n\s+at /); // no stack trace without --verbose
    const real = promptd('import', lib, '--activate');
    expect(real.code).toBe(1);
    expect(real.stdout).toContain('imported: 1 created');
    const again = promptd('import', lib, '--activate');
    expect(again.stdout).toContain('imported: 0 created, 0 new versions, 1 unchanged, 0 activated, 1 error');
  });

  it('exits 2 on usage errors, a path that does not exist among them', () => {
    expect(promptd('import').code).toBe(2);
    const missing = promptd('import', path.join(tempDir(), 'nope'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^promptd: import: .*nope: no such file or directory\n$/);
    expect(promptd('import', '.', '--no-such-flag').code).toBe(2);
    expect(promptd('export', tempDir(), '--latest', '--all-versions').code).toBe(2);
  });

  it('seed twice changes nothing; export writes a library', () => {
    expect(promptd('seed', '-q').code).toBe(0);
    const second = promptd('seed');
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/imported: 0 created, 0 new versions, \d+ unchanged, 0 activated, 0 errors/);
    const out = tempDir();
    const ex = promptd('export', out);
    expect(ex.code).toBe(0);
    expect(existsSync(path.join(out, 'prompts/code-review.yaml'))).toBe(true);
    expect(existsSync(path.join(out, 'resources/image/diagrams/architecture.png'))).toBe(true);
  });
});
