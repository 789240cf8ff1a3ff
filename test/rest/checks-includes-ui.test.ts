// Checks and includes together over HTTP: /check renders a version's includes (under the
// label asked, falling back to production), and moving production on an included prompt
// runs the test cases of the served prompts that include it (409 naming them; force wins).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];

const ok = async <T = any>(res: Response, status = 200): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.json() as Promise<T>;
};
const text = (t: string) => ({ role: 'user', content: { type: 'text', text: t } });

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  ({ call } = makeClient(core));
  // style v1 (production) says "Be kind."; v2 (staging) says "Be brief.".
  await ok(await call('POST', '/prompts', { name: 'style', messages: [text('Be kind.')], activate: true }), 201);
  await ok(await call('POST', '/prompts/style/versions', { messages: [text('Be brief.')] }), 201);
  await ok(await call('PUT', '/prompts/style/labels/staging', { version: 2 }));
  // reply includes style twice (template and message) and expects the kind one.
  await ok(await call('POST', '/prompts', {
    name: 'reply',
    messages: [text('Reply. {{> style}}'), { role: 'user', content: { type: 'include', prompt: 'style' } }],
    tests: [{ name: 'kind', arguments: {}, expect: [{ contains: 'Be kind.' }, { notContains: 'brief' }] }],
    activate: true,
  }), 201);
});
afterAll(() => core.close());

describe('checks with includes', () => {
  it('/check renders includes under production by default and under the label asked', async () => {
    const prod = await ok(await call('POST', '/prompts/reply/versions/1/check', {}));
    expect(prod.passed).toBe(true);
    expect(prod.tests[0].text).toBe('Reply. Be kind.\n\nBe kind.');
    const staging = await ok(await call('POST', '/prompts/reply/versions/1/check?label=staging', {}));
    expect(staging.label).toBe('staging');
    expect(staging.passed).toBe(false);
    expect(staging.tests[0].text).toContain('Be brief.');
  });

  it('moving production of an included prompt runs the dependents\' test cases: 409, then an admin forces it', async () => {
    const refused = await call('PUT', '/prompts/style/labels/production', { version: 2 });
    expect(refused.status, await refused.clone().text()).toBe(409);
    const body = (await refused.json()) as { errors: { path: string; message: string }[] };
    expect(body.errors.length).toBeGreaterThan(0);
    expect(body.errors.map((e) => `${e.path} ${e.message}`).join('\n')).toMatch(/reply|kind/);
    expect((await ok(await call('GET', '/prompts/style/labels'))).items.find((l: { label: string }) => l.label === 'production').version).toBe(1);
    await ok(await call('PUT', '/prompts/style/labels/production', { version: 2, force: true }));
    expect((await ok(await call('GET', '/prompts/style/labels'))).items.find((l: { label: string }) => l.label === 'production').version).toBe(2);
  });
});
