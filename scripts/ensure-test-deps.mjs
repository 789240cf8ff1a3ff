#!/usr/bin/env node
// `pretest`: make sure what `npm test` needs is on this machine before any test runs,
// so a fresh machine of the project's kind passes with the README's command alone.
// - Debian's chromium (admin UI end-to-end tests; never a downloaded browser) and
//   nginx-light (the load-balancer test of deploy/nginx.conf): installed with apt-get
//   when missing and we are root, otherwise one line naming what to install.
// - A PostgreSQL that answers at PROMPTD_TEST_PG_URL (the second pass of the suite):
//   started with pg_ctlcluster when it is installed but down and we are root,
//   otherwise one line naming the URL and how to point the tests elsewhere.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';

// The paths and the install switch can be overridden so the script's own test can
// exercise the refusal path without uninstalling anything.
const CHROMIUM = process.env.PROMPTD_TEST_CHROMIUM ?? '/usr/bin/chromium';
const NGINX = process.env.PROMPTD_TEST_NGINX ?? '/usr/sbin/nginx';
const PG_URL = process.env.PROMPTD_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const mayInstall = process.env.PROMPTD_TEST_DEPS_INSTALL !== '0';
const isRoot = mayInstall && typeof process.getuid === 'function' && process.getuid() === 0;
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

function fail(line) {
  process.stderr.write(`npm test: ${line}\n`);
  process.exit(1);
}

function ensurePackages() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (!existsSync(NGINX)) missing.push('nginx-light');
  if (!missing.length) return;
  if (!isRoot || !has('apt-get')) {
    fail(`the tests need Debian's ${missing.join(' and ')}: run \`sudo apt-get install -y ${missing.join(' ')}\` and try again`);
  }
  process.stderr.write(`npm test: installing ${missing.join(', ')} with apt-get (needed by the end-to-end tests)\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
    execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env });
  } catch {
    fail(`apt-get could not install ${missing.join(' ')}; install them by hand and try again`);
  }
  const still = [CHROMIUM, NGINX].filter((p) => !existsSync(p));
  if (still.length) fail(`${still.join(' and ')} still missing after apt-get install`);
}

async function pgAnswers() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function ensurePostgres() {
  if (await pgAnswers()) return;
  const local = /@(127\.0\.0\.1|localhost)(:|\/)/.test(PG_URL);
  if (local && isRoot && has('pg_ctlcluster') && existsSync('/etc/postgresql')) {
    for (const version of readdirSync('/etc/postgresql')) {
      spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'ignore' });
    }
    for (let i = 0; i < 20; i++) {
      if (await pgAnswers()) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  const shown = PG_URL.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  fail(`PostgreSQL is not reachable at ${shown}: start it, or set PROMPTD_TEST_PG_URL to a server where this user may create databases (or run \`npm run test:sqlite\` for the SQLite pass alone)`);
}

if (process.env.PROMPTD_SKIP_TEST_DEPS !== '1') {
  ensurePackages();
  await ensurePostgres();
}
