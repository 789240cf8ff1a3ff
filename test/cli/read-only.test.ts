// A database this user may not write (issue 15 item 4): read-only commands work, write
// commands fail in one line naming the file and the permission. The CLI runs as
// `nobody`, since root ignores file permissions.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { afterAll } from 'vitest';
import { BIN } from '../helpers/spawn.js';
import { assertBuilt, promptd } from './helpers.js';

beforeAll(assertBuilt);

const uid = spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' });
const nobody = process.getuid?.() === 0 && uid.status === 0 ? Number(uid.stdout.trim()) : undefined;

/** True when `nobody` can load the CLI from `bin`: the checkout may sit under a directory only root can traverse (/root, mktemp -d). */
const nobodyCanRun = (bin: string) =>
  spawnSync(process.execPath, [bin, '--help'], { cwd: os.tmpdir(), uid: nobody, gid: nobody, encoding: 'utf8', timeout: 60_000 }).status === 0;

/**
 * The CLI as `nobody` can run it: the checkout itself when it can, else a copy made of
 * hard links (no data copied) in a 0755 temp directory, holding what bin/promptd.js
 * loads. Undefined, with the reason, when neither works (files not readable by others).
 */
function binForNobody(): { bin?: string; why?: string; copy?: string } {
  if (nobody === undefined) return {};
  if (nobodyCanRun(BIN)) return { bin: BIN };
  const root = path.resolve(path.dirname(BIN), '..');
  const copy = mkdtempSync(path.join(os.tmpdir(), 'promptd-nobody-'));
  chmodSync(copy, 0o755);
  const parts = ['bin', 'dist', 'node_modules', 'prisma', 'seed', 'package.json'].filter((p) => existsSync(path.join(root, p)));
  const cp = spawnSync('cp', ['-al', ...parts.map((p) => path.join(root, p)), copy], { encoding: 'utf8' });
  const bin = path.join(copy, 'bin', 'promptd.js');
  if (cp.status === 0 && nobodyCanRun(bin)) return { bin, copy };
  rmSync(copy, { recursive: true, force: true });
  return { why: `nobody cannot read ${root} nor a hard-linked copy of it (${cp.status === 0 ? 'its files are not readable by others' : cp.stderr.trim()})` };
}

const runnable = binForNobody();
if (runnable.why) process.stderr.write(`test/cli/read-only.test.ts: skipped: ${runnable.why}\n`);
afterAll(() => {
  if (runnable.copy) rmSync(runnable.copy, { recursive: true, force: true });
});

function asNobody(args: string[], url: string) {
  const r = spawnSync(process.execPath, [runnable.bin!, ...args], { cwd: os.tmpdir(), uid: nobody, gid: nobody, env: { ...process.env, NO_COLOR: '1', DATABASE_URL: url }, input: '', encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, errors: r.stderr.split('\n').filter((l) => l && !/^promptd: database /.test(l)) };
}

function seededDatabase(): { dir: string; file: string; url: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'promptd-ro-'));
  chmodSync(dir, 0o755);
  const file = path.join(dir, 'ro.db');
  expect(promptd(['seed'], { env: { DATABASE_URL: `file:${file}` } }).code).toBe(0);
  expect(promptd(['token', 'create', 'a'], { env: { DATABASE_URL: `file:${file}` } }).code).toBe(0);
  return { dir, file, url: `file:${file}` };
}

describe.skipIf(runnable.bin === undefined)('a read-only database', () => {
  it('read-only file: token list, export and mcp work; token create fails in one line', () => {
    const { file, url, dir } = seededDatabase();
    chmodSync(file, 0o444); // owned by root, readable by all, writable by none but root
    chmodSync(dir, 0o777);
    const list = asNobody(['token', 'list'], url);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/\ba\b/);
    expect(list.stderr).toContain(`promptd: database ${file} (read-only)`);
    const out = path.join(dir, 'out');
    const exp = asNobody(['export', out], url);
    expect(exp.code, exp.stderr).toBe(0);
    const mcp = asNobody(['mcp'], url);
    expect(mcp.code, mcp.stderr).toBe(0);
    expect(mcp.stderr).toMatch(/mcp: serving [1-9]\d* prompts from .* \(read-only\)/);
    const create = asNobody(['token', 'create', 'b'], url);
    expect(create.code).toBe(1);
    expect(create.errors).toEqual([`promptd: error: cannot write the database ${file}: the file is not writable (permission denied)`]);
  });

  it('read-only directory: read commands work (no -shm can be created there); writes fail in one line', () => {
    const { file, url, dir } = seededDatabase();
    chownSync(file, nobody!, nobody!);
    chmodSync(dir, 0o555);
    const list = asNobody(['token', 'list'], url);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).not.toMatch(/disk I\/O|backtrace|\n\s+at /);
    const mcp = asNobody(['mcp'], url);
    expect(mcp.code, mcp.stderr).toBe(0);
    const imp = asNobody(['import', dir], url);
    expect(imp.code).toBe(1);
    expect(imp.errors).toEqual([`promptd: error: cannot write the database ${file}: its directory ${dir} is not writable (permission denied; SQLite keeps its -wal and -shm files there)`]);
  });
});
