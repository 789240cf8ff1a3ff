// MCP over real Streamable HTTP on an ephemeral port, mounted in the full app.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Core } from '../../src/core/index.js';
import { createApp } from '../../src/http/app.js';
import { createMcpHttpApp, type McpHttpApp } from '../../src/mcp/http.js';
import { afterSentinel, countListChanged, createPrompt, newCore, sleep, textPrompt, until } from './helpers.js';

const ADMIN = 'admin-secret';
const MCP_TOKEN = 'mcp-secret';

async function listen(core: Core, opts: { token?: string; sessionIdleMs?: number; maxSessions?: number } = {}) {
  let port = 0;
  const mcp = createMcpHttpApp({ core, host: '127.0.0.1', get port() { return port; }, ...opts } as Parameters<typeof createMcpHttpApp>[0]);
  const app = createApp({ core, mcp: mcp.app });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  return {
    mcp,
    base,
    port,
    close: async () => {
      await mcp.closeAll();
      (server as http.Server).closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

async function httpClient(url: string, headers: Record<string, string> = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** A raw request, so that Host can be anything (fetch does not let us set it). */
function raw(port: number, headers: Record<string, string>, body?: unknown): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const postHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('MCP over Streamable HTTP', () => {
  let core: Core;
  let srv: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    core = await newCore({ adminToken: ADMIN });
    await createPrompt(core, textPrompt('hello'));
    srv = await listen(core);
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
    await core?.close();
  });

  const rest = (method: string, path: string, body?: unknown) =>
    fetch(`${srv.base}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('serves prompts/list and prompts/get in a session', async () => {
    const { client, transport } = await httpClient(`${srv.base}/mcp`);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()?.name).toBe('promptd');
    expect(client.getServerCapabilities()).toMatchObject({ prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true }, completions: {}, logging: {} });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['hello']);
    expect((await client.getPrompt({ name: 'hello', arguments: { who: 'HTTP' } })).messages[0]!.content).toEqual({ type: 'text', text: 'Hello HTTP' });
    await client.setLoggingLevel('warning');
    await client.close();
  });

  it('list_changed arrives on the GET stream after an activating REST write, not after a draft', async () => {
    const { client } = await httpClient(`${srv.base}/mcp`);
    const c = countListChanged(client);
    await sleep(300); // let the GET stream open
    let res = await rest('POST', '/prompts/hello/versions', { arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Draft {{who}}' } }] });
    expect(res.status).toBe(201);
    await afterSentinel(client, () => rest('POST', '/resources', { uri: 'note://sentinel', name: 'sentinel', mimeType: 'text/plain', text: 'x', visibility: 'public' }));
    expect(c.count()).toBe(0);

    res = await rest('POST', '/prompts', textPrompt('from-rest', 'REST {{who}}'));
    expect(res.status).toBe(201);
    await c.waitFor(1);
    expect((await client.getPrompt({ name: 'from-rest', arguments: { who: 'x' } })).messages[0]!.content).toEqual({ type: 'text', text: 'REST x' });
    await client.close();
  });

  it('rejects a foreign Host or Origin on a loopback-bound server (DNS rebinding)', async () => {
    let r = await raw(srv.port, { ...postHeaders, host: 'evil.example.com' }, initialize);
    expect(r.status).toBe(403);
    r = await raw(srv.port, { ...postHeaders, host: `evil.example.com:${srv.port}` }, initialize);
    expect(r.status).toBe(403);
    r = await raw(srv.port, { ...postHeaders, host: `localhost:${srv.port}`, origin: 'http://evil.example.com' }, initialize);
    expect(r.status).toBe(403);
    for (const host of [`localhost:${srv.port}`, `127.0.0.1:${srv.port}`, 'localhost', `[::1]:${srv.port}`]) {
      r = await raw(srv.port, { ...postHeaders, host, origin: `http://localhost:${srv.port}` }, initialize);
      expect(r.status, host).toBe(200);
    }
  });

  it('an unknown session id → 404 with a JSON-RPC error; no session id on GET → 400', async () => {
    const res = await fetch(`${srv.base}/mcp`, { method: 'POST', headers: { ...postHeaders, 'mcp-session-id': 'no-such-session' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    expect((await fetch(`${srv.base}/mcp`, { headers: { accept: 'text/event-stream' } })).status).toBe(400);
  });

  // #37.13: PUT /mcp was answered 400 "Mcp-Session-Id header is required".
  it('a method streamable HTTP does not have → 405 with Allow, with or without a session id', async () => {
    for (const method of ['PUT', 'PATCH']) {
      for (const headers of [{}, { 'mcp-session-id': 'no-such-session' }] as Record<string, string>[]) {
        const res = await fetch(`${srv.base}/mcp`, { method, headers: { ...postHeaders, ...headers }, body: '{}' });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, POST, DELETE');
        expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: `Method not allowed: ${method} (allowed: GET, POST, DELETE)` }, id: null });
      }
    }
  });

  it('a POST that is not initialize and has no session leaves no session behind', async () => {
    const before = srv.mcp.sessionCount();
    const res = await fetch(`${srv.base}/mcp`, { method: 'POST', headers: postHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
    expect(res.status).toBe(400);
    expect(srv.mcp.sessionCount()).toBe(before);
  });

  it('refuses a body over 4 MB with 413', async () => {
    const big = { jsonrpc: '2.0', id: 9, method: 'initialize', params: { ...initialize.params, pad: 'x'.repeat(4 * 1024 * 1024 + 10) } };
    const res = await fetch(`${srv.base}/mcp`, { method: 'POST', headers: postHeaders, body: JSON.stringify(big) });
    expect(res.status).toBe(413);
  });

  it('DELETE ends the session', async () => {
    const { client, transport } = await httpClient(`${srv.base}/mcp`);
    const id = transport.sessionId!;
    const before = srv.mcp.sessionCount();
    await transport.terminateSession();
    await until(() => srv.mcp.sessionCount() === before - 1, 2_000, 'session removal');
    const res = await fetch(`${srv.base}/mcp`, { method: 'POST', headers: { ...postHeaders, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }) });
    expect(res.status).toBe(404);
    await client.close();
  });
});

describe('MCP over HTTP with a token and idle expiry', () => {
  let core: Core;
  let srv: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    core = await newCore();
    await createPrompt(core, textPrompt('hello'));
    srv = await listen(core, { token: MCP_TOKEN, sessionIdleMs: 500, maxSessions: 2 });
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
    await core?.close();
  });

  it('missing or wrong token → 401 with WWW-Authenticate: Bearer; the right one works', async () => {
    for (const headers of [postHeaders, { ...postHeaders, authorization: 'Bearer wrong' }, { ...postHeaders, authorization: `Basic ${MCP_TOKEN}` }]) {
      const res = await fetch(`${srv.base}/mcp`, { method: 'POST', headers, body: JSON.stringify(initialize) });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    await expect(httpClient(`${srv.base}/mcp`)).rejects.toThrow();
    const { client } = await httpClient(`${srv.base}/mcp`, { authorization: `Bearer ${MCP_TOKEN}` });
    expect((await client.listPrompts()).prompts).toHaveLength(1);
    await client.close();
  });

  it('at the session cap a new session evicts the least recently used one instead of being refused', async () => {
    const auth = { ...postHeaders, authorization: `Bearer ${MCP_TOKEN}` };
    const open = async () => {
      const res = await fetch(`${srv.base}/mcp`, { method: 'POST', headers: auth, body: JSON.stringify(initialize) });
      await res.body?.cancel();
      return { status: res.status, id: res.headers.get('mcp-session-id')! };
    };
    await until(() => srv.mcp.sessionCount() === 0, 5_000, 'earlier sessions to expire');
    const first = await open();
    const second = await open();
    const third = await open();
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(srv.mcp.sessionCount()).toBe(2);
    const ping = (id: string) => fetch(`${srv.base}/mcp`, { method: 'POST', headers: { ...auth, 'mcp-session-id': id }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
    expect((await ping(first.id)).status).toBe(404);
    expect((await ping(third.id)).status).toBe(200);
  });

  it('closes sessions idle for longer than sessionIdleMs', async () => {
    await until(() => srv.mcp.sessionCount() === 0, 5_000, 'earlier sessions to expire');
    const res = await fetch(`${srv.base}/mcp`, { method: 'POST', headers: { ...postHeaders, authorization: `Bearer ${MCP_TOKEN}` }, body: JSON.stringify(initialize) });
    expect(res.status).toBe(200);
    const id = res.headers.get('mcp-session-id')!;
    await res.body?.cancel();
    expect(srv.mcp.sessionCount()).toBeGreaterThanOrEqual(1);
    await until(() => srv.mcp.sessionCount() === 0, 5_000, 'idle sessions to close');
    const again = await fetch(`${srv.base}/mcp`, { method: 'POST', headers: { ...postHeaders, authorization: `Bearer ${MCP_TOKEN}`, 'mcp-session-id': id }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
    expect(again.status).toBe(404);
  });
});
