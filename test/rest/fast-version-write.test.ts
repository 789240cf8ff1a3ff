// The version-write fast path (src/rest/fast-version-write.ts) answers exactly as the
// Hono route does. Two real servers over HTTP, each on its own fresh database, one with
// the fast path and one without, get the same requests in the same order (so both
// databases hold the same history); every answer must match in status, headers (but
// Date) and body (timestamps aside), and the fast server must really have answered
// the cases it is for itself. Metrics count both alike.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { CreatePromptInputSchema } from '../../src/core/schemas.js';
import { ProblemSchema } from '../../src/rest/schemas.js';
import { tempDbUrl } from '../helpers/db.js';

const ADMIN = 'fast-write-admin-token';
type Side = { srv: RunningServer; reader: string; limited: string };
let fast: Side;
let slow: Side;

async function side(restFastPath: boolean): Promise<Side> {
  const srv = await startServer({
    databaseUrl: await tempDbUrl(), port: 0, seed: false, adminToken: ADMIN, logger: createLogger('silent'), rateLimits: true, restFastPath, metricsOpen: true,
  });
  const actor = { name: 'fast-write-test' };
  await srv.core.prompts.create(
    CreatePromptInputSchema.parse({ name: 'fw', arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Hello {{who}}' } }], activate: true }),
    actor,
  );
  const reader = (await srv.core.tokens.create('fw-reader', 'test', { kind: 'admin', role: 'reader' })).token;
  const limited = (await srv.core.tokens.create('fw-limited', 'test', { kind: 'admin', role: 'editor', writeRatePerMinute: 2 })).token;
  return { srv, reader, limited };
}

beforeAll(async () => {
  [fast, slow] = await Promise.all([side(true), side(false)]);
  expect(slow.srv.fastVersionWrites).toBeUndefined();
}, 120_000);
afterAll(async () => {
  await Promise.all([fast?.srv.close(), slow?.srv.close()]);
});

const version = (text: string, extra: Record<string, unknown> = {}) => ({ arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text } }], ...extra });
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

interface Req { path?: string; headers?: (s: Side) => Record<string, string>; body: unknown }
const admin = (s: Side) => ({ authorization: `Bearer ${ADMIN}` });

async function send(s: Side, r: Req) {
  const url = s.srv.url;
  const headers = { 'content-type': 'application/json', ...(r.headers ?? admin)(s) };
  const res = await fetch(`${url}${r.path ?? '/admin/v1/prompts/fw/versions'}`, { method: 'POST', headers, body: typeof r.body === 'string' ? r.body : JSON.stringify(r.body) });
  const text = await res.text();
  const h: Record<string, string> = {};
  res.headers.forEach((v, k) => void (k !== 'date' && (h[k] = v)));
  return { status: res.status, headers: h, body: text.replace(ISO, '<time>') };
}

/** Sends `r` to both servers; the answers must be the same. Returns the fast one and whether the fast path answered it. */
async function both(r: Req) {
  const before = { ...fast.srv.fastVersionWrites! };
  const a = await send(fast, r);
  const b = await send(slow, r);
  expect(a).toEqual(b);
  const after = fast.srv.fastVersionWrites!;
  return { ...a, answered: after.answered - before.answered, handedOn: after.handedOn - before.handedOn };
}

describe('POST /admin/v1/prompts/{name}/versions below Hono', () => {
  it('answers a created version exactly as the route does, with its warnings, ETag, Location and security headers', async () => {
    const r = await both({ body: version('Hi {{who}}', { arguments: [{ name: 'who', required: true }, { name: 'unused', required: true }] }) });
    expect(r.status).toBe(201);
    expect(r.answered).toBe(1);
    expect(r.headers['content-security-policy']).toContain("default-src 'self'");
    expect(r.headers.location).toBe('/admin/v1/prompts/fw/versions/2');
    expect(JSON.parse(r.body).warnings.length).toBeGreaterThan(0);
  });

  it('a version with every kind of content: media data, annotations, a resource link', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
    const r = await both({
      body: {
        title: 'media', description: 'd', note: 'n', icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png', sizes: ['48x48'] }],
        arguments: [{ name: 'who', required: true }, { name: 'n', type: 'number', default: 3 }],
        messages: [
          { role: 'user', content: { type: 'text', text: 'Hi {{who}} {{n}}', annotations: { audience: ['user'], priority: 0.5 } } },
          { role: 'user', content: { type: 'image', data: png, mimeType: 'image/png' } },
          { role: 'assistant', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
        ],
      },
    });
    expect([r.status, r.answered]).toEqual([201, 1]);
    expect(r.body).toContain(png);
  });

  it('with a current If-Match, and a stale one (412 from the write)', async () => {
    const etag = (await fetch(`${fast.srv.url}/admin/v1/prompts/fw`, { headers: admin(fast) })).headers.get('etag')!;
    expect((await fetch(`${slow.srv.url}/admin/v1/prompts/fw`, { headers: admin(slow) })).headers.get('etag')).toBe(etag);
    const ok = await both({ headers: (s) => ({ ...admin(s), 'if-match': etag }), body: version('Hey {{who}}') });
    expect([ok.status, ok.answered]).toEqual([201, 1]);
    const stale = await both({ headers: (s) => ({ ...admin(s), 'if-match': etag }), body: version('Yo {{who}}') });
    expect([stale.status, stale.answered]).toEqual([412, 1]);
    ProblemSchema.parse(JSON.parse(stale.body));
  });

  it('domain errors of the write: unknown prompt (404), an undeclared variable (422)', async () => {
    const missing = await both({ path: '/admin/v1/prompts/no-such/versions', body: version('x {{who}}') });
    expect([missing.status, missing.answered]).toEqual([404, 1]);
    const undeclared = await both({ body: version('x {{who}} {{nope}}') });
    expect([undeclared.status, undeclared.answered]).toEqual([422, 1]);
    expect(ProblemSchema.parse(JSON.parse(undeclared.body)).errors?.length).toBeGreaterThan(0);
  });

  it('hands every refusal of the route to the app: bad JSON, an invalid body, a bad name, a bad token, a reader', async () => {
    const cases: [Req, number][] = [
      [{ body: '{"messages": [' }, 400],
      [{ body: { messages: 'no' } }, 422],
      [{ path: '/admin/v1/prompts/Bad Name!/versions'.replace(/ /g, '_'), body: version('x {{who}}') }, 422],
      [{ headers: () => ({ authorization: 'Bearer wrong' }), body: version('x {{who}}') }, 401],
      [{ headers: (s) => ({ authorization: `Bearer ${s.reader}` }), body: version('x {{who}}') }, 403],
      [{ headers: (s) => ({ ...admin(s), 'if-match': 'x'.repeat(101) }), body: version('x {{who}}') }, 400],
    ];
    for (const [r, status] of cases) {
      const a = await both(r);
      expect(a.status, JSON.stringify(r.body)).toBe(status);
      expect(a.answered).toBe(0);
    }
  });

  it('a token over its write rate gets the same 429 (counted once per request)', async () => {
    const r = { headers: (s: Side) => ({ authorization: `Bearer ${s.limited}` }), body: version('r {{who}}') };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await both(r)).status);
    expect(statuses.slice(0, 2)).toEqual([201, 201]);
    expect(statuses.slice(2)).toEqual([429, 429]);
  });

  it('a client that leaves in the middle of its body writes nothing, and the server goes on', async () => {
    const before = { ...fast.srv.fastVersionWrites! };
    const { port } = new URL(fast.srv.url);
    await new Promise<void>((resolve, reject) => {
      const sock = connect(Number(port), '127.0.0.1', () => {
        sock.write(`POST /admin/v1/prompts/fw/versions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${ADMIN}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"messages": [`);
        setImmediate(() => sock.destroy());
      });
      sock.once('close', () => resolve());
      sock.once('error', reject);
    });
    const r = await both({ body: version('after {{who}}') });
    expect([r.status, r.answered]).toEqual([201, 1]);
    expect(fast.srv.fastVersionWrites!.handedOn).toBe(before.handedOn);
  });

  it('the same history on both databases, and the same request counts in the metrics', async () => {
    const versions = async (s: Side) => (await (await fetch(`${s.srv.url}/admin/v1/prompts/fw/versions`, { headers: admin(s) })).text()).replace(ISO, '<time>');
    expect(await versions(fast)).toBe(await versions(slow));
    const counts = async (s: Side) =>
      (await (await fetch(`${s.srv.url}/metrics`)).text()).split('\n').filter((l) => l.startsWith('promptd_http_requests_total{method="POST"') && (l.includes('/versions') || l.includes('/admin/v1/*'))).sort();
    const a = await counts(fast);
    expect(a.length).toBeGreaterThan(0);
    expect(a).toEqual(await counts(slow));
  });
});
