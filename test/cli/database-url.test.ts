// Issue 37 items 7, 9 and 10: a DATABASE_URL that names no usable database is refused
// in one line naming it, before anything is migrated or announced; read-only commands
// never create or migrate a database.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/spawn.js';
import { PG_ADMIN_URL, TEST_DB, tempPostgresUrl } from '../helpers/db.js';
import { assertBuilt, promptdAsync, runAll, tempCwd, type Ran } from './helpers.js';

beforeAll(assertBuilt);

const oneLine = (r: Ran) => {
  expect(r.errors, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at |backtrace|\.rs:\d|applying \d+ migration/);
  return r.errors[0]!;
};

describe('SQLite: a path that is not a database', () => {
  it('a text file, /etc/passwd: refused for read and write commands alike, untouched', async () => {
    const cwd = tempCwd();
    writeFileSync(path.join(cwd, 'notes.txt'), 'my notes\n');
    const jobs = ['./notes.txt', '/etc/passwd'].flatMap((url) => [['token', 'list'], ['migrate'], ['serve', '--port', '0']].map((args) => async () => ({ url, args, r: await promptdAsync(args, { cwd, env: { DATABASE_URL: url } }) })));
    for (const { url, args, r } of await runAll(jobs)) {
      expect(r.code, `${url} ${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(oneLine(r)).toBe(`promptd: error: ${path.resolve(cwd, url)} is not a database (not a SQLite file); check DATABASE_URL`);
    }
    expect(readdirSync(cwd)).toEqual(['notes.txt']);
    expect(statSync(path.join(cwd, 'notes.txt')).size).toBe(9);
  });

  it('an empty file: not a promptd database for read-only commands (left empty); migrate initialises it', async () => {
    const cwd = tempCwd();
    const file = path.join(cwd, 'empty.db');
    writeFileSync(file, '');
    const [list, mcp] = await runAll([['token', 'list'], ['mcp']].map((args) => () => promptdAsync(args, { cwd, env: { DATABASE_URL: file } })));
    for (const r of [list!, mcp!]) {
      expect(r.code, r.stderr).toBe(1);
      expect(oneLine(r)).toBe(`promptd: error: ${file} is an empty file, not a promptd database; create one with \`promptd migrate\` (same DATABASE_URL)`);
    }
    expect(statSync(file).size).toBe(0);
    const m = await promptdAsync(['migrate'], { cwd, env: { DATABASE_URL: file } });
    expect(m.code, m.stderr).toBe(0);
    expect((await promptdAsync(['token', 'list'], { cwd, env: { DATABASE_URL: file } })).stdout).toBe('no tokens\n');
  });

  it('a SQLite file without promptd tables is not a promptd database for read-only commands', async () => {
    const cwd = tempCwd();
    const file = path.join(cwd, 'other.db');
    const driver = 'better-sqlite3'; // untyped here: imported by name
    const { default: Database } = (await import(driver)) as { default: new (f: string) => { exec(sql: string): void; close(): void } };
    const db = new Database(file);
    db.exec('CREATE TABLE t (x)');
    db.close();
    const r = await promptdAsync(['token', 'list'], { cwd, env: { DATABASE_URL: file } });
    expect(r.code, r.stderr).toBe(1);
    expect(oneLine(r)).toMatch(/is not a promptd database \(a SQLite file without promptd's tables\)/);
  });

  it('a directory is named as one', async () => {
    const cwd = tempCwd();
    mkdirSync(path.join(cwd, 'dir'));
    for (const r of await runAll([['token', 'list'], ['migrate']].map((args) => () => promptdAsync(['--database-url', './dir', ...args], { cwd })))) {
      expect(r.code, r.stderr).toBe(1);
      expect(oneLine(r)).toBe(`promptd: error: ${path.join(cwd, 'dir')} is a directory, not a database file; set DATABASE_URL to a file (e.g. file:${path.join(cwd, 'dir', 'promptd.db')})`);
    }
  });

  it('--database-url file: and an empty --database-url are usage errors (exit 2), nothing created', async () => {
    const cwd = tempCwd();
    const [fileOnly, empty, envFile] = await runAll([
      () => promptdAsync(['--database-url', 'file:', 'migrate'], { cwd }),
      () => promptdAsync(['--database-url', '', 'token', 'list'], { cwd }),
      () => promptdAsync(['token', 'list'], { cwd, env: { DATABASE_URL: 'file:' } }),
    ]);
    expect(fileOnly!.code, fileOnly!.stderr).toBe(2);
    expect(oneLine(fileOnly!)).toBe('promptd: --database-url: "file:" names no file; use file:PATH or a path (e.g. file:./data/promptd.db)');
    expect(empty!.code, empty!.stderr).toBe(2);
    expect(oneLine(empty!)).toBe('promptd: --database-url is empty; give file:PATH, a path or postgres://…');
    expect(envFile!.code).toBe(2);
    expect(oneLine(envFile!)).toMatch(/^promptd: DATABASE_URL: "file:" names no file/);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('PostgreSQL: one line naming host, database and cause, before anything is announced', () => {
  it('connection refused; a bad connection_limit is a usage error', async () => {
    const port = await freePort();
    const [refused, limit] = await runAll([
      () => promptdAsync(['token', 'list'], { env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/promptd` } }),
      () => promptdAsync(['token', 'list'], { env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/promptd?connection_limit=abc` } }),
    ]);
    expect(refused!.code, refused!.stderr).toBe(1);
    expect(refused!.stderr).not.toMatch(/promptd: database /);
    expect(oneLine(refused!)).toBe(`promptd: error: cannot connect to PostgreSQL postgres@127.0.0.1:${port}/promptd: connection refused (is PostgreSQL running and listening on port ${port}?)`);
    expect(limit!.code, limit!.stderr).toBe(2);
    expect(oneLine(limit!)).toBe('promptd: DATABASE_URL: connection_limit must be a whole number from 1 to 1000 (got "abc")');
  });

  it.runIf(TEST_DB === 'postgres')('an unknown database, an unknown user', async () => {
    const u = new URL(PG_ADMIN_URL);
    const where = (user: string, db: string) => `${user}@${u.host}/${db}`;
    const noDb = new URL(PG_ADMIN_URL);
    noDb.pathname = '/promptd_no_such_db_37';
    const noUser = new URL(PG_ADMIN_URL);
    noUser.username = 'promptd_no_such_user_37';
    const [db, user] = await runAll([noDb, noUser].map((x) => () => promptdAsync(['token', 'list'], { env: { DATABASE_URL: x.toString() } })));
    expect(db!.code).toBe(1);
    expect(oneLine(db!)).toBe(`promptd: error: cannot connect to PostgreSQL ${where(u.username, 'promptd_no_such_db_37')}: the database "promptd_no_such_db_37" does not exist (create it: createdb promptd_no_such_db_37)`);
    expect(user!.code).toBe(1);
    expect(oneLine(user!)).toMatch(new RegExp(`^promptd: error: cannot connect to PostgreSQL ${where('promptd_no_such_user_37', u.pathname.slice(1))}: authentication (refused|failed): .*promptd_no_such_user_37`));
  });

  // Migrating an empty PostgreSQL database takes ~10 s alone, more on a loaded machine.
  it.runIf(TEST_DB === 'postgres')('read-only commands never migrate; "applying" only when migrations are pending', { timeout: 180_000 }, async () => {
    const url = await tempPostgresUrl();
    const name = new URL(url).pathname.slice(1);
    const list = await promptdAsync(['token', 'list'], { env: { DATABASE_URL: url } });
    expect(list.code).toBe(1);
    expect(oneLine(list)).toMatch(new RegExp(`^promptd: error: the database PostgreSQL .*/${name} needs \\d+ migrations; run \`promptd migrate\` first`));
    const m = await promptdAsync(['migrate'], { env: { DATABASE_URL: url } });
    expect(m.code, m.stderr).toBe(0);
    expect(m.stderr).toMatch(/applying \d+ migrations to PostgreSQL/);
    const again = await runAll([['migrate'], ['token', 'list']].map((args) => () => promptdAsync(args, { env: { DATABASE_URL: url } })));
    for (const r of again) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/applying/);
    }
  });
});
