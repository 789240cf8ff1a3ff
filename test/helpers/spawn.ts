import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { projectRoot } from '../../src/db/paths.js';

export const BIN = path.join(projectRoot, 'bin', 'promptd.js');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Spawned {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  exited: Promise<number | null>;
}

export function runPromptd(args: string[], env: Record<string, string | undefined> = {}): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: projectRoot, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

export async function waitFor<T>(fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== null && v !== false) return v as T;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts `promptd serve` on a free port and waits until /readyz answers. */
export async function startServe(env: Record<string, string | undefined>) {
  const port = await freePort();
  const proc = runPromptd(['serve'], { PORT: String(port), HOST: '127.0.0.1', ...env });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/readyz`)).ok || undefined, 60_000, `promptd serve on ${base}; stderr: ${proc.stderr()}`);
  return { ...proc, base, port, stop: async () => { proc.child.kill('SIGTERM'); await proc.exited; } };
}
