// Every size limit holds, on both faces: body size, argument values, resources,
// page size, arguments/messages/choices per version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { LIMITS } from '../../src/core/schemas.js';
import { ADMIN_BODY_LIMIT } from '../../src/rest/admin-api.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';
import { mcpHarness } from '../fuzz/mcp-harness.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
let app: ReturnType<typeof makeClient>['app'];

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  ({ call, app } = makeClient(core));
  expect((await call('POST', '/prompts', textPrompt('greet', 'Hello {{who}}', { activate: true }))).status).toBe(201);
});
afterAll(() => core.close());

const problem = async (res: Response, status: number) => {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return JSON.parse(text) as { detail: string; errors?: { path: string; message: string }[] };
};

describe('request body size', () => {
  it('a JSON body over the admin limit is a 413, with or without Content-Length', async () => {
    const big = JSON.stringify({ ...textPrompt('big'), description: 'x'.repeat(ADMIN_BODY_LIMIT) });
    await problem(await call('POST', '/prompts', big), 413);
    // Chunked, no Content-Length: the limit is enforced while reading.
    const chunks = [new TextEncoder().encode(big.slice(0, 1024)), ...Array.from({ length: 17 }, () => new Uint8Array(1024 * 1024).fill(0x61))];
    const stream = new ReadableStream({ pull(c) { const n = chunks.shift(); if (n) c.enqueue(n); else c.close(); } });
    const res = await app.request('/admin/v1/prompts', { method: 'POST', body: stream, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, duplex: 'half' } as RequestInit);
    await problem(res, 413);
    expect((await call('GET', '/prompts/big')).status).toBe(404);
  });

  it('/mcp refuses a body over its 4 MB limit with 413', async () => {
    const h = mcpHarness(core);
    const sid = await h.initialize();
    const res = await h.post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'greet', arguments: { who: 'x'.repeat(5 * 1024 * 1024) } } }), { 'mcp-session-id': sid });
    expect(res.status).toBe(413);
    await h.mcp.closeAll();
  });
});

describe('MCP sessions', () => {
  it('an idle session expires: it is closed and its id then gets a 404 JSON-RPC error', async () => {
    const h = mcpHarness(core, { sessionIdleMs: 300 });
    const sid = await h.initialize();
    expect((await h.rpc(sid, 'ping')).result).toEqual({});
    expect(h.mcp.sessionCount()).toBe(1);
    const until = Date.now() + 5_000;
    while (h.mcp.sessionCount() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(h.mcp.sessionCount()).toBe(0);
    const res = await h.post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }), { 'mcp-session-id': sid });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBeTypeOf('number');
    await h.mcp.closeAll();
  });
});

describe('argument values', () => {
  it(`values over ${LIMITS.argumentValueLength} characters are refused by render (422) and by MCP prompts/get (-32602)`, async () => {
    const long = 'x'.repeat(LIMITS.argumentValueLength + 1);
    const res = await call('POST', '/prompts/greet/render', { arguments: { who: long } });
    expect((await problem(res, 422)).errors?.[0]?.path).toContain('arguments.who');
    const ok = await call('POST', '/prompts/greet/render', { arguments: { who: long.slice(1) } });
    expect(ok.status).toBe(200);

    const h = mcpHarness(core);
    const sid = await h.initialize();
    const refused = await h.rpc(sid, 'prompts/get', { name: 'greet', arguments: { who: long } });
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.message).toContain(`limit is ${LIMITS.argumentValueLength}`);
    const served = await h.rpc(sid, 'prompts/get', { name: 'greet', arguments: { who: long.slice(1) } });
    expect(served.result).toBeDefined();
    await h.mcp.closeAll();
  });

  it('a per-argument maxLength is enforced below the global limit', async () => {
    const body = { ...textPrompt('short'), arguments: [{ name: 'who', required: true, maxLength: 5 }], activate: true };
    expect((await call('POST', '/prompts', body)).status).toBe(201);
    await problem(await call('POST', '/prompts/short/render', { arguments: { who: '123456' } }), 422);
    expect((await call('POST', '/prompts/short/render', { arguments: { who: '12345' } })).status).toBe(200);
    await problem(await call('POST', '/prompts', { ...body, name: 'short2', arguments: [{ name: 'who', maxLength: LIMITS.argumentValueLength + 1 }] }), 422);
  });
});

describe('resource size', () => {
  it(`text over ${LIMITS.resourceBytes} characters and blobs over ${LIMITS.resourceBytes} bytes are refused; at the limit they are stored`, async () => {
    const text = 'a'.repeat(LIMITS.resourceBytes + 1);
    await problem(await call('POST', '/resources', { uri: 'mem://big-text', name: 'big', mimeType: 'text/plain', text }), 422);
    const blob = Buffer.alloc(LIMITS.resourceBytes + 3).toString('base64');
    const res = await call('POST', '/resources', { uri: 'mem://big-blob', name: 'big', mimeType: 'application/octet-stream', blob });
    expect([413, 422]).toContain(res.status);
    await problem(res, res.status);
    const fits = await call('POST', '/resources', { uri: 'mem://fits', name: 'fits', mimeType: 'application/octet-stream', blob: Buffer.alloc(LIMITS.resourceBytes).toString('base64') });
    expect(fits.status).toBe(201);
    expect((await fits.json()).size).toBe(LIMITS.resourceBytes);
    expect((await call('GET', '/resources?q=big')).status).toBe(200);
    expect((await (await call('GET', '/resources?q=big')).json()).items).toEqual([]);
  });
});

describe('page size', () => {
  it(`limit is capped at ${LIMITS.pageSizeMax}: above is a 400, the default is 50`, async () => {
    const creates = Array.from({ length: 60 }, (_, i) => call('POST', '/prompts', textPrompt(`page-${String(i).padStart(2, '0')}`)));
    expect((await Promise.all(creates)).every((r) => r.status === 201)).toBe(true);
    await problem(await call('GET', `/prompts?limit=${LIMITS.pageSizeMax + 1}`), 400);
    await problem(await call('GET', '/prompts?limit=0'), 400);
    await problem(await call('GET', '/prompts/greet/versions?limit=100000'), 400);
    await problem(await call('GET', '/resources?limit=-1'), 400);
    expect((await (await call('GET', '/prompts')).json()).items).toHaveLength(50);
    expect((await (await call('GET', `/prompts?limit=${LIMITS.pageSizeMax}`)).json()).items.length).toBeLessThanOrEqual(LIMITS.pageSizeMax);
  });
});

describe('version shape', () => {
  const msg = (i: number) => ({ role: 'user', content: { type: 'text', text: `m${i}` } });
  it(`more than ${LIMITS.argumentsPerVersion} arguments, ${LIMITS.messagesPerVersion} messages or ${LIMITS.choicesPerArgument} choices is a 422; at the limit it is stored`, async () => {
    const args = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `a${i}` }));
    const msgs = (n: number) => Array.from({ length: n }, (_, i) => msg(i));
    const tooMany = [
      { name: 'v1', arguments: args(LIMITS.argumentsPerVersion + 1), messages: msgs(1) },
      { name: 'v2', arguments: [], messages: msgs(LIMITS.messagesPerVersion + 1) },
      { name: 'v3', arguments: [{ name: 'c', choices: Array.from({ length: LIMITS.choicesPerArgument + 1 }, (_, i) => `c${i}`) }], messages: msgs(1) },
      { name: 'v4', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(LIMITS.textLength + 1) } }] },
      { name: 'v5'.repeat(LIMITS.nameLength), arguments: [], messages: msgs(1) },
    ];
    for (const body of tooMany) {
      const p = await problem(await call('POST', '/prompts', body), 422);
      expect(p.errors?.length).toBeGreaterThan(0);
    }
    const full = await call('POST', '/prompts', { name: 'full', arguments: args(LIMITS.argumentsPerVersion), messages: msgs(LIMITS.messagesPerVersion) });
    expect(full.status).toBe(201);
    const v = await (await call('GET', '/prompts/full/versions/1')).json();
    expect([v.arguments.length, v.messages.length]).toEqual([LIMITS.argumentsPerVersion, LIMITS.messagesPerVersion]);
  });
});
