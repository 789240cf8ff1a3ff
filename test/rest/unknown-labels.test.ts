// #37.4 over HTTP: a label that is named to be read, filtered, checked, promoted from or
// given to a token must exist (some prompt carries it, or it is production or latest);
// otherwise a 404 problem naming the labels that do. Promoting *to* a new label creates it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore, TEST_DB } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';

let core: Core;
let client: ReturnType<typeof makeClient>;
const call = (...a: Parameters<ReturnType<typeof makeClient>['call']>) => client.call(...a);

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
  expect((await call('POST', '/prompts', textPrompt('greet', 'v1 {{who}}', { activate: true }))).status).toBe(201);
  expect((await call('PUT', '/prompts/greet/labels/staging', { version: 1 })).status).toBe(200);
});
afterAll(() => core.close());

type Problem = { detail: string; errors?: { path: string; message: string }[] };
const notFound = async (res: Response, path = 'label'): Promise<Problem> => {
  expect(res.status, await res.clone().text()).toBe(404);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = (await res.json()) as Problem;
  expect(body.errors).toEqual([{ path, message: 'unknown; known: latest, production, staging' }]);
  return body;
};
const KNOWN = 'known labels: latest, production, staging';

describe(`unknown labels are 404 naming the known ones (${TEST_DB})`, () => {
  it('promote: an unknown `from` is 404 (was 200 {"changes":[]}); a new `to` is created', async () => {
    const res = await call('POST', '/labels/stagign/promote', { to: 'production' });
    expect((await notFound(res, 'from')).detail).toBe(`label "stagign" is not known; ${KNOWN}`);
    await notFound(await call('POST', '/labels/stagign/promote', { to: 'production', dryRun: true }), 'from');
    const created = await call('POST', '/labels/staging/promote', { to: 'canary' });
    expect(created.status).toBe(200);
    expect(await created.json()).toEqual({ changes: [{ prompt: 'greet', from: null, to: 1 }] });
    expect((await call('DELETE', '/prompts/greet/labels/canary')).status).toBe(204);
  });

  it('check: an unknown label (body or ?label=) is 404 (was 200 passed); production and latest always work', async () => {
    expect((await notFound(await call('POST', '/prompts/greet/versions/1/check', { label: 'nope' }))).detail).toBe(`label "nope" is not known; ${KNOWN}`);
    await notFound(await call('POST', '/prompts/greet/versions/1/check?label=nope'));
    for (const label of ['staging', 'production', 'latest']) expect((await call('POST', '/prompts/greet/versions/1/check', { label })).status, label).toBe(200);
  });

  it('GET /prompts?label=: unknown is 404, not an empty page; a known label lists', async () => {
    expect((await notFound(await call('GET', '/prompts?label=nope'))).detail).toBe(`label "nope" is not known; ${KNOWN}`);
    expect((await (await call('GET', '/prompts?label=staging')).json()).items.map((p: { name: string }) => p.name)).toEqual(['greet']);
    expect((await call('GET', '/prompts?label=latest')).status).toBe(200);
  });

  it('read API /v1/prompts/{name}?label=: unknown is 404 naming the known labels', async () => {
    const res = await client.app.request('/v1/prompts/greet?label=nope', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect((await notFound(res)).detail).toBe(`label "nope" is not known; ${KNOWN}`);
    const render = await client.app.request('/v1/prompts/greet/render?label=nope', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ arguments: { who: 'x' } }) });
    await notFound(render);
  });

  it('POST /tokens: an MCP token for an unknown label is 404 and no token is made; known labels work', async () => {
    expect((await notFound(await call('POST', '/tokens', { name: 'typo', kind: 'mcp', label: 'stagign' }))).detail).toBe(`label "stagign" is not known; ${KNOWN}`);
    expect((await (await call('GET', '/tokens')).json()).items.map((t: { name: string }) => t.name)).not.toContain('typo');
    expect((await call('POST', '/tokens', { name: 'staging-client', kind: 'mcp', label: 'staging' })).status).toBe(201);
    expect((await call('POST', '/tokens', { name: 'prod-client', kind: 'mcp' })).status).toBe(201);
  });
});
