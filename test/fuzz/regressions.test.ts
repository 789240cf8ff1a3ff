// Inputs the fuzzers found (or that are known to break such services), replayed
// deterministically on every run and on both databases.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { compileUriMatcher } from '../../src/core/uri-template.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';
import { checkRestResponse } from './invariants.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
  expect((await call('POST', '/prompts', textPrompt('p1'))).status).toBe(201);
  expect((await call('POST', '/resources', { uri: 'mem://a', name: 'a', mimeType: 'text/plain', text: 'A' })).status).toBe(201);
});
afterAll(() => core.close());

const expectClientError = async (res: Response, status: number, what: string) => {
  const clone = res.clone();
  expect(await checkRestResponse(res, 'GET'), what).toBeNull();
  expect(clone.status, `${what}: ${await clone.text()}`).toBe(status);
};

it('ids and version numbers beyond 32 bits are a 400/422, not a database error', async () => {
  // PostgreSQL's INT4 overflowed here (500) before the schemas capped ids.
  for (const path of ['/resources/99999999999', '/resource-templates/2147483648', '/prompts/p1/versions/99999999999']) {
    await expectClientError(await call('GET', path), 400, path);
  }
  await expectClientError(await call('PUT', '/prompts/p1/active', { version: 2 ** 31 }), 422, 'activate 2^31');
  await expectClientError(await call('POST', '/prompts/p1/render', { version: 99999999999, arguments: { who: 'x' } }), 422, 'render 1e11');
});

it('an If-Match holding a number no ETag can have is a 412, not an overflow', async () => {
  for (const etag of ['"99999999999999999999"', '"2147483648"', 'W/"1e3"']) {
    await expectClientError(await call('POST', '/prompts/p1/versions', { arguments: [{ name: 'who' }], messages: [{ role: 'user', content: { type: 'text', text: '{{who}}' } }] }, { 'if-match': etag }), 412, etag);
  }
});

it('NUL characters are refused by validation on every database (PostgreSQL text cannot hold them)', async () => {
  const nul = 'a\u0000b';
  await expectClientError(await call('POST', '/prompts', { ...textPrompt('p2'), title: nul }), 422, 'title');
  await expectClientError(await call('POST', '/prompts', textPrompt('p3', `Hi {{who}} ${nul}`)), 422, 'text');
  await expectClientError(await call('POST', '/resources', { uri: 'mem://n', name: 'n', mimeType: 'text/plain', text: nul }), 422, 'resource text');
  await expectClientError(await call('POST', '/resources', { uri: `mem://${nul}`, name: 'n', mimeType: 'text/plain', text: 'x' }), 422, 'resource uri');
  await expectClientError(await call('GET', '/prompts?q=%00'), 400, 'q');
  await expectClientError(await call('GET', '/resources?q=a%00'), 400, 'resources q');
  // Resolution (render, MCP resources/read) never sends such a URI to the database.
  expect(await core.resolver.resolve('mem://a\u0000')).toBeNull();
  expect((await call('GET', '/prompts/p1')).status).toBe(200);
});

it('a resource template whose reverse match would backtrack polynomially is refused', async () => {
  const slow = 'slow://{a}{b}{c}x';
  // What the refusal prevents: matching one 2 KB URI against it takes seconds (n^3).
  const t0 = performance.now();
  compileUriMatcher(slow).match(`slow://${'a'.repeat(400)}`);
  expect(performance.now() - t0).toBeGreaterThan(5);
  for (const uriTemplate of [slow, 'slow://{a}-{b}-{c}', 'slow://{+a}/{+b}/x', 'slow://{+a,b,c}']) {
    const res = await call('POST', '/resource-templates', { uriTemplate, name: 't', mimeType: 'text/plain', text: 'x' });
    expect(res.status, uriTemplate).toBe(422);
    expect((await res.json()).errors[0].path).toBe('uriTemplate');
  }
  for (const uriTemplate of ['ok://{owner}/{name}', 'ok://files/{+path}', 'ok://{name}.{ext}', 'ok://log{?from,to}', 'ok://{a}{/b,c}']) {
    expect((await call('POST', '/resource-templates', { uriTemplate, name: 't', mimeType: 'text/plain', text: 'x' })).status, uriTemplate).toBe(201);
  }
});

it('URIs longer than any stored one are not resolved (bounded matching work and cache memory)', async () => {
  expect((await call('POST', '/resource-templates', { uriTemplate: 'big://{+rest}', name: 'big', mimeType: 'text/plain', text: '{{rest}}' })).status).toBe(201);
  expect(await core.resolver.resolve(`big://${'a'.repeat(100)}`)).not.toBeNull();
  expect(await core.resolver.resolve(`big://${'a'.repeat(5_000)}`)).toBeNull();
});

it('forged, tampered and foreign cursors are a 400', async () => {
  const foreign = core.cursors.encode('admin-resources', 'mem://a');
  for (const cursor of ['abc.def', 'x', '.', `${foreign}x`, foreign, 'a'.repeat(3000), '%00']) {
    await expectClientError(await call('GET', `/prompts?cursor=${encodeURIComponent(cursor)}`), 400, cursor.slice(0, 40));
  }
});
