// `promptd import` that talks (issue 15 items 8, 9, 11): errors at the fault, all of a
// file's errors at once, progress without a terminal, Ctrl-C that says how far it got.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, waitFor } from '../helpers/spawn.js';
import { assertBuilt, promptd, tempCwd } from './helpers.js';

beforeAll(assertBuilt);

function library(files: Record<string, string>): string {
  const cwd = tempCwd();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(cwd, 'lib', rel)), { recursive: true });
    writeFileSync(path.join(cwd, 'lib', rel), text);
  }
  expect(promptd(['migrate'], { cwd }).code).toBe(0); // the default ./data/promptd.db of cwd
  return cwd;
}

const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('error '));

describe('import errors', () => {
  it('an unclosed quote is reported at the line where it opens, not at the end of the file', () => {
    const cwd = library({ 'prompts/q.yaml': 'name: q\ndescription: "oops\nmessages:\n  - role: user\n    text: hi\n\n\n\n' });
    const r = promptd(['import', 'lib', '--dry-run'], { cwd });
    expect(r.code).toBe(1);
    expect(errorLines(r.stderr)).toEqual(['error prompts/q.yaml: line 2: the double quote opened here is never closed']);
  });

  it('reports the schema, name and template errors of one file together, with a rename that is valid', () => {
    const cwd = library({
      'prompts/my-prompt.yaml': 'name: My Prompt\nbogus: 1\narguments:\n  - name: who\nmessages:\n  - role: user\n    text: "Hi {{who}} {{nope}}"\n',
    });
    const r = promptd(['import', 'lib', '--dry-run'], { cwd });
    expect(r.code).toBe(1);
    const lines = errorLines(r.stderr);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^error prompts\/my-prompt\.yaml: \(file\): .*bogus/),
        expect.stringMatching(/^error prompts\/my-prompt\.yaml: name: /),
        'error prompts/my-prompt.yaml: name: "My Prompt" does not match the file name (my-prompt.yaml); set name: my-prompt',
        'error prompts/my-prompt.yaml: messages[0].content.text: {{nope}} is not a declared argument',
      ]),
    );
    expect(r.stderr).not.toContain('name the file My Prompt');
  });

  it('a path that does not exist is a usage error: exit 2 with one line', () => {
    const r = promptd(['import', 'nope']);
    expect(r.code).toBe(2);
    expect(r.errors).toEqual([expect.stringMatching(/^promptd: import: \/.*\/nope: no such file or directory$/)]);
  });
});

describe('import notes', () => {
  it('an edited export gets "imported from prompts/x.yaml", not the note it carried', () => {
    const cwd = library({ 'prompts/hello.yaml': 'name: hello\nnote: Initial seed version\nmessages:\n  - role: user\n    text: Hello\n' });
    expect(promptd(['import', 'lib', '--activate'], { cwd }).code).toBe(0);
    writeFileSync(path.join(cwd, 'lib/prompts/hello.yaml'), 'name: hello\nnote: Initial seed version\nmessages:\n  - role: user\n    text: Hello there\n');
    expect(promptd(['import', 'lib', '--activate'], { cwd }).code).toBe(0);
    writeFileSync(path.join(cwd, 'lib/prompts/hello.yaml'), 'name: hello\nnote: say more\nmessages:\n  - role: user\n    text: Hello there, you\n');
    expect(promptd(['import', 'lib', '--activate'], { cwd }).code).toBe(0);
    const history = promptd(['export', 'out2', '--all-versions'], { cwd });
    expect(history.code).toBe(0);
    const text = readFileSync(path.join(cwd, 'out2/prompts/hello.yaml'), 'utf8');
    expect(text.match(/note: .*/g)).toEqual(['note: Initial seed version', 'note: imported from prompts/hello.yaml', 'note: say more']);
  });
});

describe('import progress', () => {
  const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`prompts/p${String(i).padStart(4, '0')}.yaml`, `name: p${String(i).padStart(4, '0')}\nmessages:\n  - role: user\n    text: "prompt ${i}"\n`]));

  it('without a terminal: periodic lines for reading, planning and writing', () => {
    const cwd = library(many(150));
    const r = promptd(['import', 'lib'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('promptd: reading 15/150 files\n');
    expect(r.stderr).toContain('promptd: planning 150 prompts…\n');
    expect(r.stderr).toContain('promptd: importing 150/150 prompts\n');
    expect(r.stdout).toContain('150 new versions not served (use --activate)');
    const quiet = promptd(['import', 'lib', '--quiet'], { cwd });
    expect(quiet.stderr).not.toMatch(/reading|planning|importing/);
  });

  it('Ctrl-C says how far it got; running the same command again finishes', async () => {
    const cwd = library(many(1500));
    const child = spawn(process.execPath, [BIN, 'import', 'lib', '--activate'], { cwd, env: { ...process.env, NO_COLOR: '1', DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await waitFor(() => /promptd: importing \d+\/1500 prompts/.test(err) || undefined, 120_000, `a progress line; stderr: ${err}`);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(err).toMatch(/promptd: interrupted after \d+ of 1500 prompts; run the same command again to finish\n$/);
    const again = promptd(['import', 'lib', '--activate'], { cwd });
    expect(again.code, again.stderr).toBe(0);
    const check = promptd(['import', 'lib', '--activate', '--dry-run'], { cwd });
    expect(check.stdout).toContain('plan: 0 to create, 0 new versions, 1500 unchanged, 0 to activate, 0 errors');
  });
});
