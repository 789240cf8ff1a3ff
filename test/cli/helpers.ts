// The CLI as a newcomer runs it: a real child process in a working directory of its own.
import { spawnSync } from 'node:child_process';
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

/** Runs `promptd args…` in `cwd`, with DATABASE_URL and PORT unset unless `env` sets them. */
export function promptd(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {}): Ran {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', LOG_LEVEL: 'warn', DATABASE_URL: undefined, PORT: undefined, ...opts.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? tempCwd(), env: env as NodeJS.ProcessEnv, input: opts.input ?? '', encoding: 'utf8', timeout: 60_000 });
  const lines = r.stderr.split('\n').filter(Boolean);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, errors: lines.filter((l) => !/^promptd: database /.test(l)) };
}
