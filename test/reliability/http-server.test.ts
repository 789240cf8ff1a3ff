// Requests over a real socket to the listening server (startServer, as `promptd
// serve`), in the shapes app.request() never produces: no Content-Length on DELETE
// and OPTIONS, chunked bodies below and above the limit.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { ADMIN_BODY_LIMIT } from '../../src/rest/admin-api.js';
import { tempDbUrl } from '../helpers/db.js';

const TOKEN = 'socket-token';
let srv: RunningServer;
let port: number;

beforeAll(async () => {
  srv = await startServer({ databaseUrl: await tempDbUrl(), port: 0, seed: false, adminToken: TOKEN, logger: createLogger('silent') });
  port = Number(new URL(srv.url).port);
});
afterAll(() => srv?.close());

/** Writes `chunks` with Transfer-Encoding: chunked unless a content-length header is given. */
function send(method: string, path: string, chunks: (string | Buffer)[] = [], headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, agent: false, headers: { authorization: `Bearer ${TOKEN}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

const json = { 'content-type': 'application/json' };
const prompt = (name: string) => JSON.stringify({ name, arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] });

it('DELETE and OPTIONS without Content-Length are answered, not a 500', async () => {
  for (const [method, path] of [['DELETE', '/admin/v1/prompts/nope'], ['DELETE', '/admin/v1/resources/1'], ['OPTIONS', '/admin/v1/prompts'], ['OPTIONS', '/admin/v1/docs/assets/']]) {
    const res = await send(method!, path!);
    expect(res.status, `${method} ${path}: ${res.body}`).toBe(404);
    expect(res.type).toContain('application/problem+json');
  }
});

it('a chunked JSON body is read and validated like any other', async () => {
  const body = prompt('chunked');
  const res = await send('POST', '/admin/v1/prompts', [body.slice(0, 10), body.slice(10)], json);
  expect(res.status, res.body).toBe(201);
  const bad = await send('POST', '/admin/v1/prompts', ['{"name":', '"x"}'], json);
  expect(bad.status).toBe(422);
  expect((await fetch(`${srv.url}/admin/v1/prompts/chunked`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
});

it('a chunked body over the limit is a 413 problem+json and nothing is written', async () => {
  const mib = Buffer.alloc(1024 * 1024, 0x61);
  const chunks = [`{"name":"huge","description":"`, ...Array.from({ length: ADMIN_BODY_LIMIT / mib.length + 1 }, () => mib), '"}'];
  const res = await send('POST', '/admin/v1/prompts', chunks, json);
  expect(res.status).toBe(413);
  expect(res.type).toContain('application/problem+json');
  expect((await fetch(`${srv.url}/admin/v1/prompts/huge`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  expect((await fetch(`${srv.url}/readyz`)).status).toBe(200);
});

// The MCP endpoint reads POST bodies of existing sessions straight from the socket
// (src/mcp/http.ts readJsonBody); these shapes only exist on a real connection.
describe('MCP POST bodies on a real socket', () => {
  const accept = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let sid = '';
  const mcp = (chunks: (string | Buffer)[], headers: Record<string, string> = {}) => send('POST', '/mcp', chunks, { ...accept, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18', ...headers });
  /** The JSON-RPC message of a JSON or one-event SSE answer. */
  const answer = (body: string) => JSON.parse(body.startsWith('event:') ? body.split('\n').find((l) => l.startsWith('data: '))!.slice(6) : body);

  beforeAll(async () => {
    await send('POST', '/admin/v1/prompts', [JSON.stringify({ name: 'greet', arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Hello {{who}}' } }] })], json);
    await send('PUT', '/admin/v1/prompts/greet/active', [JSON.stringify({ version: 1 })], json);
    const init = await new Promise<string>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent: false, headers: accept }, (res) => {
        res.resume();
        resolve(String(res.headers['mcp-session-id']));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));
    });
    sid = init;
    await mcp([JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })]);
  });

  const get = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Ada' } } });

  it('answers a body split over several chunks, with and without Content-Length', async () => {
    const body = get(1);
    const chunked = await mcp([body.slice(0, 7), body.slice(7, 30), body.slice(30)]);
    expect(chunked.status, chunked.body).toBe(200);
    expect(answer(chunked.body).result.messages[0].content.text).toBe('Hello Ada');
    const sized = await mcp([body.slice(0, 20), body.slice(20)], { 'content-length': String(Buffer.byteLength(body)) });
    expect(answer(sized.body).result.messages[0].content.text).toBe('Hello Ada');
  });

  it('answers a batch and multi-byte text', async () => {
    const res = await mcp([`[${get(2)},${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Zoë 🦉' } } })}]`]);
    expect(res.status, res.body).toBe(200);
    expect(res.body).toContain('Hello Zoë 🦉');
  });

  it('invalid JSON is a 400 parse error, and the session still works', async () => {
    const res = await mcp(['{"jsonrpc":"2.0",', '"id":4,']);
    expect(res.status).toBe(400);
    expect(answer(res.body).error.code).toBe(-32700);
    const ok = await mcp([get(5)]);
    expect(answer(ok.body).result.messages[0].content.text).toBe('Hello Ada');
  });

  it('a chunked body over 4 MiB is a 413, a declared one too, and the session still works', async () => {
    const mib = Buffer.alloc(1024 * 1024, 0x61);
    const res = await mcp([`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"x":"`, mib, mib, mib, mib, mib, '"}}']);
    expect(res.status).toBe(413);
    expect(answer(res.body).error.code).toBe(-32000);
    const declared = await mcp(['{}'], { 'content-length': String(5 * 1024 * 1024) }).catch(() => ({ status: 413, body: '' }));
    expect(declared.status).toBe(413);
    const ok = await mcp([get(7)]);
    expect(answer(ok.body).result.messages[0].content.text).toBe('Hello Ada');
  });

  it('a body that is not JSON by its Content-Type is refused by the transport (415)', async () => {
    const res = await mcp([get(8)], { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
  });
});
