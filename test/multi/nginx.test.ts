import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { projectRoot } from '../../src/db/paths.js';
import { tempPostgresUrl, TEST_DB } from '../helpers/db.js';
import { freePort, startServe, waitFor } from '../helpers/spawn.js';

const TOKEN = 'nginx-test-token';
const NGINX = '/usr/sbin/nginx';

// deploy/nginx.conf is the documented sample; this test runs exactly that file.
describe.runIf(TEST_DB === 'postgres')('two instances behind the sample nginx configuration', () => {
  let a: Awaited<ReturnType<typeof startServe>>;
  let b: Awaited<ReturnType<typeof startServe>>;
  let nginx: ChildProcess;
  let base: string;

  beforeAll(async () => {
    expect(existsSync(NGINX), 'nginx is installed by .ci/run (apt-get install nginx-light)').toBe(true);
    const url = await tempPostgresUrl();
    a = await startServe({ DATABASE_URL: url, PROMPTD_ADMIN_TOKEN: TOKEN, PROMPTD_INSTANCE_ID: 'a' });
    b = await startServe({ DATABASE_URL: url, PROMPTD_ADMIN_TOKEN: TOKEN, PROMPTD_INSTANCE_ID: 'b' });
    const prefix = mkdtempSync(path.join(os.tmpdir(), 'promptd-nginx-'));
    const listen = await freePort();
    const conf = readFileSync(path.join(projectRoot, 'deploy', 'nginx.conf'), 'utf8')
      .replaceAll('{{prefix}}', prefix)
      .replaceAll('{{port_a}}', String(a.port))
      .replaceAll('{{port_b}}', String(b.port))
      .replaceAll('{{listen}}', String(listen));
    writeFileSync(path.join(prefix, 'nginx.conf'), conf);
    nginx = spawn(NGINX, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
    base = `http://127.0.0.1:${listen}`;
    await waitFor(async () => (await fetch(`${base}/readyz`)).ok || undefined, 20_000, 'nginx');
  }, 120_000);

  afterAll(async () => {
    nginx?.kill('SIGTERM');
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('sessions stick to their instance (by the Mcp-Session-Id prefix) and hear writes made through the other', async () => {
    const clients = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const client = new Client({ name: 'via-nginx', version: '1.0.0' });
        let changed = 0;
        client.setNotificationHandler(PromptListChangedNotificationSchema, () => void changed++);
        const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
        await client.connect(transport);
        return { client, transport, changed: () => changed };
      }),
    );
    const prefixes = new Set(clients.map((c) => c.transport.sessionId!.split('-')[0]));
    expect(prefixes).toEqual(new Set(['a', 'b'])); // round-robin spread the sessions over both
    // Many requests per session: every one must land on the session's own instance.
    for (const c of clients) for (let i = 0; i < 5; i++) await c.client.listPrompts();

    const res = await fetch(`${a.base}/admin/v1/prompts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'via-a', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'hello from a' } }], activate: true }),
    });
    expect(res.status).toBe(201);
    for (const c of clients) {
      await waitFor(() => c.changed() > 0 || undefined, 10_000, 'list_changed through nginx');
      expect((await c.client.getPrompt({ name: 'via-a' })).messages[0]!.content).toEqual({ type: 'text', text: 'hello from a' });
    }
    await Promise.all(clients.map((c) => c.client.close()));
  });
});
