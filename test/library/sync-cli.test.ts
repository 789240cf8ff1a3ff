// `promptd sync <dir>` spawned as a user runs it (needs `npm run build:server`):
// output and exit codes for a first sync, an unchanged one, a deletion and a conflict.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { countListChanged } from '../mcp/helpers.js';
import { freePort, runPromptd, waitFor } from '../helpers/spawn.js';
import { tempDir, writeFiles } from './helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/promptd.js');
let dbUrl: string;

function promptd(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, '--database-url', dbUrl, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const prompt = (text: string) => `---\ninput:\n  schema:\n    who: string\n---\n${text}\n`;

beforeAll(() => {
  if (!existsSync(path.join(root, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build:server` before this test');
  dbUrl = `file:${path.join(tempDir(), 'cli.db')}`;
});

describe('promptd sync (spawned)', () => {
  it('syncs, re-syncs with nothing to do, archives a deleted file, and exits 1 on a conflict', () => {
    const dir = writeFiles(tempDir('pd-sync-cli-'), { 'greet.prompt': prompt('Hello {{who}}'), 'bye.prompt': prompt('Bye {{who}}') });
    const first = promptd('sync', dir, '--activate');
    expect(first.stderr).not.toMatch(/error|warning|conflict/);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/created\s+greet v1, production → v1/);
    expect(first.stdout).toMatch(/synced .*: 2 changes, 0 unchanged, 0 conflicts/);

    const again = promptd('sync', dir, '--activate');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/: 0 changes, 2 unchanged, 0 conflicts/);

    rmSync(path.join(dir, 'bye.prompt'));
    const gone = promptd('sync', dir);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toMatch(/archived\s+bye/);

    // An edit made elsewhere since the last sync (here: another directory's sync writing the same name).
    const other = writeFiles(tempDir('pd-sync-cli-'), { 'greet.prompt': prompt('Elsewhere {{who}}') });
    expect(promptd('sync', other).code).toBe(0);
    writeFileSync(path.join(dir, 'greet.prompt'), prompt('Hello again {{who}}'));
    const conflict = promptd('sync', dir);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toMatch(/conflict greet: edited since the last sync \(synced v1, now v2\)/);
    expect(conflict.stdout).toMatch(/0 changes, 0 unchanged, 1 conflict$/m);

    const missing = promptd('sync', path.join(dir, 'nope'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such directory');
  });

  it('serve --sync: a real MCP client over HTTP hears list_changed when a file is added, changed or deleted', async () => {
    const dir = writeFiles(tempDir('pd-sync-serve-'), { 'greet.prompt': prompt('Hello {{who}}') });
    const port = await freePort();
    const url = `file:${path.join(tempDir(), 'serve.db')}`;
    const srv = runPromptd(['serve', '--no-seed', '--sync', dir], { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: url, PROMPTD_ADMIN_TOKEN: 'sync-test-token' });
    const base = `http://127.0.0.1:${port}`;
    const client = new Client({ name: 'sync-watcher', version: '1' });
    try {
      await waitFor(async () => (await fetch(`${base}/readyz`)).ok || undefined, 60_000, `serve; stderr: ${srv.stderr()}`);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      const names = async () => (await client.listPrompts()).prompts.map((p) => p.name).sort();
      const seen = countListChanged(client);
      // The initial sync may land before or after the client connected: wait for its result.
      await waitFor(async () => ((await names()).includes('greet') ? true : undefined), 30_000, 'the initial sync');
      seen.reset();
      writeFileSync(path.join(dir, 'added.prompt'), prompt('Added {{who}}'));
      await seen.waitFor(1, 30_000);
      expect(await names()).toEqual(['added', 'greet']);
      seen.reset();
      writeFileSync(path.join(dir, 'added.prompt'), prompt('Changed {{who}}'));
      await seen.waitFor(1, 30_000);
      const got = await client.getPrompt({ name: 'added', arguments: { who: 'you' } });
      expect(JSON.stringify(got.messages)).toContain('Changed you');
      seen.reset();
      rmSync(path.join(dir, 'greet.prompt'));
      await seen.waitFor(1, 30_000);
      expect(await names()).toEqual(['added']);
      expect(srv.stderr()).toMatch(/promptd sync: archived\s+greet/);
    } finally {
      await client.close().catch(() => {});
      srv.child.kill('SIGTERM');
      await srv.exited;
    }
  }, 120_000);

  it('sync --watch prints a report per run and stops on SIGINT with exit 0', async () => {
    const dir = writeFiles(tempDir('pd-sync-watch-'), { 'greet.prompt': prompt('Hello {{who}}') });
    const url = `file:${path.join(tempDir(), 'watch.db')}`;
    const w = runPromptd(['--database-url', url, 'sync', dir, '--watch', '--activate'], { NO_COLOR: '1' });
    try {
      await waitFor(() => (/created\s+greet v1/.test(w.stdout()) ? true : undefined), 30_000, `the first run; stderr: ${w.stderr()}`);
      await waitFor(() => (w.stderr().includes('watching') ? true : undefined), 30_000, 'the watching line');
      writeFileSync(path.join(dir, 'greet.prompt'), prompt('Hello again {{who}}'));
      await waitFor(() => (/new version\s+greet v1 → v2, production → v2/.test(w.stdout()) ? true : undefined), 30_000, `the change; stdout: ${w.stdout()}`);
      // A save that renames a new file over the old one, then an edit in place: both are seen.
      const tmp = path.join(tempDir('pd-sync-tmp-'), 'greet.prompt');
      writeFileSync(tmp, prompt('Renamed over {{who}}'));
      renameSync(tmp, path.join(dir, 'greet.prompt'));
      await waitFor(() => (/greet v2 → v3/.test(w.stdout()) ? true : undefined), 30_000, `the rename; stdout: ${w.stdout()}`);
      appendFileSync(path.join(dir, 'greet.prompt'), 'and then edited\n');
      await waitFor(() => (/greet v3 → v4/.test(w.stdout()) ? true : undefined), 30_000, `the edit after the rename; stdout: ${w.stdout()}`);
    } finally {
      w.child.kill('SIGINT');
    }
    expect(await w.exited).toBe(0);
  }, 120_000);
});
