// The check gate and the check endpoint with includes: a check renders a version's
// includes under the label being checked (from the write's own transaction), and moving
// production on an included prompt runs the checks of the production prompts that
// include it, refused as a whole when one fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];

const status = async (res: Response, want: number) => {
  expect(res.status, await res.clone().text()).toBe(want);
  return res.json() as Promise<any>;
};
const text = (t: string) => ({ role: 'user', content: { type: 'text', text: t } });

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  ({ call } = makeClient(core));
  // house-style v1 "Be polite." is served; v2 "Be terse." is stored, not served.
  await status(await call('POST', '/prompts', { name: 'house-style', messages: [text('Be polite.')], activate: true }), 201);
  await status(await call('POST', '/prompts/house-style/versions', { messages: [text('Be terse.')] }), 201);
  // greet includes it and tests that the included style is polite.
  await status(await call('POST', '/prompts', {
    name: 'greet',
    arguments: [{ name: 'who', required: true }],
    messages: [text('Hello, {{who}}! {{> house-style}}')],
    tests: [{ name: 'polite', arguments: { who: 'Ada' }, expect: [{ contains: 'Hello, Ada! Be polite.' }] }],
    activate: true,
  }), 201);
});
afterAll(() => core.close());

describe('checks with includes', () => {
  it('the check endpoint renders includes under the label', async () => {
    const report = await status(await call('POST', '/prompts/greet/versions/1/check', {}), 200);
    expect(report.passed).toBe(true);
    expect(JSON.stringify(report.tests[0].output)).toContain('Hello, Ada! Be polite.');
  });

  it('moving production on an included prompt checks its production dependents: 409 naming them, nothing moves', async () => {
    const refused = await status(await call('PUT', '/prompts/house-style/labels/production', { version: 2 }), 409);
    expect(refused.errors.map((e: { path: string }) => e.path)).toEqual(['greet@1.tests[0]']);
    expect((await status(await call('GET', '/prompts/house-style'), 200)).activeVersion).toBe(1);
  });

  it('checks dependents transitively: welcome includes greet, which includes house-style', async () => {
    await status(await call('POST', '/prompts', {
      name: 'welcome',
      arguments: [{ name: 'who', required: true }],
      messages: [{ role: 'user', content: { type: 'include', prompt: 'greet' } }],
      tests: [{ name: 'still polite', arguments: { who: 'Bo' }, expect: [{ contains: 'Be polite.' }] }],
      activate: true,
    }), 201);
    const refused = await status(await call('PUT', '/prompts/house-style/labels/production', { version: 2 }), 409);
    expect(refused.errors.map((e: { path: string }) => e.path).sort()).toEqual(['greet@1.tests[0]', 'welcome@1.tests[0]']);
  });

  it('an admin may force it; the move is recorded as forced', async () => {
    const moved = await status(await call('PUT', '/prompts/house-style/labels/production', { version: 2, force: true }), 200);
    expect(moved.version).toBe(2);
    expect(moved.impact.dependents).toEqual(['greet']); // the direct includers
    const report = await status(await call('POST', '/prompts/greet/versions/1/check', {}), 200);
    expect(report.passed).toBe(false);
  });
});
