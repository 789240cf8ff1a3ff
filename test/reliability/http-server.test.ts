// Requests over a real socket to the listening server (startServer, as `promptd
// serve`), in the shapes app.request() never produces: no Content-Length on DELETE
// and OPTIONS, chunked bodies below and above the limit.
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
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
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: { authorization: `Bearer ${TOKEN}`, ...headers } }, (res) => {
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
