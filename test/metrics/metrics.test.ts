// GET /metrics on real servers (startServer, real HTTP, the SDK's real Client over
// Streamable HTTP and legacy SSE): who may scrape it, exact counts by route, method
// and outcome, prompts served by label, the session gauge, notifications, pool
// gauges (PostgreSQL) and that no prompt name ever reaches the exposition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { EmptyResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/config-error.js';
import { CreatePromptInputSchema, VersionInputSchema } from '../../src/core/schemas.js';
import { TEST_DB, tempDbUrl } from '../helpers/db.js';
import { parseExposition, type Exposition } from '../helpers/prometheus.js';
import { countListChanged } from '../mcp/helpers.js';

const TOKEN = 'metrics-admin-token';
const actor = { name: 'metrics-test' };
// Distinctive names, so that finding none of them in a scrape means something.
const GREETING = 'zq-hidden-greeting';
const STAGED = 'zq-hidden-staged';
const MISSING = 'zq-hidden-missing';
const LATER = 'zq-hidden-later';

const prompt = (name: string, text: string) => ({
  name,
  arguments: [{ name: 'who', required: true }],
  messages: [{ role: 'user', content: { type: 'text', text } }],
  activate: true,
});

let guarded: RunningServer; // metrics only with an admin token
let open: RunningServer; // PROMPTD_METRICS=1

beforeAll(async () => {
  const logger = createLogger('silent');
  guarded = await startServer({ databaseUrl: await tempDbUrl(), port: 0, seed: false, adminToken: TOKEN, logger });
  open = await startServer({ databaseUrl: await tempDbUrl(), port: 0, seed: false, adminToken: TOKEN, logger, metricsOpen: true });
  // Through the core, not HTTP: only the requests a test makes are counted.
  const core = guarded.core;
  await core.prompts.create(CreatePromptInputSchema.parse(prompt(GREETING, 'Hello {{who}}')), actor);
  await core.prompts.create(CreatePromptInputSchema.parse(prompt(STAGED, 'v1 {{who}}')), actor);
  await core.prompts.createVersion(STAGED, VersionInputSchema.parse({ arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'v2 {{who}}' } }] }), actor);
  await core.labels.set(STAGED, 'staging', 2, actor);
}, 120_000);

afterAll(async () => {
  await guarded?.close();
  await open?.close();
});

async function scrape(srv: RunningServer, token: string | undefined = TOKEN): Promise<{ text: string; metrics: Exposition }> {
  const res = await fetch(`${srv.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { text, metrics: parseExposition(text) };
}

const sessions = async (transport: string) => (await scrape(guarded)).metrics.value('promptd_mcp_sessions', { transport });

async function mcpClient(srv: RunningServer, query = '') {
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp${query}`));
  const client = new Client({ name: 'metrics-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    /** DELETE the session, as a client that is done does, then drop the connection. */
    close: async () => {
      await transport.terminateSession();
      await client.close();
    },
  };
}

describe('GET /metrics access', () => {
  it('is a 404 like any unknown route without a token, or with a wrong one; 200 with an admin token', async () => {
    const unknown = await fetch(`${guarded.url}/no-such-route`);
    const bare = await fetch(`${guarded.url}/metrics`);
    const wrong = await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer not-a-token' } });
    for (const res of [bare, wrong]) {
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe(unknown.headers.get('content-type'));
      expect(res.headers.get('www-authenticate')).toBeNull();
      const body = (await res.json()) as { title: string; detail: string };
      expect(body).toMatchObject({ status: 404, title: 'Not found', detail: 'no route for GET /metrics' });
    }
    await unknown.body?.cancel();
    const { metrics } = await scrape(guarded);
    expect(metrics.types.get('promptd_http_requests_total')).toBe('counter');
    // Even in its own counts, a refused scrape is a request no route answered.
    expect(metrics.value('promptd_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(3);
    expect(metrics.all('promptd_http_requests_total', { route: '/metrics', status: '404' })).toEqual([]);
  });

  it('answers without a token when PROMPTD_METRICS=1', async () => {
    const { metrics } = await scrape(open, undefined);
    expect(metrics.types.get('promptd_mcp_requests_total')).toBe('counter');
  });

  it('PROMPTD_METRICS is parsed strictly: 1/0 and the usual spellings, anything else names the variable', () => {
    expect(loadConfig({}).metricsOpen).toBe(false);
    expect(loadConfig({ PROMPTD_METRICS: '1' }).metricsOpen).toBe(true);
    expect(loadConfig({ PROMPTD_METRICS: 'on' }).metricsOpen).toBe(true);
    expect(loadConfig({ PROMPTD_METRICS: '0' }).metricsOpen).toBe(false);
    expect(() => loadConfig({ PROMPTD_METRICS: 'public' })).toThrow(ConfigError);
    expect(() => loadConfig({ PROMPTD_METRICS: 'public' })).toThrow(/PROMPTD_METRICS must be 1 or 0 .*got "public"/);
  });
});

// One server's counts accumulate across these tests, which run in order.
describe('counts', () => {
  it('REST requests are counted exactly, by method, route pattern and status', async () => {
    const N = 3;
    for (let i = 0; i < N; i++) {
      const res = await fetch(`${guarded.url}/admin/v1/prompts/${GREETING}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      await res.body?.cancel();
    }
    const missing = await fetch(`${guarded.url}/admin/v1/prompts/${MISSING}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(missing.status).toBe(404);
    const refused = await fetch(`${guarded.url}/admin/v1/prompts/${GREETING}`);
    expect(refused.status).toBe(401);
    const nowhere = await fetch(`${guarded.url}/nowhere/${MISSING}`, { method: 'POST' });
    expect(nowhere.status).toBe(404);

    const { metrics } = await scrape(guarded);
    const route = '/admin/v1/prompts/:name';
    expect(metrics.value('promptd_http_requests_total', { method: 'GET', route, status: '200' })).toBe(N);
    expect(metrics.value('promptd_http_request_duration_seconds_count', { method: 'GET', route, status: '200' })).toBe(N);
    expect(metrics.value('promptd_http_requests_total', { method: 'GET', route, status: '404' })).toBe(1);
    // Refused by the auth middleware: labelled with its pattern, still no name.
    expect(metrics.value('promptd_http_requests_total', { method: 'GET', route: '/admin/v1/*', status: '401' })).toBe(1);
    // No route at all: one label for every such path, whatever it holds.
    expect(metrics.value('promptd_http_requests_total', { method: 'POST', route: 'unmatched', status: '404' })).toBe(1);
  });

  it('MCP requests over Streamable HTTP are counted exactly by method and outcome; the session gauge follows the session', async () => {
    const M = 4;
    const { client, close } = await mcpClient(guarded);
    expect((await scrape(guarded)).metrics.value('promptd_mcp_sessions', { transport: 'streamable_http' })).toBe(1);
    for (let i = 0; i < M; i++) await client.getPrompt({ name: GREETING, arguments: { who: 'x' } });
    const failed = await client.getPrompt({ name: MISSING, arguments: { who: 'x' } }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(McpError);
    await client.listPrompts();
    // A method no handler serves: counted, under one name whatever the client sent.
    const unknown = await client.request({ method: 'zq-hidden-method', params: {} }, EmptyResultSchema).catch((e: unknown) => e);
    expect((unknown as McpError).code).toBe(ErrorCode.MethodNotFound);
    await close();

    const { metrics } = await scrape(guarded);
    const mcp = (method: string, outcome: string) => metrics.value('promptd_mcp_requests_total', { transport: 'streamable_http', method, outcome });
    expect(mcp('initialize', 'ok')).toBe(1);
    expect(mcp('prompts/get', 'ok')).toBe(M);
    expect(mcp('prompts/get', String((failed as McpError).code))).toBe(1);
    expect(mcp('prompts/list', 'ok')).toBe(1);
    expect(mcp('unknown', String(ErrorCode.MethodNotFound))).toBe(1);
    expect(metrics.value('promptd_mcp_request_duration_seconds_count', { transport: 'streamable_http', method: 'prompts/get' })).toBe(M + 1);
    expect(metrics.value('promptd_prompts_served_total', { label: 'production' })).toBe(M);
    expect(metrics.value('promptd_mcp_sessions', { transport: 'streamable_http' })).toBe(0);
    // The HTTP side sees the same traffic under the /mcp pattern.
    expect(metrics.value('promptd_http_requests_total', { method: 'DELETE', route: '/mcp', status: '200' })).toBe(1);
  });

  it('a label endpoint (/mcp?label=staging) counts its prompts served under that label', async () => {
    const { client, close } = await mcpClient(guarded, '?label=staging');
    await client.getPrompt({ name: STAGED, arguments: { who: 'x' } });
    await client.getPrompt({ name: STAGED, arguments: { who: 'y' } });
    await close();
    const { metrics } = await scrape(guarded);
    expect(metrics.value('promptd_prompts_served_total', { label: 'staging' })).toBe(2);
    expect(metrics.value('promptd_prompts_served_total', { label: 'production' })).toBe(4);
  });

  it('the read API counts definitions and renders by the label asked for; a pinned version by none', async () => {
    const read = (path: string, body?: unknown) =>
      fetch(`${guarded.url}/v1${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    for (const res of [
      await read(`/prompts/${STAGED}?label=staging`),
      await read(`/prompts/${STAGED}/render?label=staging`, { arguments: { who: 'x' } }),
      await read(`/prompts/${STAGED}?version=1`),
    ]) {
      expect(res.status).toBe(200);
      await res.body?.cancel();
    }
    const { metrics } = await scrape(guarded);
    expect(metrics.value('promptd_prompts_served_total', { label: 'staging' })).toBe(4);
    expect(metrics.value('promptd_prompts_served_total', { label: 'production' })).toBe(4);
    expect(metrics.value('promptd_http_requests_total', { method: 'POST', route: '/v1/prompts/:name/render', status: '200' })).toBe(1);
  });

  it('notifications sent are counted by method, and the change feed reports how late it saw the change', async () => {
    const { client, close } = await mcpClient(guarded);
    const changed = countListChanged(client);
    const lagBefore = (await scrape(guarded)).metrics.value('promptd_change_feed_lag_seconds_count') ?? 0;
    await guarded.core.prompts.create(CreatePromptInputSchema.parse(prompt(LATER, 'later {{who}}')), actor);
    await changed.waitFor(1);
    await close();
    const { metrics } = await scrape(guarded);
    expect(metrics.value('promptd_mcp_notifications_total', { transport: 'streamable_http', method: 'notifications/prompts/list_changed' })).toBe(1);
    expect(metrics.value('promptd_change_feed_lag_seconds_count')).toBeGreaterThan(lagBefore);
    expect(metrics.value('promptd_catalog_served_prompts')).toBe(3);
  });

  it('the legacy SSE transport is counted under its own transport label', async () => {
    const client = new Client({ name: 'metrics-sse', version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL(`${guarded.url}/sse`)));
    await client.getPrompt({ name: GREETING, arguments: { who: 'x' } });
    const during = (await scrape(guarded)).metrics;
    expect(during.value('promptd_mcp_sessions', { transport: 'sse' })).toBe(1);
    expect(during.value('promptd_mcp_requests_total', { transport: 'sse', method: 'prompts/get', outcome: 'ok' })).toBe(1);
    expect(during.value('promptd_prompts_served_total', { label: 'production' })).toBe(5);
    // The SDK answers POST /messages on Node's response itself: its real status is counted.
    expect(during.value('promptd_http_requests_total', { method: 'POST', route: '/messages', status: '202' })).toBeGreaterThanOrEqual(2);
    expect(during.all('promptd_http_requests_total', { method: 'POST', route: '/messages', status: '200' })).toEqual([]);
    await client.close();
    // The server learns of the closed stream from the socket, a moment later: scrape until it has.
    let after = await sessions('sse');
    for (const deadline = Date.now() + 10_000; after !== 0 && Date.now() < deadline; ) after = await sessions('sse');
    expect(after).toBe(0);
  });
});

describe('what a scrape shows', () => {
  it('never a prompt name, in any label or value', async () => {
    const { text, metrics } = await scrape(guarded);
    expect(metrics.samples.length).toBeGreaterThan(50);
    for (const name of [GREETING, STAGED, MISSING, LATER]) expect(text).not.toContain(name);
    expect(text).not.toContain('zq-hidden');
  });

  it('the process and Node.js defaults, event-loop lag included', async () => {
    const { metrics } = await scrape(guarded);
    expect(metrics.value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(metrics.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(metrics.types.get('nodejs_heap_size_used_bytes')).toBe('gauge');
  });

  it('each app keeps its own counters (two servers in one process share none)', async () => {
    const { metrics } = await scrape(open, undefined);
    expect(metrics.all('promptd_http_requests_total', { route: '/admin/v1/prompts/:name' })).toEqual([]);
    expect(metrics.all('promptd_mcp_requests_total')).toEqual([]);
    expect(metrics.value('promptd_catalog_served_prompts')).toBe(0);
  });

  it(`database pool gauges ${TEST_DB === 'postgres' ? 'on PostgreSQL' : 'are absent on SQLite, which has no pool'}`, async () => {
    const { metrics } = await scrape(guarded);
    if (TEST_DB === 'postgres') {
      expect(metrics.value('promptd_db_pool_max_connections')).toBeGreaterThan(0);
      expect(metrics.value('promptd_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(metrics.value('promptd_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(metrics.value('promptd_db_pool_waiting_requests')).toBe(0);
    } else {
      expect(metrics.all('promptd_db_pool_connections')).toEqual([]);
    }
  });
});
