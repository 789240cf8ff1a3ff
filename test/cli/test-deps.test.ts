// The README's `npm test` provisions what the suite needs (scripts/ensure-test-deps.mjs,
// run as `pretest`), and otherwise stops with one line naming what is missing.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const SCRIPT = path.resolve('scripts/ensure-test-deps.mjs');
const run = (env: Record<string, string>) =>
  spawnSync(process.execPath, [SCRIPT], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 });

describe('npm test prerequisites', () => {
  it('passes on this machine (chromium, nginx and PostgreSQL present)', () => {
    const r = run({});
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('names the Debian packages to install when it may not install them', () => {
    const r = run({ PROMPTD_TEST_CHROMIUM: '/nonexistent/chromium', PROMPTD_TEST_NGINX: '/nonexistent/nginx', PROMPTD_TEST_DEPS_INSTALL: '0' });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/chromium and nginx-light: run `sudo apt-get install -y chromium nginx-light`/);
  });

  it('reports an unreachable PostgreSQL in one line naming the URL, never a stack trace', () => {
    const r = run({ PROMPTD_TEST_PG_URL: 'postgres://someone:secret@127.0.0.1:1/test', PROMPTD_TEST_DEPS_INSTALL: '0' });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('PostgreSQL is not reachable at postgres://someone:***@127.0.0.1:1/test');
    expect(lines[0]).toContain('PROMPTD_TEST_PG_URL');
    expect(r.stderr).not.toContain('secret');
  });
});
