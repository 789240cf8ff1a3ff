import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeCore, type TestCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { assertConforms } from '../helpers/openapi.js';

let core: TestCore;
let client: ReturnType<typeof makeClient>;

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
});
afterAll(() => core.close());

const routes = async () => {
  const doc = await (await client.app.request('/admin/v1/openapi.json')).json();
  const out: { method: string; path: string }[] = [];
  for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(ops)) out.push({ method: method.toUpperCase(), path: p.replace('{name}', 'x').replace('{id}', '1').replace('{n}', '1') });
  }
  return out;
};

it('the OpenAPI 3.1 document is served and lists every route of the spec', async () => {
  const res = await client.app.request('/admin/v1/openapi.json');
  expect(res.status).toBe(200);
  const doc = await res.json();
  expect(doc.openapi).toBe('3.1.0');
  const all = (await routes()).map((r) => `${r.method} ${r.path}`);
  for (const r of ['GET /prompts', 'POST /prompts', 'GET /prompts/x', 'PATCH /prompts/x', 'DELETE /prompts/x', 'GET /prompts/x/versions', 'POST /prompts/x/versions',
    'GET /prompts/x/versions/1', 'PUT /prompts/x/active', 'DELETE /prompts/x/active', 'POST /prompts/x/render', 'GET /resources', 'POST /resources',
    'GET /resources/1', 'PUT /resources/1', 'DELETE /resources/1', 'GET /resource-templates', 'POST /resource-templates', 'GET /resource-templates/1',
    'PUT /resource-templates/1', 'DELETE /resource-templates/1', 'GET /events']) expect(all).toContain(r);
  expect((await client.app.request('/admin/v1/docs')).status).toBe(200);
});

it('every /admin/v1 route without a valid token is 401 problem+json', async () => {
  const list = await routes();
  expect(list.length).toBeGreaterThanOrEqual(22);
  for (const { method, path } of list) {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Basic ${TOKEN}` }] as Record<string, string>[]) {
      const res = await client.app.request(`/admin/v1${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }) });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
      await assertConforms(await client.openapi(), method, path, res);
    }
  }
});

it('stored tokens work until revoked, and revocation is immediate', async () => {
  const { token, info } = await core.tokens.create('ci');
  const raw = await core.db.prisma.apiToken.findUnique({ where: { id: info.id } });
  expect(raw!.hash).not.toContain(token);
  expect(raw!.hash).toHaveLength(64);
  const get = () => client.app.request('/admin/v1/prompts', { headers: { authorization: `Bearer ${token}` } });
  expect((await get()).status).toBe(200);
  await core.tokens.revoke(String(info.id));
  expect((await get()).status).toBe(401);
});
