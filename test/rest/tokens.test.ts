// /admin/v1/tokens: create (the token shown once), list with last use, revoke; every
// response checked strictly against the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { assertConforms } from '../helpers/openapi.js';

let core: Core;
let client: ReturnType<typeof makeClient>;

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
});
afterAll(() => core.close());

/** A call made with `token` instead of the env admin token, checked against the document. */
async function callAs(token: string, method: string, path: string, body?: unknown) {
  const res = await client.app.request(`/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await assertConforms(await client.openapi(), method, path, res);
  return res;
}

describe('/admin/v1/tokens', () => {
  it('issue 37.14: the list says whether /mcp admits anonymous clients (mcpAnonymous), which the first MCP token ends', async () => {
    const anonymous = async () => ((await (await client.call('GET', '/tokens')).json()) as { mcpAnonymous: boolean }).mcpAnonymous;
    expect(await anonymous()).toBe(true);
    // An admin token changes nothing for /mcp.
    expect((await client.call('POST', '/tokens', { name: 'not-mcp', role: 'reader' })).status).toBe(201);
    expect(await anonymous()).toBe(true);
    const created = await (await client.call('POST', '/tokens', { name: 'first-mcp', kind: 'mcp' })).json();
    expect(await anonymous()).toBe(false);
    expect((await client.call('DELETE', `/tokens/${created.id}`)).status).toBe(200);
    expect(await anonymous()).toBe(true);
  });

  it('creates a token shown once, lists it with its last use, revokes it at once', async () => {
    let res = await client.call('POST', '/tokens', { name: 'ci bot' });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(res.headers.get('location')).toBe(`/admin/v1/tokens/${created.id}`);
    expect(created).toMatchObject({ name: 'ci bot', lastUsedAt: null, revokedAt: null, current: false });
    expect(created.token).toMatch(/^pd_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.token.slice(0, 10));

    // The new token works, is marked as the caller's own, and its use is recorded.
    res = await callAs(created.token, 'GET', '/tokens');
    expect(res.status).toBe(200);
    const own = (await res.json()).items.find((t: { id: number }) => t.id === created.id);
    expect(own.current).toBe(true);
    await core.tokens.idle();
    const listed = await (await client.call('GET', '/tokens')).json();
    const row = listed.items.find((t: { id: number }) => t.id === created.id);
    expect(row).toMatchObject({ name: 'ci bot', prefix: created.prefix, current: false, revokedAt: null });
    expect(Date.parse(row.lastUsedAt)).not.toBeNaN();
    // Never the token nor its hash.
    const text = JSON.stringify(listed);
    expect(text).not.toContain(created.token);
    expect(text).not.toMatch(/hash|[0-9a-f]{64}/);

    // What it does is logged under its name.
    await callAs(created.token, 'POST', '/tokens', { name: 'made by ci' });
    const log = await core.feed.since(0);
    expect(log.find((e) => e.action === 'token.created' && e.details?.name === 'made by ci')?.actor).toBe(`token:ci bot#${created.id}`);

    // Revoking yourself is allowed; the next request is refused.
    res = await callAs(created.token, 'DELETE', `/tokens/${created.id}`);
    expect(res.status).toBe(200);
    const revoked = await res.json();
    expect(revoked).toMatchObject({ id: created.id, current: true });
    expect(Date.parse(revoked.revokedAt)).not.toBeNaN();
    expect((await callAs(created.token, 'GET', '/tokens')).status).toBe(401);
    expect(log.length).toBeLessThan((await core.feed.since(0)).length);
    const last = (await core.feed.since(0)).at(-1)!;
    expect(last).toMatchObject({ action: 'token.revoked', actor: `token:ci bot#${created.id}`, entityKey: String(created.id) });
  });

  it('problem+json for a taken or invalid name, an unknown or revoked token, a bad id', async () => {
    await client.call('POST', '/tokens', { name: 'taken' });
    let res = await client.call('POST', '/tokens', { name: 'taken' });
    expect(res.status).toBe(409);
    expect((await res.json()).errors).toEqual([{ path: 'name', message: 'already exists' }]);
    for (const body of [{ name: '' }, { name: ' padded' }, { name: 'a\u0007b' }, { name: 'x'.repeat(200) }, {}, { name: 'ok', role: 'owner' }, { name: 'ok', extra: 1 }]) {
      res = await client.call('POST', '/tokens', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      const paths = (await res.json()).errors.map((e: { path: string }) => e.path);
      expect(paths, JSON.stringify(body)).toContain('role' in body ? 'role' : 'extra' in body ? '(body)' : 'name');
    }
    expect((await client.call('DELETE', '/tokens/999999')).status).toBe(404);
    expect((await client.call('DELETE', '/tokens/abc')).status).toBe(400);
    expect((await client.call('DELETE', '/tokens/0')).status).toBe(400);
    const id = (await (await client.call('POST', '/tokens', { name: 'twice' })).json()).id;
    expect((await client.call('DELETE', `/tokens/${id}`)).status).toBe(200);
    res = await client.call('DELETE', `/tokens/${id}`);
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toContain('already revoked');
    expect((await client.app.request('/admin/v1/tokens')).status).toBe(401);
  });

  it('the routes are in the OpenAPI document', async () => {
    const doc = await client.openapi();
    expect(Object.keys(doc.paths['/tokens']!)).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/tokens/{id}']!)).toEqual(['patch', 'delete']);
    expect(Object.keys((doc.components.schemas.Token as { properties: object }).properties)).not.toContain('hash');
  });
});
