// Rate limits over real HTTP: the admin API (problem+json 429 with Retry-After), the
// read API, unauthenticated clients by address, per-token overrides, settings changes
// applied without a restart, and MCP (HTTP 429 with a JSON-RPC error, raw and through
// the SDK Client). The core runs on an injected clock: refills come from advancing it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import { createApp } from '../../src/http/app.js';
import { createMcpHttpApp } from '../../src/mcp/http.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { startServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { textPrompt } from '../helpers/http.js';

const ADMIN = 'admin-secret';
const MCP_TOKEN = 'mcp-secret';
let t = Date.parse('2026-11-24T12:00:00Z');
const advance = (ms: number) => void (t += ms);

async function listen(core: TestCore, trustProxy: boolean) {
  let port = 0;
  const mcp = createMcpHttpApp({ core, host: '127.0.0.1', get port() { return port; }, token: MCP_TOKEN, rateLimit: true, trustProxy } as Parameters<typeof createMcpHttpApp>[0]);
  const app = createApp({ core, mcp: mcp.app, mcpLegacy: mcp.legacyApp, rate: { limiter: core.rateLimiter, trustProxy } });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      await mcp.closeAll();
      (server as http.Server).closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

let url: string;
let core: TestCore;
let srv: Awaited<ReturnType<typeof listen>>;
/** The same core behind an app that does not trust X-Forwarded-For. */
let direct: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { adminToken: ADMIN, now: () => new Date(t), poolMax: 4 });
  await core.prompts.create({ ...textPrompt('hello'), activate: true } as never, { name: 'test' });
  srv = await listen(core, true);
  direct = await listen(core, false);
}, 60_000);
afterAll(async () => {
  await srv?.close();
  await direct?.close();
  await core?.close();
});

const call = (method: string, path: string, opts: { token?: string | null; body?: unknown; ip?: string; base?: string } = {}) =>
  fetch(`${opts.base ?? srv.base}${path}`, {
    method,
    headers: {
      ...(opts.token === null ? {} : { authorization: `Bearer ${opts.token ?? ADMIN}` }),
      ...(opts.ip ? { 'x-forwarded-for': `203.0.113.50, ${opts.ip}` } : {}),
      'content-type': 'application/json',
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });

const setLimits = async (limits: { mcpPerMinute: number; adminWritesPerMinute: number; adminReadsPerMinute: number }, token = ADMIN) => {
  const res = await call('PUT', '/admin/v1/settings/rate-limits', { body: limits, token });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(await res.json()).toEqual(limits);
};

/** n requests one after the other; their statuses. */
async function burst(n: number, send: () => Promise<Response>): Promise<{ statuses: number[]; last: Response }> {
  const statuses: number[] = [];
  let last!: Response;
  for (let i = 0; i < n; i++) {
    last = await send();
    statuses.push(last.status);
    if (i < n - 1) await last.arrayBuffer();
  }
  return { statuses, last };
}

describe('rate limits', () => {
  it('settings: defaults, then replaced through the admin API (and recorded in the change log)', async () => {
    const res = await call('GET', '/admin/v1/settings/rate-limits');
    expect(await res.json()).toEqual({ mcpPerMinute: 600, adminWritesPerMinute: 120, adminReadsPerMinute: 600 });
    const bad = await call('PUT', '/admin/v1/settings/rate-limits', { body: { mcpPerMinute: 0, adminWritesPerMinute: 1, adminReadsPerMinute: 1 } });
    expect(bad.status).toBe(422);
    await setLimits({ mcpPerMinute: 6, adminWritesPerMinute: 4, adminReadsPerMinute: 10 });
    const [event] = (await core.activity.list({ action: 'settings.updated' })).items;
    expect(event).toMatchObject({ actor: 'admin', entity: 'settings', entityKey: 'rate_limits', details: { to: { adminWritesPerMinute: 4 } } });
  });

  it('admin writes: a burst over the limit gets exactly the excess as 429 problem+json with Retry-After, then refills with time', async () => {
    advance(60_000); // the PUT above took one write
    // Invalid bodies are refused after the count: the limit is on requests, not on successes.
    const { statuses, last } = await burst(7, () => call('POST', '/admin/v1/prompts', { body: { name: '' } }));
    expect(statuses).toEqual([422, 422, 422, 422, 429, 429, 429]);
    expect(last.headers.get('content-type')).toBe('application/problem+json');
    // 4 a minute: the next token in 15 s.
    expect(last.headers.get('retry-after')).toBe('15');
    expect(await last.json()).toMatchObject({ status: 429, title: 'Too Many Requests', detail: 'rate limit: 4 admin writes per minute for PROMPTD_ADMIN_TOKEN; retry in 15 s' });
    // Reads have their own bucket.
    expect((await call('GET', '/admin/v1/prompts')).status).toBe(200);
    advance(14_999);
    expect((await call('POST', '/admin/v1/prompts', { body: { name: '' } })).status).toBe(429);
    advance(1);
    expect((await call('POST', '/admin/v1/prompts', { body: { name: '' } })).status).toBe(422);
    expect((await call('POST', '/admin/v1/prompts', { body: { name: '' } })).status).toBe(429);
  });

  it("a token's own write limit (set on create, changed with PATCH) overrides the setting", async () => {
    advance(60_000);
    const created = await call('POST', '/admin/v1/tokens', { body: { name: 'slow-bot', writeRatePerMinute: 1, mcpRatePerMinute: 50 } });
    expect(created.status).toBe(201);
    const bot = (await created.json()) as { id: number; token: string; writeRatePerMinute: number; mcpRatePerMinute: number };
    expect(bot).toMatchObject({ writeRatePerMinute: 1, mcpRatePerMinute: 50 });
    const { statuses, last } = await burst(3, () => call('POST', '/admin/v1/prompts', { body: { name: '' }, token: bot.token }));
    expect(statuses).toEqual([422, 429, 429]);
    expect((await last.json()).detail).toBe('rate limit: 1 admin writes per minute for token "slow-bot"; retry in 60 s');
    expect(last.headers.get('retry-after')).toBe('60');
    // Back to the instance setting (4 a minute): 15 s later one token is there again.
    const patched = await call('PATCH', `/admin/v1/tokens/${bot.id}`, { body: { writeRatePerMinute: null } });
    expect(await patched.json()).toMatchObject({ writeRatePerMinute: null, mcpRatePerMinute: 50 });
    advance(15_000);
    expect((await call('POST', '/admin/v1/prompts', { body: { name: '' }, token: bot.token })).status).toBe(422);
    const [updated] = (await core.activity.list({ action: 'token.updated' })).items;
    expect(updated?.details).toMatchObject({ name: 'slow-bot', writeRatePerMinute: { from: 1, to: null } });
  });

  it('unauthenticated clients count by address: X-Forwarded-For only where the proxy is trusted', async () => {
    advance(60_000);
    const { statuses, last } = await burst(12, () => call('GET', '/admin/v1/prompts', { token: 'wrong', ip: '198.51.100.7' }));
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    expect((await last.json()).detail).toBe('rate limit: 10 admin reads per minute for address 198.51.100.7; retry in 6 s');
    // Another address has its own bucket; a valid token is not held back by the address.
    expect((await call('GET', '/admin/v1/prompts', { token: null, ip: '198.51.100.8' })).status).toBe(401);
    expect((await call('GET', '/admin/v1/prompts', { ip: '198.51.100.7' })).status).toBe(200);
    // Without PROMPTD_TRUST_PROXY the header is the client's to forge: every address it names is the socket's (127.0.0.1).
    const forged = await burst(12, () => call('GET', '/v1/prompts', { token: null, ip: `192.0.2.${Math.floor(Math.random() * 200)}`, base: direct.base }));
    expect(forged.statuses).toEqual([...Array(10).fill(401), 429, 429]);
    expect((await forged.last.json()).detail).toContain('for address 127.0.0.1');
  });

  it('a settings change applies to the next request, without a restart', async () => {
    advance(60_000);
    const reads = await burst(11, () => call('GET', '/v1/prompts/hello'));
    expect(reads.statuses.filter((s) => s === 429)).toHaveLength(1);
    await setLimits({ mcpPerMinute: 6, adminWritesPerMinute: 4, adminReadsPerMinute: 600 });
    // One second refills 10 reads at 600 a minute (and 0.17 at the old 10).
    advance(1_000);
    // Renders are POSTs but count as reads.
    const after = await burst(11, () => call('POST', '/v1/prompts/hello/render', { body: { arguments: { who: 'x' } } }));
    expect(after.statuses).toEqual([...Array(10).fill(200), 429]);
    await setLimits({ mcpPerMinute: 6, adminWritesPerMinute: 4, adminReadsPerMinute: 10 });
  });

  it('another instance picks a settings change up from the change feed', async () => {
    const other = await coreOn(url, { adminToken: ADMIN, poolMax: 2 });
    try {
      expect(other.rateLimits.current().adminReadsPerMinute).toBe(10);
      await core.rateLimits.update({ mcpPerMinute: 6, adminWritesPerMinute: 4, adminReadsPerMinute: 11 }, 'test');
      await other.feed.poke();
      await other.rateLimits.idle();
      expect(other.rateLimits.current().adminReadsPerMinute).toBe(11);
    } finally {
      await other.close();
    }
  });
});

describe('MCP rate limits', () => {
  const headers = { authorization: `Bearer ${MCP_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (body: unknown, session?: string) =>
    fetch(`${srv.base}/mcp`, { method: 'POST', headers: { ...headers, ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}) }, body: JSON.stringify(body) });

  it('answers HTTP 429 with a JSON-RPC error for the request id, and Retry-After', async () => {
    advance(60_000);
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id')!;
    await init.arrayBuffer();
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
    const { statuses } = await burst(4, () => post({ jsonrpc: '2.0', id: 2, method: 'prompts/list' }, session));
    expect(statuses).toEqual([200, 200, 200, 200]);
    const refused = await post({ jsonrpc: '2.0', id: 42, method: 'prompts/get', params: { name: 'hello', arguments: { who: 'x' } } }, session);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(await refused.json()).toEqual({ jsonrpc: '2.0', id: 42, error: { code: -32000, message: 'rate limit: 6 requests per minute for PROMPTD_MCP_TOKEN; retry in 10 s' } });
    // A wrong token counts against the address, not against the configured token.
    const guess = await fetch(`${srv.base}/mcp`, { method: 'POST', headers: { ...headers, authorization: 'Bearer guess', 'x-forwarded-for': '198.51.100.99' }, body: '{}' });
    expect(guess.status).toBe(401);
  });

  it('the SDK Client surfaces the refusal', async () => {
    advance(60_000);
    const transport = new StreamableHTTPClientTransport(new URL(`${srv.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${MCP_TOKEN}` } } });
    const client = new Client({ name: 'rate-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      let error: unknown;
      for (let i = 0; i < 10 && !error; i++) await client.listPrompts().catch((e: unknown) => (error = e));
      expect((error as { code?: number } | undefined)?.code).toBe(429);
      expect(String((error as Error).message)).toMatch(/"code":-32000,"message":"rate limit: 6 requests per minute for PROMPTD_MCP_TOKEN; retry in \d+ s"/);
    } finally {
      await client.close().catch(() => {});
    }
  });

  it("an MCP client token counts against its own bucket, with its own limit, and its use is audited (face mcp)", async () => {
    advance(60_000);
    const { token, info } = await core.tokens.create('agent-mcp', 'test', { kind: 'mcp', mcpRatePerMinute: 2 });
    const ping = (bearer: string) =>
      fetch(`${srv.base}/mcp`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${bearer}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }) });
    // Admitted (400: no session) twice, then the token's own 2 per minute are spent.
    const { statuses, last } = await burst(3, () => ping(token));
    expect(statuses).toEqual([400, 400, 429]);
    expect(await last.json()).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32000, message: 'rate limit: 2 requests per minute for token "agent-mcp"; retry in 30 s' } });
    // Its bucket is its own: the shared PROMPTD_MCP_TOKEN (6 per minute) is untouched.
    expect((await ping(MCP_TOKEN)).status).toBe(400);
    await core.tokenUse.idle();
    const used = (await core.activity.list({ action: 'token.used' })).items.filter((e) => e.entityKey === String(info.id));
    expect(used.map((e) => e.details)).toEqual([expect.objectContaining({ name: 'agent-mcp', tokenId: info.id, face: 'mcp' })]);
  });

  it('legacy SSE POSTs are counted too', async () => {
    advance(60_000);
    const refused = await burst(8, () => fetch(`${srv.base}/messages?sessionId=nope`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }) }));
    expect(refused.statuses).toEqual([404, 404, 404, 404, 404, 404, 429, 429]);
    expect(await refused.last.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32000 } });
  });
});

describe('promptd serve', () => {
  it('wires the limits into the admin API and /mcp when rateLimits is on (the CLI default)', async () => {
    const fresh = await tempDbUrl();
    const running = await startServer({ databaseUrl: fresh, port: 0, seed: false, adminToken: ADMIN, mcpToken: MCP_TOKEN, rateLimits: true, logger: createLogger('silent') });
    try {
      const put = await fetch(`${running.url}/admin/v1/settings/rate-limits`, {
        method: 'PUT', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mcpPerMinute: 1, adminWritesPerMinute: 2, adminReadsPerMinute: 5 }),
      });
      expect(put.status).toBe(200);
      const write = () => fetch(`${running.url}/admin/v1/prompts`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: '{}' });
      // The PUT took one of the default 120; the bucket is clamped to the new 2 on the next request.
      expect((await burst(3, write)).statuses).toEqual([422, 422, 429]);
      const mcp = () => fetch(`${running.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${MCP_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
      expect((await burst(2, mcp)).statuses).toEqual([400, 429]);
    } finally {
      await running.close();
    }
  });
});
