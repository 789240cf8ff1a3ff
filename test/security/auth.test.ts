// Auth on a listening server (startServer, as `promptd serve`), beyond what
// test/rest/auth.test.ts covers (no/wrong/Basic token on every OpenAPI route):
// revoked and odd tokens on every route, no query token anywhere, tokens
// never stored in clear, CLI revocation taking effect at once in a running server,
// the optional /mcp token, DNS-rebinding protection, and no CORS.
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { TEST_DB, tempDbUrl } from '../helpers/db.js';
import { runPromptd } from '../helpers/spawn.js';

const ADMIN = 'env-admin-token-for-auth-tests';
const MCP = 'mcp-token-for-auth-tests';
let srv: RunningServer;
let dbUrl: string;
let port: number;

beforeAll(async () => {
  dbUrl = await tempDbUrl();
  srv = await startServer({ databaseUrl: dbUrl, port: 0, seed: false, adminToken: ADMIN, mcpToken: MCP, logger: createLogger('silent') });
  port = Number(new URL(srv.url).port);
});
afterAll(() => srv?.close());

async function routes(): Promise<{ method: string; path: string }[]> {
  const doc = await (await fetch(`${srv.url}/admin/v1/openapi.json`)).json();
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
    Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: p.replace('{name}', 'x').replace('{id}', '1').replace('{n}', '1') })),
  );
}

const call = (method: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${srv.url}/admin/v1${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }) });

/** A raw request, so that Host can be anything. */
function raw(path: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

it('revoked, overlong, non-Bearer and query-string tokens are refused on every route; no route takes a query token', async () => {
  const { token, info } = await srv.core.tokens.create('soon-revoked');
  await srv.core.tokens.revoke(String(info.id));
  const list = await routes();
  expect(list.length).toBeGreaterThanOrEqual(22);
  const bad: Record<string, string>[] = [
    { authorization: `Bearer ${token}` },
    { authorization: `Bearer ${'a'.repeat(600)}` },
    { authorization: `Bearer ${ADMIN} ` + 'x' },
    { authorization: `Token ${ADMIN}` },
    { authorization: ADMIN },
    { 'x-api-key': ADMIN },
  ];
  for (const { method, path } of list) {
    for (const headers of bad) {
      const res = await call(method, path, headers);
      expect(res.status, `${method} ${path} ${JSON.stringify(headers).slice(0, 60)}`).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      await res.body?.cancel();
    }
    const res = await call(method, `${path}?access_token=${ADMIN}`);
    expect(res.status, `${method} ${path}?access_token`).toBe(401);
    await res.body?.cancel();
  }
  // No route takes a token in the URL (the event stream takes a single-use ticket: test/security/events-streams.test.ts).
  for (const t of [ADMIN, token]) expect((await fetch(`${srv.url}/admin/v1/events?access_token=${t}`)).status).toBe(401);
});

it('tokens are stored only as SHA-256 hashes: neither the table nor the database file holds one in clear', async () => {
  const { token } = await srv.core.tokens.create('stored');
  const rows = await srv.store.db.prisma.apiToken.findMany();
  const { createHash } = await import('node:crypto');
  expect(rows.some((r) => r.hash === createHash('sha256').update(token).digest('hex'))).toBe(true);
  expect(JSON.stringify(rows)).not.toContain(token);
  expect(JSON.stringify(rows)).not.toContain(ADMIN);
  expect(JSON.stringify(await srv.store.db.prisma.changeEvent.findMany())).not.toContain(token.slice(10));
  if (TEST_DB === 'sqlite') {
    const file = fileURLToPath(dbUrl.replace(/^file:/, 'file://'));
    const bytes = Buffer.concat([file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f)));
    expect(bytes.includes(Buffer.from(token.slice(10)))).toBe(false);
    expect(bytes.includes(Buffer.from(ADMIN))).toBe(false);
  }
});

it('a token revoked by `promptd token revoke` in another process is refused by the running server at once', async () => {
  const created = runPromptd(['--database-url', dbUrl, 'token', 'create', 'cli-made']);
  expect(await created.exited, created.stderr()).toBe(0);
  const token = created.stdout().trim();
  const get = () => fetch(`${srv.url}/admin/v1/prompts`, { headers: { authorization: `Bearer ${token}` } });
  expect((await get()).status).toBe(200);
  const revoked = runPromptd(['--database-url', dbUrl, 'token', 'revoke', token.slice(0, 10)]);
  expect(await revoked.exited, revoked.stderr()).toBe(0);
  expect((await get()).status).toBe(401);
});

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'auth', version: '1' } } });
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

it('/mcp requires the MCP token when one is configured; the admin token is not an MCP token, nor the reverse', async () => {
  const post = (headers: Record<string, string>) => fetch(`${srv.url}/mcp`, { method: 'POST', headers: { ...mcpHeaders, ...headers }, body: initialize });
  for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${ADMIN}` }, { authorization: `Basic ${MCP}` }] as Record<string, string>[]) {
    const res = await post(headers);
    expect(res.status, JSON.stringify(headers)).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    expect((await res.json()).error.code).toBeTypeOf('number');
  }
  const ok = await post({ authorization: `Bearer ${MCP}` });
  expect(ok.status).toBe(200);
  await ok.text();
  expect((await fetch(`${srv.url}/admin/v1/prompts`, { headers: { authorization: `Bearer ${MCP}` } })).status).toBe(401);
});

it('DNS rebinding: on a loopback-bound server a foreign Host or Origin is refused before anything else', async () => {
  const auth = { authorization: `Bearer ${MCP}` };
  for (const headers of [{ host: 'evil.example.com' }, { host: `evil.example.com:${port}` }, { host: `localhost:${port}`, origin: 'http://evil.example.com' }, { host: `127.0.0.1:${port}`, origin: 'null' }] as Record<string, string>[]) {
    const res = await raw('/mcp', 'POST', { ...mcpHeaders, ...auth, ...headers }, initialize);
    expect(res.status, JSON.stringify(headers)).toBe(403);
    expect(JSON.parse(res.body).error).toBeDefined();
  }
  for (const headers of [{ host: `localhost:${port}` }, { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` }] as Record<string, string>[]) {
    const res = await raw('/mcp', 'POST', { ...mcpHeaders, ...auth, ...headers }, initialize);
    expect(res.status, JSON.stringify(headers)).toBe(200);
  }
});

it('no CORS: a cross-origin preflight or request gets no Access-Control-Allow-Origin, on the admin API and on /mcp', async () => {
  const origin = 'https://evil.example.com';
  for (const path of ['/admin/v1/prompts', '/admin/v1/openapi.json', '/mcp', '/healthz']) {
    const pre = await raw(path, 'OPTIONS', { host: `127.0.0.1:${port}`, origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' });
    expect(pre.headers['access-control-allow-origin'], `preflight ${path}`).toBeUndefined();
    expect(pre.headers['access-control-allow-headers'], `preflight ${path}`).toBeUndefined();
    const get = await raw(path, 'GET', { host: `127.0.0.1:${port}`, origin, authorization: `Bearer ${ADMIN}` });
    expect(get.headers['access-control-allow-origin'], `GET ${path}`).toBeUndefined();
    expect(get.headers['access-control-allow-credentials'], `GET ${path}`).toBeUndefined();
  }
});
