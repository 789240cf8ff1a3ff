// Issue 23.3: 1,500 unauthenticated initialize requests filled the 1,000-session cap
// and every new client got 503 until sessions were deleted by hand; sessions expired
// only after 30 idle minutes and a session holding a GET stream was never swept.
// Now: unused sessions expire within a minute, a per-client cap, eviction of the
// least recently used session instead of refusal, a configurable idle timeout, and
// the legacy SSE transport shares the table. Time is an injected clock; expiry is
// driven by calling the sweeper the interval would call.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Core } from '../../src/core/index.js';
import { createApp } from '../../src/http/app.js';
import { createMcpHttpApp, type McpHttpApp, type McpHttpOptions } from '../../src/mcp/http.js';
import { DEFAULT_SESSION_LIMITS } from '../../src/mcp/session-table.js';
import { loadConfig } from '../../src/config.js';
import { makeCore } from '../helpers/db.js';
import { createPrompt, textPrompt, until } from '../mcp/helpers.js';

let core: Core;
let clock = 1_000_000;

async function listen(opts: Partial<McpHttpOptions>) {
  let port = 0;
  const mcp: McpHttpApp = createMcpHttpApp({ core, host: '127.0.0.1', get port() { return port; }, now: () => clock, ...opts } as McpHttpOptions);
  const app = createApp({ core, mcp: mcp.app, mcpLegacy: mcp.legacyApp });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  const post = async (body: unknown, id?: string) => {
    const res = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...headers, ...(id ? { 'mcp-session-id': id } : {}) }, body: JSON.stringify(body) });
    await res.body?.cancel();
    return { status: res.status, id: res.headers.get('mcp-session-id') ?? '' };
  };
  /** initialize + notifications/initialized, as a flooding client would send. */
  const initialize = async () => {
    const r = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } } });
    expect(r.status).toBe(200);
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, r.id);
    return r.id;
  };
  const ping = async (id: string) => (await post({ jsonrpc: '2.0', id: 7, method: 'ping' }, id)).status;
  return {
    mcp,
    base,
    port,
    initialize,
    ping,
    close: async () => {
      await mcp.closeAll();
      (server as http.Server).closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

async function sdkClient(base: string) {
  const client = new Client({ name: 'latecomer', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return client;
}

beforeAll(async () => {
  core = await makeCore();
  await createPrompt(core, textPrompt('hello'));
}, 120_000);
afterAll(() => core?.close());
beforeEach(() => {
  clock += 24 * 3600_000;
});

describe('MCP session table', () => {
  it('an initialize flood from one client cannot lock a new client out: the per-client cap evicts that client’s oldest sessions', async () => {
    const srv = await listen({ maxSessions: 20, sessions: { perClient: 5 } });
    try {
      // Four times the total cap: the old code answered 503 from the 21st on.
      for (let i = 0; i < 80; i++) await srv.initialize();
      expect(srv.mcp.sessionCount()).toBeLessThanOrEqual(5);
      const client = await sdkClient(srv.base);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['hello']);
      await client.close();
    } finally {
      await srv.close();
    }
  });

  it('at the total cap the least recently used session without an open stream is evicted, not refused', async () => {
    const srv = await listen({ maxSessions: 3, sessions: { perClient: 100 } });
    try {
      const listening = await srv.initialize();
      // Opening the GET notification stream: this session is listening, so not idle.
      const stream = await fetch(`${srv.base}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': listening, 'mcp-protocol-version': '2025-06-18' } });
      expect(stream.status).toBe(200);
      clock += 1000;
      const older = await srv.initialize();
      clock += 1000;
      const newer = await srv.initialize();
      clock += 1000;
      expect(await srv.ping(newer)).toBe(200);
      const latest = await srv.initialize();
      expect(srv.mcp.sessionCount()).toBe(3);
      expect(await srv.ping(older)).toBe(404);
      for (const id of [listening, newer, latest]) expect(await srv.ping(id), id).toBe(200);
      await stream.body?.cancel();
    } finally {
      await srv.close();
    }
  });

  it('a session that made no request after initialize expires within a minute; a used one lasts until the idle timeout', async () => {
    const srv = await listen({ sessions: { idleMs: 10 * 60_000 } });
    try {
      expect(DEFAULT_SESSION_LIMITS.unusedMs + srv.mcp.table.sweepEveryMs).toBeLessThanOrEqual(60_000);
      const unused = await srv.initialize();
      const used = await srv.initialize();
      expect(await srv.ping(used)).toBe(200);
      clock += DEFAULT_SESSION_LIMITS.unusedMs;
      expect(srv.mcp.table.sweep()).toEqual([unused]);
      await until(() => srv.mcp.sessionCount() === 1, 5_000, 'the unused session to close');
      expect(await srv.ping(unused)).toBe(404);
      clock += 9 * 60_000;
      expect(srv.mcp.table.sweep()).toEqual([]);
      expect(await srv.ping(used)).toBe(200); // a request resets the idle clock
      clock += 10 * 60_000;
      expect(srv.mcp.table.sweep()).toEqual([used]);
      expect(await srv.ping(used)).toBe(404);
    } finally {
      await srv.close();
    }
  });

  it('legacy SSE sessions share the table: same per-client cap and eviction', async () => {
    const srv = await listen({ sessions: { perClient: 2 } });
    const opened: { res: http.IncomingMessage; ended: Promise<void> }[] = [];
    const openSse = () =>
      new Promise<{ res: http.IncomingMessage; ended: Promise<void> }>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: srv.port, path: '/sse', headers: { accept: 'text/event-stream' } }, (res) => {
          const ended = new Promise<void>((r) => res.on('close', () => r()));
          res.once('data', () => resolve({ res, ended }));
          res.resume();
        }).on('error', reject);
      });
    try {
      opened.push(await openSse());
      clock += 1000;
      opened.push(await openSse());
      expect(srv.mcp.sessionCount()).toBe(2);
      clock += 1000;
      opened.push(await openSse());
      await opened[0]!.ended; // the oldest stream was closed by the server
      expect(srv.mcp.sessionCount()).toBe(2);
      // A Streamable HTTP session of the same client evicts the next oldest.
      await srv.initialize();
      await opened[1]!.ended;
      expect(srv.mcp.sessionCount()).toBe(2);
    } finally {
      for (const o of opened) o.res.destroy();
      await srv.close();
    }
  });

  it('the limits come from PROMPTD_MCP_IDLE_TIMEOUT (seconds), PROMPTD_MCP_SESSIONS_PER_CLIENT and PROMPTD_MCP_MAX_SESSIONS', () => {
    expect(loadConfig({ PROMPTD_MCP_IDLE_TIMEOUT: '300', PROMPTD_MCP_SESSIONS_PER_CLIENT: '4', PROMPTD_MCP_MAX_SESSIONS: '50', PROMPTD_MCP_MAX_SUBSCRIPTIONS: '10' })).toMatchObject({
      mcpSessions: { idleMs: 300_000, perClient: 4, max: 50 },
      mcpMaxSubscriptions: 10,
    });
    expect(loadConfig({}).mcpSessions).toEqual({});
    expect(() => loadConfig({ PROMPTD_MCP_IDLE_TIMEOUT: '5m' })).toThrow(/PROMPTD_MCP_IDLE_TIMEOUT/);
  });
});
