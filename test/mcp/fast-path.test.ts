// The prompts/get fast path below Hono (src/mcp/fast-path.ts) on a real server
// (startServer, real HTTP): a single prompts/get on an established session is answered
// as one JSON body by the session's Server, with the slow path's checks; everything
// else reaches the Hono app with its body intact (pre-read), and answers as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { CreatePromptInputSchema } from '../../src/core/schemas.js';
import { tempDbUrl } from '../helpers/db.js';

const MCP_TOKEN = 'fast-path-mcp-token';
let srv: RunningServer;

beforeAll(async () => {
  srv = await startServer({ databaseUrl: await tempDbUrl(), port: 0, seed: false, adminToken: 'fast-admin', mcpToken: MCP_TOKEN, logger: createLogger('silent') });
  await srv.core.prompts.create(
    CreatePromptInputSchema.parse({ name: 'fast-greet', arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Hello {{who}}' } }], activate: true }),
    { name: 'fast-path-test' },
  );
}, 120_000);

afterAll(async () => {
  await srv?.close();
});

const auth = { authorization: `Bearer ${MCP_TOKEN}` };
const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A raw session: initialize + notifications/initialized; returns the headers of later requests. */
async function open(): Promise<Record<string, string>> {
  const init = await fetch(`${srv.url}/mcp`, {
    method: 'POST',
    headers: { ...base, ...auth },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fast-test', version: '1' } } }),
  });
  expect(init.status).toBe(200);
  await init.text();
  const sid = init.headers.get('mcp-session-id')!;
  const headers = { ...base, ...auth, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
  const n = await fetch(`${srv.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  expect(n.status).toBe(202);
  return headers;
}

const post = (headers: Record<string, string>, body: unknown) => fetch(`${srv.url}/mcp`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('prompts/get fast path', () => {
  it('answers prompts/get as one JSON body, with the session id and the rendered prompt', async () => {
    const h = await open();
    const res = await post(h, { jsonrpc: '2.0', id: 7, method: 'prompts/get', params: { name: 'fast-greet', arguments: { who: 'Ada' } } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('mcp-session-id')).toBe(h['mcp-session-id']);
    const body = (await res.json()) as { id: number; result: { messages: { content: { text: string } }[] } };
    expect(body.id).toBe(7);
    expect(body.result.messages[0]!.content.text).toBe('Hello Ada');
  });

  it('answers prompts/list as one JSON body too, with or without params, pages and all', async () => {
    const h = await open();
    const first = await post(h, { jsonrpc: '2.0', id: 11, method: 'prompts/list' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json');
    const page = (await first.json()) as { id: number; result: { prompts: { name: string }[]; nextCursor?: string } };
    expect(page.id).toBe(11);
    expect(page.result.prompts.map((p) => p.name)).toContain('fast-greet');
    const again = await post(h, { jsonrpc: '2.0', id: 12, method: 'prompts/list', params: {} });
    expect(again.headers.get('content-type')).toBe('application/json');
    expect(((await again.json()) as { result: unknown }).result).toEqual(page.result);
    // A bad cursor keeps the SDK's error.
    const bad = (await (await post(h, { jsonrpc: '2.0', id: 13, method: 'prompts/list', params: { cursor: 'not-a-cursor' } })).json()) as { error?: { code: number } };
    expect(bad.error?.code).toBe(ErrorCode.InvalidParams);
  });

  it('takes sessions opened with ?label= too (the query only chooses a new session\'s view)', async () => {
    const h = await open();
    const res = await fetch(`${srv.url}/mcp?label=production`, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'prompts/get', params: { name: 'fast-greet', arguments: { who: 'Lin' } } }) });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(((await res.json()) as { result: { messages: { content: { text: string } }[] } }).result.messages[0]!.content.text).toBe('Hello Lin');
  });

  it('keeps the SDK errors: invalid params (-32602) and an unknown prompt', async () => {
    const h = await open();
    const missing = (await (await post(h, { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'fast-greet', arguments: {} } })).json()) as { error: { code: number } };
    expect(missing.error.code).toBe(ErrorCode.InvalidParams);
    const malformed = (await (await post(h, { jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 42 } })).json()) as { error: { code: number; message: string } };
    expect(malformed.error.code).toBe(ErrorCode.InvalidParams);
    expect(malformed.error.message).toMatch(/name/);
  });

  it('checks the token on each request: 401 without it, even on a live session', async () => {
    const h = await open();
    const { authorization: _, ...noToken } = h;
    const res = await post(noToken, { jsonrpc: '2.0', id: 4, method: 'prompts/get', params: { name: 'fast-greet', arguments: { who: 'x' } } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('refuses a foreign Origin and an unknown session like the slow path', async () => {
    const h = await open();
    const call = { jsonrpc: '2.0', id: 5, method: 'prompts/get', params: { name: 'fast-greet', arguments: { who: 'x' } } };
    const foreign = await post({ ...h, origin: 'https://evil.example' }, call);
    expect(foreign.status).toBe(403);
    const unknown = await post({ ...h, 'mcp-session-id': 'no-such-session' }, call);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });

  it('hands everything else to the app with its body: batches, other methods, bad JSON, bad protocol versions', async () => {
    const h = await open();
    const list = await post(h, { jsonrpc: '2.0', id: 6, method: 'tools/list', params: {} });
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe('text/event-stream');
    expect(await list.text()).toContain('"tools"');
    const bad = await post(h, '{"jsonrpc": "2.0", "id": 8, "method": "prompts/get"');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const version = await post({ ...h, 'mcp-protocol-version': '1999-01-01' }, { jsonrpc: '2.0', id: 9, method: 'prompts/get', params: { name: 'fast-greet', arguments: { who: 'x' } } });
    expect(version.status).toBe(400);
    const extraKey = await post(h, { jsonrpc: '2.0', id: 10, method: 'prompts/get', params: { name: 'fast-greet', arguments: { who: 'x' } }, extra: 1 });
    // The SDK's JSON-RPC schema is strict: an unknown top-level key is its 400, not a fast answer.
    expect(extraKey.status).toBe(400);
  });

  it('serves the SDK Client, and list_changed still reaches it over the GET stream', async () => {
    const client = new Client({ name: 'fast-sdk', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: auth } }));
    let changed!: () => void;
    const notified = new Promise<void>((r) => (changed = r));
    client.fallbackNotificationHandler = async (n) => {
      if (n.method === 'notifications/prompts/list_changed') changed();
    };
    const got = await client.getPrompt({ name: 'fast-greet', arguments: { who: 'SDK' } });
    expect(got.messages[0]!.content).toEqual({ type: 'text', text: 'Hello SDK' });
    await srv.core.prompts.create(
      CreatePromptInputSchema.parse({ name: 'fast-later', messages: [{ role: 'user', content: { type: 'text', text: 'later' } }], activate: true }),
      { name: 'fast-path-test' },
    );
    await notified;
    await client.close();
  });
});

describe('prompts/get fast path with rate limits on', () => {
  let limited: RunningServer;
  beforeAll(async () => {
    limited = await startServer({ databaseUrl: await tempDbUrl(), port: 0, seed: false, adminToken: 'fast-admin', mcpToken: MCP_TOKEN, logger: createLogger('silent'), rateLimits: true });
    await limited.core.rateLimits.update({ ...limited.core.rateLimits.current(), mcpPerMinute: 4 }, 'test');
  }, 120_000);
  afterAll(async () => {
    await limited?.close();
  });

  it('counts each prompts/get against the token and answers the excess 429 with the request id', async () => {
    const url = `${limited.url}/mcp`;
    const init = await fetch(url, {
      method: 'POST',
      headers: { ...base, ...auth },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fast-test', version: '1' } } }),
    });
    await init.text();
    const h = { ...base, ...auth, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
    expect((await fetch(url, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).status).toBe(202);
    const get = (id: number) => fetch(url, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name: 'none', arguments: {} } }) });
    expect((await get(2)).status).toBe(200);
    expect((await get(3)).status).toBe(200);
    const refused = await get(44);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', id: 44, error: { code: -32000, message: expect.stringMatching(/^rate limit: 4 requests per minute for PROMPTD_MCP_TOKEN/) } });
  });
});
