// A newcomer's first hour (issue 15): every bad input refused in one line, nothing
// created by accident, the database named on every command. Real child processes.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, freePort } from '../helpers/spawn.js';
import { assertBuilt, promptd, promptdAsync, runAll, tempCwd } from './helpers.js';

beforeAll(assertBuilt);

const oneLine = (r: { errors: string[]; stderr: string }) => {
  expect(r.errors, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return r.errors[0]!;
};

describe('database URLs', () => {
  it('refuses an unknown scheme with exit 2, names what is accepted and creates nothing', () => {
    const cwd = tempCwd();
    for (const url of ['mysql://foo', 'sqlite:///x.db', 'http://localhost/db']) {
      const r = promptd(['serve'], { cwd, env: { DATABASE_URL: url } });
      expect(r.code).toBe(2);
      expect(oneLine(r)).toMatch(/DATABASE_URL: unsupported database ".*:"; use file:PATH or a path \(SQLite\), postgres:\/\/… or postgresql:\/\/… \(PostgreSQL\)/);
    }
    const flag = promptd(['--database-url', 'mysql://foo', 'token', 'list'], { cwd });
    expect(flag.code).toBe(2);
    expect(oneLine(flag)).toMatch(/^promptd: --database-url: unsupported database "mysql:"/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('creates the directory of a SQLite file only for serve, migrate and seed, and says so', () => {
    const cwd = tempCwd();
    const file = path.join(cwd, 'no', 'such', 'dir', 'x.db');
    for (const args of [['token', 'list'], ['token', 'create', 'x'], ['export', 'lib'], ['import', '.']]) {
      const r = promptd(args, { cwd, env: { DATABASE_URL: `file:${file}` } });
      expect(r.code, args.join(' ')).toBe(1);
      expect(oneLine(r)).toContain(`no database at ${file}`);
    }
    expect(readdirSync(cwd)).toEqual([]);
    const m = promptd(['migrate'], { cwd, env: { DATABASE_URL: `file:${file}` } });
    expect(m.code, m.stderr).toBe(0);
    expect(m.stderr).toContain(`created the directory ${path.dirname(file)} for the database`);
    expect(existsSync(file)).toBe(true);
  });

  it('a plain path and file:PATH are both SQLite; the absolute path is printed on every command', () => {
    const cwd = tempCwd();
    const m = promptd(['migrate'], { cwd, env: { DATABASE_URL: 'db/x.db' } });
    expect(m.code, m.stderr).toBe(0);
    const list = promptd(['token', 'list'], { cwd, env: { DATABASE_URL: 'file:./db/x.db' } });
    expect(list.code).toBe(0);
    expect(list.stderr).toContain(`promptd: database ${path.join(cwd, 'db', 'x.db')}\n`);
  });
});

describe('ports', () => {
  it('refuses an invalid --port or PORT with exit 2 (never 3000 instead)', () => {
    for (const [args, env] of [
      [['serve', '--port', 'abc'], {}],
      [['serve', '--port', '99999'], {}],
      [['serve', '--port', '-1'], {}],
      [['serve'], { PORT: 'abc' }],
      [['serve'], { PORT: '70000' }],
    ] as const) {
      const cwd = tempCwd();
      const r = promptd([...args], { cwd, env });
      expect(r.code, `${args.join(' ')} ${JSON.stringify(env)}`).toBe(2);
      expect(oneLine(r)).toMatch(/^promptd: (--port|PORT) must be a port number from 0 to 65535/);
      expect(readdirSync(cwd)).toEqual([]);
    }
  });

  it('a port in use is one line and exit 1, before the database is touched', async () => {
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', () => r()));
    try {
      const cwd = tempCwd();
      const r = promptd(['serve', '--port', String(port)], { cwd });
      expect(r.code).toBe(1);
      expect(oneLine(r)).toBe(`promptd: error: port ${port} is already in use on 127.0.0.1 (another promptd?); choose another with --port or PORT`);
      expect(readdirSync(cwd)).toEqual([]); // no ./data, no migrations, no token
    } finally {
      blocker.close();
    }
  });
});

describe('every command, bad input', () => {
  const commands = [['serve'], ['mcp'], ['mcp', '--print-config'], ['migrate'], ['seed'], ['import', '.'], ['export', 'out'], ['sync', '.'], ['token', 'create', 'x'], ['token', 'list'], ['token', 'revoke', '1']];
  const cases = [
    [['--no-such-flag'], {}],
    [[], { DATABASE_URL: 'mysql://foo' }],
    [[], { PORT: 'abc' }],
  ] as const;

  // One test per command, its three cases two at a time: each child takes ~0.3 s of
  // CPU, and 33 of them in one test outran its timeout on a loaded 2-CPU machine.
  it.each(commands.map((c) => [c.join(' '), c] as const))('%s: a bad flag, a bad URL and a bad port each give exit 2 and one line', async (_name, c) => {
    const cwd = tempCwd();
    const results = await runAll(cases.map(([extra, env]) => () => promptdAsync([...c, ...extra], { cwd, env })));
    results.forEach((r, i) => {
      const [extra, env] = cases[i]!;
      expect(r.code, `${c.join(' ')} ${extra.join(' ')} ${JSON.stringify(env)}: ${r.stderr}`).toBe(2);
      expect(oneLine(r)).toMatch(/^promptd: /);
    });
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('promptd mcp', () => {
  it('never creates a database: one line naming the path and the fix', () => {
    const cwd = tempCwd();
    const r = promptd(['mcp'], { cwd });
    expect(r.code).toBe(1);
    expect(oneLine(r)).toMatch(new RegExp(`no database at ${path.join(cwd, 'data', 'promptd.db')} \\(DATABASE_URL is not set.*--print-config`));
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('says at start which database it serves and how many prompts, and warns when none', () => {
    const cwd = tempCwd();
    expect(promptd(['migrate'], { cwd }).code).toBe(0);
    const empty = promptd(['mcp'], { cwd });
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stderr).toContain(`promptd: mcp: serving 0 prompts from ${path.join(cwd, 'data', 'promptd.db')}\n`);
    expect(empty.stderr).toMatch(/warning: no prompt has an active version here/);
    expect(promptd(['seed'], { cwd }).code).toBe(0);
    const seeded = promptd(['mcp'], { cwd });
    expect(seeded.stderr).toMatch(/serving [1-9]\d* prompts? from /);
    expect(seeded.stderr).not.toMatch(/warning/);
  });

  it('--print-config prints client-ready JSON with absolute paths; help and README show the same entry', () => {
    const cwd = tempCwd();
    const r = promptd(['mcp', '--print-config', '--page-size', '20'], { cwd });
    expect(r.code).toBe(0);
    const entry = JSON.parse(r.stdout).mcpServers.promptd;
    expect(entry).toEqual({ command: process.execPath, args: [BIN, 'mcp', '--page-size', '20'], env: { DATABASE_URL: `file:${path.join(cwd, 'data', 'promptd.db')}` } });
    expect(r.stderr).toMatch(/warning: no database at .* yet/);
    const vscode = JSON.parse(promptd(['mcp', '--print-config', 'vscode'], { cwd }).stdout);
    expect(vscode.servers.promptd).toMatchObject({ type: 'stdio', command: process.execPath });
    const help = promptd(['mcp', '--help'], { cwd }).stdout;
    const readme = readFileSync(path.join(path.dirname(BIN), '..', 'README.md'), 'utf8');
    for (const text of [help, readme].map((t) => t.replace(/\s+/g, ''))) {
      expect(text).not.toMatch(/"command":"npx"|npxpromptdmcp/);
      expect(text).toMatch(/\{"mcpServers":\{"promptd":\{"command":"\/[^"]*node","args":\["\/[^"]*bin\/promptd\.js","mcp"\],"env":\{"DATABASE_URL":"file:\/[^"]*"\}\}\}\}/);
    }
    expect(help).toContain(`"command":"${process.execPath}","args":["${BIN}","mcp"]`);
  });
});

describe('the relative default database and the round trip', () => {
  it('export refuses a database that does not exist, and never overwrites a library with an empty export without --force', () => {
    const cwd = tempCwd();
    mkdirSync(path.join(cwd, 'lib', 'prompts'), { recursive: true });
    writeFileSync(path.join(cwd, 'lib', 'prompts', 'hello.yaml'), 'name: hello\nmessages:\n  - role: user\n    text: hi\n');
    writeFileSync(path.join(cwd, 'lib', 'resources.yaml'), 'resources: []\n');
    const r = promptd(['export', './lib'], { cwd });
    expect(r.code).toBe(1);
    expect(oneLine(r)).toContain(`no database at ${path.join(cwd, 'data', 'promptd.db')} (DATABASE_URL is not set`);
    expect(existsSync(path.join(cwd, 'data'))).toBe(false);
    expect(promptd(['migrate'], { cwd }).code).toBe(0);
    const empty = promptd(['export', './lib'], { cwd });
    expect(empty.code).toBe(1);
    expect(oneLine(empty)).toMatch(/refusing to replace the library in .*lib with an export of no prompts.*--force/);
    expect(readFileSync(path.join(cwd, 'lib', 'resources.yaml'), 'utf8')).toBe('resources: []\n');
    expect(promptd(['export', './lib', '--force'], { cwd }).code).toBe(0);
  });

  it('export → edit → import without --activate → export: import says the version is not served, export warns', () => {
    const cwd = tempCwd();
    const lib = path.join(cwd, 'lib');
    mkdirSync(path.join(lib, 'prompts'), { recursive: true });
    const file = path.join(lib, 'prompts', 'hello.yaml');
    writeFileSync(file, 'name: hello\ndescription: Says hello.\nmessages:\n  - role: user\n    text: Hello\n');
    expect(promptd(['migrate'], { cwd }).code).toBe(0);
    expect(promptd(['import', 'lib', '--activate'], { cwd }).code).toBe(0);
    expect(promptd(['export', 'lib'], { cwd }).code).toBe(0);
    writeFileSync(file, readFileSync(file, 'utf8').replace('text: Hello', 'text: Hello there'));
    const imp = promptd(['import', 'lib'], { cwd });
    expect(imp.code).toBe(0);
    expect(imp.stdout).toContain('1 new version not served (use --activate)');
    const exp = promptd(['export', 'lib'], { cwd });
    expect(exp.code).toBe(0);
    expect(oneLine(exp)).toBe('warning: hello: wrote the served v1, but v2 is newer and not served (activate it, or export with --latest)');
  });
});
