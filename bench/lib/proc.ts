// Child processes for the benchmarks: promptd servers (built JS, as users run it),
// bench scripts under tsx, RSS from /proc. Every wait is bounded.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = path.join(ROOT, 'bin', 'promptd.js');
export const ADMIN_TOKEN = 'bench-admin-token';
export const PG_ADMIN_URL = process.env.PROMPTD_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function buildServer(): void {
  const r = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build:server failed');
}

const tempDirs: string[] = [];

export function tempDir(prefix = 'promptd-bench-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Removes every directory tempDir() made in this process (the fixtures are large). */
export function removeTempDirs(): void {
  for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface Child {
  child: ChildProcess;
  pid: number;
  stderr(): string;
  stdout(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

function track(child: ChildProcess): Child {
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr?.on('data', (d) => (err = (err + d).slice(-20_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** Runs a bench TypeScript file in its own node process (through tsx). */
export function spawnTs(script: string, args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return track(child);
}

/** Spawns a bench script and resolves with the JSON it prints on its last stdout line. */
export async function runTsJson<T>(script: string, args: string[], timeoutMs: number): Promise<T> {
  const c = spawnTs(script, args);
  const timer = setTimeout(() => void c.stop(), timeoutMs);
  const code = await c.exited;
  clearTimeout(timer);
  const last = c.stdout().trim().split('\n').at(-1) ?? '';
  if (code !== 0) throw new Error(`${script} exited with ${code}: ${c.stderr().slice(-2000)}`);
  return JSON.parse(last) as T;
}

export interface Served extends Child {
  base: string;
  port: number;
  /** ms from spawn to the first 200 from /readyz */
  readyMs: number;
}

/** `node bin/promptd.js serve` on a free port; resolves when /readyz answers 200. */
/** `root`: another built checkout whose bin/promptd.js to run (an A/B in one run). */
export async function startServe(databaseUrl: string, opts: { seed?: boolean; env?: Record<string, string>; nodeArgs?: string[]; readyTimeoutMs?: number; root?: string } = {}): Promise<Served> {
  const port = await freePort();
  const t0 = performance.now();
  const bin = opts.root ? path.join(opts.root, 'bin', 'promptd.js') : BIN;
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), bin, 'serve', '--port', String(port), '--host', '127.0.0.1', ...(opts.seed ? [] : ['--no-seed'])], {
    cwd: ROOT,
    // The load comes from one address with one token: per-client caps and rate limits would
    // measure refusals, not the server. Both stay on in production (docs/rate-limits.md).
    env: { ...process.env, DATABASE_URL: databaseUrl, PROMPTD_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'warn', PROMPTD_RATE_LIMITS: 'off', PROMPTD_MCP_SESSIONS_PER_CLIENT: '1000', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const c = track(child);
  const base = `http://127.0.0.1:${port}`;
  const readyMs = await waitReady(base, c, t0, opts.readyTimeoutMs);
  return { ...c, base, port, readyMs };
}

async function waitReady(base: string, c: Child, t0: number, timeoutMs = 120_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (c.child.exitCode !== null) throw new Error(`promptd exited with ${c.child.exitCode}: ${c.stderr().slice(-2000)}`);
    try {
      const r = await fetch(`${base}/readyz`);
      if (r.ok) return performance.now() - t0;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await c.stop();
  throw new Error(`promptd at ${base} not ready within ${timeoutMs} ms: ${c.stderr().slice(-2000)}`);
}

/** Resident set size and its peak, in MiB, from /proc/<pid>/status (Linux). */
export function rssOf(pid: number): { rss: number; peak: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** CPU time (user + system) a process has used so far, in ms (Linux, 100 ticks/s). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Admin REST call with the bench token. */
export async function admin(base: string, method: string, p: string, body?: unknown): Promise<Response> {
  return fetch(`${base}/admin/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

export async function adminOk<T = unknown>(base: string, method: string, p: string, body?: unknown): Promise<T> {
  const r = await admin(base, method, p, body);
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}
