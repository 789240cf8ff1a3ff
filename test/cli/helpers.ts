// The CLI as a newcomer runs it: a real child process in a working directory of its own.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN } from '../helpers/spawn.js';

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stderr's lines, without the `promptd: database …` line every command prints */
  errors: string[];
}

export function assertBuilt(): void {
  if (!existsSync(path.join(path.dirname(BIN), '..', 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build:server` first');
}

export const tempCwd = () => mkdtempSync(path.join(os.tmpdir(), 'promptd-cwd-'));

type RunOpts = { cwd?: string; env?: Record<string, string | undefined>; input?: string };

function childEnv(opts: RunOpts): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', LOG_LEVEL: 'warn', DATABASE_URL: undefined, PORT: undefined, ...opts.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env as NodeJS.ProcessEnv;
}

const ran = (code: number | null, stdout: string, stderr: string): Ran => ({
  code, stdout, stderr, errors: stderr.split('\n').filter(Boolean).filter((l) => !/^promptd: database /.test(l)),
});

/** Runs `promptd args…` in `cwd`, with DATABASE_URL and PORT unset unless `env` sets them. */
export function promptd(args: string[], opts: RunOpts = {}): Ran {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? tempCwd(), env: childEnv(opts), input: opts.input ?? '', encoding: 'utf8', timeout: 60_000 });
  return ran(r.status, r.stdout, r.stderr);
}

/** `promptd` without blocking the test's event loop, so several can run at once (runAll). */
export function promptdAsync(args: string[], opts: RunOpts = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? tempCwd(), env: childEnv(opts), stdio: ['pipe', 'pipe', 'pipe'], timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve(ran(code, stdout, stderr)));
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs the jobs at most `width` at a time (two CPUs shared with others: never dozens at once), results in order. */
export async function runAll<T>(jobs: (() => Promise<T>)[], width = 2): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return results;
}
