// Issue 36.3: token writes through the admin API wake this process's change feed. On
// SQLite the feed's poll sees only other connections' commits, so before the fix the
// first MCP token left /mcp open to anonymous clients, and a revoked token's event
// stream stayed open, until some unrelated write. One server on an idle database
// (both databases with PROMPTD_TEST_DB=postgres); bounded polling, no sleeps.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import { migrateDatabase } from '../../src/db/create-db.js';
import { createApp } from '../../src/http/app.js';
import { createMcpHttpApp } from '../../src/mcp/http.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { sseReader } from '../helpers/sse-reader.js';

const ADMIN = 'token-feed-admin';
let core: TestCore;
let server: ServerType;
let mcp: ReturnType<typeof createMcpHttpApp>;
let base = '';

beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { adminToken: ADMIN });
  let port = 0;
  mcp = createMcpHttpApp({ core, host: '127.0.0.1', get port() { return port; } });
  const app = createApp({ core, mcp: mcp.app });
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  await mcp?.closeAll();
  (server as http.Server | undefined)?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await core?.close();
});

const admin = (method: string, path: string, body?: unknown) =>
  fetch(`${base}/admin/v1${path}`, {
    method, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });

const initialize = () =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'anon', version: '1' } } }),
  });

/** Polls until `check` holds, at most `ms` (the feed's delay is milliseconds; the bound is generous for a loaded machine). */
async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setImmediate(r));
  }
}

it('the first MCP token created through the admin API locks /mcp for anonymous clients at once', async () => {
  const open = await initialize();
  expect(open.status).toBe(200);
  await open.body?.cancel();
  // Anonymous access was cached as "no token exists"; only the feed drops that.
  const created = await admin('POST', '/tokens', { name: 'first-mcp', kind: 'mcp' });
  expect(created.status).toBe(201);
  const locked = await eventually(async () => {
    const res = await initialize();
    await res.body?.cancel();
    return res.status === 401;
  });
  expect(locked, 'anonymous /mcp still admitted after the first MCP token').toBe(true);
});

it("a token revoked through the admin API ends its /admin/v1/events stream", async () => {
  const created = await admin('POST', '/tokens', { name: 'watcher', role: 'reader' });
  const { id, token } = (await created.json()) as { id: number; token: string };
  const res = await fetch(`${base}/admin/v1/events`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const stream = sseReader(res);
  expect(await stream.until(/event: ready[^\n]*\n[^\n]*\n\n/)).not.toBeNull();
  const ended = stream.rest().then(() => true);
  expect((await admin('DELETE', `/tokens/${id}`)).status).toBe(200);
  // rest() resolves only when the server ends the stream; a bound keeps a failure from hanging.
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 5_000)));
  const closed = await Promise.race([ended, bound]);
  clearTimeout(timer);
  if (!closed) await stream.cancel();
  expect(closed, 'the revoked token\'s stream stayed open').toBe(true);
});
