// Issue 37 item 13: what the command line got wrong is exit 2 in one line, said once;
// a path that is not there is the command line's fault for every command taking one.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../src/core/errors.js';
import { fail } from '../../src/cli/output.js';
import { assertBuilt, promptdAsync, runAll, tempCwd } from './helpers.js';

beforeAll(assertBuilt);

describe('usage errors are exit 2, said once', () => {
  it('token create --mcp --label with an invalid spelling; token revoke with an empty id', async () => {
    const cwd = tempCwd();
    const env = { DATABASE_URL: 'file:./t.db' };
    expect((await promptdAsync(['migrate'], { cwd, env })).code).toBe(0);
    const [bad, latest, empty] = await runAll([
      () => promptdAsync(['token', 'create', 'x', '--mcp', '--label', 'BAD'], { cwd, env }),
      () => promptdAsync(['token', 'create', 'x', '--mcp', '--label', 'latest'], { cwd, env }),
      () => promptdAsync(['token', 'revoke', ''], { cwd, env }),
    ]);
    expect(bad!.code, bad!.stderr).toBe(2);
    expect(bad!.errors).toEqual(['promptd: --label BAD: a label is 1 to 36 lowercase letters, digits and "-", starting with a letter or digit']);
    expect(latest!.code, latest!.stderr).toBe(2);
    expect(latest!.errors).toHaveLength(1);
    expect(empty!.code, empty!.stderr).toBe(2);
    expect(empty!.errors).toEqual(['promptd: token revoke: a token id or prefix is required (`promptd token list` shows them)']);
  });

  it('a path that does not exist: exit 2 for check, import and sync alike, naming the absolute path', async () => {
    const cwd = tempCwd();
    const env = { DATABASE_URL: 'file:./t.db' };
    const results = await runAll(['check', 'import', 'sync'].map((c) => () => promptdAsync([c, 'nope'], { cwd, env })));
    for (const r of results) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0]).toMatch(new RegExp(`^promptd: (check|import|sync): ${cwd}/nope: no such (file or )?directory`));
    }
  });
});

describe('fail()', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('says a field error once when the message already holds it ("invalid label: label: …" was said twice)', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (written.push(String(s)), true));
    fail(new DomainError('validation', 'invalid label: label: a label is 1 to 36 lowercase letters', [{ path: 'label', message: 'a label is 1 to 36 lowercase letters' }]), false);
    fail(new DomainError('validation', 'invalid version', [{ path: 'messages[0]', message: 'empty' }]), false);
    expect(written).toEqual(['promptd: error: invalid label: label: a label is 1 to 36 lowercase letters\n', 'promptd: error: invalid version\n  messages[0]: empty\n']);
  });
});
