// Two real processes on one SQLite file, as on a laptop: `promptd serve` (where an
// author edits through the REST API) and `promptd mcp` (a stdio child started by a
// desktop client). The edit must reach the stdio client as list_changed, and the
// next prompts/get there must return the new content.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterSentinel, countListChanged, sleep, tempDbUrl, textPrompt } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/promptd.js');
const ADMIN = 'xp-admin-token';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('across processes: promptd serve + promptd mcp (stdio) on one SQLite file', () => {
  const url = tempDbUrl();
  let serveProc: ChildProcess | undefined;
  let serveLog = '';
  let base = '';
  let client: Client | undefined;
  let stdioLog = '';

  const rest = (method: string, p: string, body?: unknown) =>
    fetch(`${base}/admin/v1${p}`, { method, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

  beforeAll(async () => {
    // `npm test` builds first; a bare `vitest run` on a fresh checkout builds here.
    if (!existsSync(path.join(ROOT, 'dist/cli/main.js'))) execFileSync('npm', ['run', 'build:server'], { cwd: ROOT, stdio: 'inherit' });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    serveProc = spawn(process.execPath, [BIN, 'serve', '--no-seed'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, HOST: '127.0.0.1', PORT: String(port), PROMPTD_ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    serveProc.stdout!.on('data', (d) => (serveLog += d));
    serveProc.stderr!.on('data', (d) => (serveLog += d));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (serveProc.exitCode !== null) throw new Error(`promptd serve exited (${serveProc.exitCode}):\n${serveLog}`);
      const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`promptd serve did not come up:\n${serveLog}`);
      await sleep(100);
    }
    expect((await rest('POST', '/prompts', textPrompt('standup', 'Standup v1 for {{who}}'))).status).toBe(201);

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      cwd: ROOT,
      env: { ...getDefaultEnvironment(), DATABASE_URL: url },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d) => (stdioLog += d));
    client = new Client({ name: 'desktop-client', version: '1.0.0' });
    await client.connect(transport);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    if (serveProc && serveProc.exitCode === null) {
      serveProc.kill('SIGTERM');
      await new Promise((r) => serveProc!.once('exit', r));
    }
  });

  it('a REST edit reaches the stdio client as list_changed, and prompts/get returns the new content', async () => {
    const mcp = client!;
    const first = await mcp.getPrompt({ name: 'standup', arguments: { who: 'Ada' } });
    expect(first.messages[0]!.content).toEqual({ type: 'text', text: 'Standup v1 for Ada' });
    const c = countListChanged(mcp);

    // A draft changes nothing that is served.
    let res = await rest('POST', '/prompts/standup/versions', { arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Standup draft for {{who}}' } }] });
    expect(res.status).toBe(201);
    await afterSentinel(mcp, () => rest('POST', '/resources', { uri: 'note://sentinel', name: 'sentinel', mimeType: 'text/plain', text: 'x', visibility: 'public' }));
    expect(c.count()).toBe(0);

    res = await rest('POST', '/prompts/standup/versions', { activate: true, arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Standup v3 for {{who}}' } }] });
    expect(res.status).toBe(201);
    await c.waitFor(1, 10_000).catch((e) => {
      throw new Error(`${e.message}\n--- serve:\n${serveLog}\n--- mcp:\n${stdioLog}`);
    });
    const next = await mcp.getPrompt({ name: 'standup', arguments: { who: 'Ada' } });
    expect(next.messages[0]!.content).toEqual({ type: 'text', text: 'Standup v3 for Ada' });

    // A prompt created there shows up here.
    expect((await rest('POST', '/prompts', textPrompt('retro', 'Retro {{who}}'))).status).toBe(201);
    await c.waitFor(2, 10_000);
    expect((await mcp.listPrompts()).prompts.map((p) => p.name)).toEqual(['retro', 'standup']);
  });

  it('stdout carries only the protocol: the stdio server logged nothing there', async () => {
    // A stray line on stdout would have broken the JSON-RPC stream above; ping proves it is intact.
    await expect(client!.ping()).resolves.toEqual({});
  });
});
