// #37.13, the HTTP parts: problem details say each thing once, one error per bad field,
// and the admin UI's SPA fallback does not answer for missing assets.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';

let core: Core;
let client: ReturnType<typeof makeClient>;

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
  expect((await client.call('POST', '/prompts', textPrompt('greet', 'v1 {{who}}', { activate: true }))).status).toBe(201);
});
afterAll(() => core.close());

type Problem = { detail: string; errors?: { path: string; message: string }[] };
const problem = async (res: Response, status: number): Promise<Problem> => {
  expect(res.status, await res.clone().text()).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return res.json() as Promise<Problem>;
};
const LABEL_RULE = 'a label is 1 to 36 lowercase letters, digits and "-", starting with a letter or digit';

describe('problem details', () => {
  it('an invalid label in the path is named once, with its value (not "invalid label: label: …")', async () => {
    const put = await problem(await client.call('PUT', '/prompts/greet/labels/Bad_Name', { version: 1 }), 422);
    expect(put.detail).toBe(`invalid label "Bad_Name": ${LABEL_RULE}`);
    expect(put.errors).toEqual([{ path: 'label', message: LABEL_RULE }]);
    const promote = await problem(await client.call('POST', '/labels/Bad_Name/promote', { to: 'production' }), 422);
    expect(promote.detail).toBe(`invalid label "Bad_Name": ${LABEL_RULE}`);
    expect(promote.errors).toEqual([{ path: 'from', message: LABEL_RULE }]);
    const name = await problem(await client.call('GET', '/prompts/Bad%20Name'), 422);
    expect(name.detail).toMatch(/^invalid prompt name "Bad Name": /);
    expect(name.detail).not.toMatch(/name: /);
  });

  it('one bad version number is one error, in the path, the query and the body', async () => {
    for (const v of ['1e99', '99999999999999999999']) {
      const path = await problem(await client.call('GET', `/prompts/greet/versions/${v}`), 400);
      expect(path.errors).toEqual([{ path: 'n', message: 'Too big: expected number to be <=2147483647' }]);
      const query = await problem(await client.app.request(`/v1/prompts/greet?version=${v}`, { headers: { authorization: `Bearer ${TOKEN}` } }), 400);
      expect(query.errors).toEqual([{ path: 'query.version', message: 'Too big: expected number to be <=2147483647' }]);
    }
    const body = await problem(await client.call('PUT', '/prompts/greet/labels/staging', { version: 1e99 }), 422);
    expect(body.errors).toEqual([{ path: 'version', message: 'Too big: expected number to be <=2147483647' }]);
    expect(body.detail).toBe('the request body is invalid: version: Too big: expected number to be <=2147483647');
    // Other bad versions were one error already, and stay so.
    expect((await problem(await client.call('GET', '/prompts/greet/versions/0'), 400)).errors).toHaveLength(1);
    expect((await problem(await client.call('GET', '/prompts/greet/versions/1.5'), 400)).errors).toHaveLength(1);
  });
});

describe('the admin UI', () => {
  it('a missing file under /admin/assets/ is a 404, not index.html; UI routes still get index.html', async () => {
    for (const p of ['/admin/assets/nope.js', '/admin/assets/nope.css', '/admin/assets/', '/admin/assets/deep/nope.js']) {
      const res = await client.app.request(p);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type'), p).toContain('application/problem+json');
    }
    const asset = readdirSync(path.join(projectRoot, 'admin', 'dist', 'assets')).find((f) => f.endsWith('.js'))!;
    const served = await client.app.request(`/admin/assets/${asset}`);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'text/javascript']);
    const page = await client.app.request('/admin/prompts/greet');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});
