// Test cases and checks over HTTP (app.request, every response parsed strictly against
// the OpenAPI document): tests stored with the version, the check endpoint, the gate on
// the protected production label (409 listing failures, admin force recorded in the
// change log), promotion refused as a whole, activate / create-with-activate gated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];

type Problem = { detail: string; errors?: { path: string; message: string }[] };
const problem = async (res: Response, status: number): Promise<Problem> => {
  expect(res.status, await res.clone().text()).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return res.json() as Promise<Problem>;
};
const ok = async <T = any>(res: Response, status = 200): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.json() as Promise<T>;
};

const version = (text: string, tests: unknown[], extra: Record<string, unknown> = {}) => ({
  arguments: [{ name: 'who', required: true }],
  messages: [{ role: 'user', content: { type: 'text', text } }],
  tests,
  ...extra,
});
const greets = { name: 'greets Ada', arguments: { who: 'Ada' }, expect: [{ contains: 'Hello, Ada' }, { matches: '^Hello, \\w+!$' }, { maxChars: 40 }] };

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  ({ call } = makeClient(core));
  // greet: v1 passes and is served; v2 fails its own test case.
  await ok(await call('POST', '/prompts', { name: 'greet', ...version('Hello, {{who}}!', [greets]), activate: true }), 201);
  await ok(await call('POST', '/prompts/greet/versions', version('Bye, {{who}}.', [greets])), 201);
  // other: v1 served, v2 passes (no test cases at all).
  await ok(await call('POST', '/prompts', { name: 'other', ...version('Hi {{who}}', []), activate: true }), 201);
  await ok(await call('POST', '/prompts/other/versions', version('Hey {{who}}', [])), 201);
});
afterAll(() => core.close());

describe('test cases are stored with the version', () => {
  it('returns them on the Version (and [] when none)', async () => {
    const v1 = await ok(await call('GET', '/prompts/greet/versions/1'));
    expect(v1.tests).toEqual([greets]);
    expect((await ok(await call('GET', '/prompts/other/versions/1'))).tests).toEqual([]);
    const detail = await ok(await call('GET', '/prompts/greet'));
    expect(detail.latest.tests).toEqual([greets]);
  });

  it('refuses a catastrophic or invalid pattern and an undeclared argument at write time (422 naming the field)', async () => {
    const bad = await problem(await call('POST', '/prompts/greet/versions', version('Hello, {{who}}!', [
      { name: 'x', arguments: { who: 'a', nope: 'b' }, expect: [{ contains: 'a' }, { matches: '(a)\\1' }] },
    ])), 422);
    expect(bad.errors).toEqual(expect.arrayContaining([
      { path: 'tests[0].expect[1].matches', message: expect.stringMatching(/backreferences .* RE2/) },
      { path: 'tests[0].arguments.nope', message: expect.stringMatching(/not a declared argument/) },
    ]));
    const lookaround = await problem(await call('POST', '/prompts/greet/versions', version('x {{who}}', [{ name: 'x', arguments: {}, expect: [{ matches: 'a(?=b)' }] }])), 422);
    expect(lookaround.errors?.[0]?.path).toBe('tests[0].expect[0].matches');
    // A refused version takes no number: greet still has two.
    expect((await ok(await call('GET', '/prompts/greet'))).latestVersion).toBe(2);
  });
});

describe('POST /prompts/{name}/versions/{n}/check', () => {
  it('passes a passing version, with each test case\'s rendered output', async () => {
    const r = await ok(await call('POST', '/prompts/greet/versions/1/check'));
    expect(r).toMatchObject({ prompt: 'greet', version: 1, label: 'production', passed: true, lint: { errors: [], warnings: [] } });
    expect(r.tests).toEqual([{
      name: 'greets Ada', arguments: { who: 'Ada' }, passed: true, error: null, text: 'Hello, Ada!',
      output: { messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }] },
      expectations: greets.expect.map((expectation) => ({ expectation, passed: true, message: null })),
    }]);
  });

  it('reports a failing version as 200 passed:false with the failing expectations', async () => {
    // A check names a label that exists (an unknown one is 404: test/rest/unknown-labels.test.ts).
    for (const label of ['staging', 'canary']) await ok(await call('PUT', `/prompts/other/labels/${label}`, { version: 1 }));
    const r = await ok(await call('POST', '/prompts/greet/versions/2/check', { label: 'staging' }));
    expect(r.passed).toBe(false);
    expect(r.label).toBe('staging');
    expect(r.tests[0].text).toBe('Bye, Ada.');
    expect(r.tests[0].expectations.map((x: { passed: boolean }) => x.passed)).toEqual([false, false, true]);
    expect(r.tests[0].expectations[0].message).toMatch(/does not contain "Hello, Ada"/);
    expect((await ok(await call('POST', '/prompts/greet/versions/2/check?label=canary'))).label).toBe('canary');
  });

  it('404 for an unknown prompt or version, 400 for a bad ?label=, 422 for a bad body', async () => {
    await problem(await call('POST', '/prompts/nope/versions/1/check'), 404);
    await problem(await call('POST', '/prompts/greet/versions/9/check'), 404);
    expect((await problem(await call('POST', '/prompts/greet/versions/1/check?label=Bad_Label'), 400)).errors?.[0]?.path).toBe('query.label');
    expect((await problem(await call('POST', '/prompts/greet/versions/1/check', { label: 'Bad_Label' }), 422)).errors?.[0]?.path).toBe('label');
    expect((await problem(await call('POST', '/prompts/greet/versions/1/check', { labels: 'x' }), 422)).errors?.length).toBeGreaterThan(0);
  });
});

describe('the gate on protected labels', () => {
  it('refuses moving production to a failing version (409 listing the failures) on every path; other labels move freely', async () => {
    const setRefused = await problem(await call('PUT', '/prompts/greet/labels/production', { version: 2 }), 409);
    expect(setRefused.errors).toEqual([{ path: 'greet@2.tests[0]', message: expect.stringMatching(/test case "greets Ada" fails: the output does not contain "Hello, Ada"/) }]);
    expect(setRefused.detail).toMatch(/^moving production is refused: 1 check failed \(greet@2\.tests\[0\]: /);
    const activateRefused = await problem(await call('PUT', '/prompts/greet/active', { version: 2 }), 409);
    expect(activateRefused.errors?.[0]?.path).toBe('greet@2.tests[0]');
    // A new version with activate: true is refused whole: no version 3 is left behind.
    await problem(await call('POST', '/prompts/greet/versions', version('Nope {{who}}', [greets], { activate: true })), 409);
    await problem(await call('POST', '/prompts', { name: 'fresh', ...version('Nope {{who}}', [greets]), activate: true }), 409);
    await problem(await call('GET', '/prompts/fresh'), 404);
    const detail = await ok(await call('GET', '/prompts/greet'));
    expect([detail.activeVersion, detail.latestVersion]).toEqual([1, 2]);
    // staging is not protected: no checks.
    await ok(await call('PUT', '/prompts/greet/labels/staging', { version: 2 }));
  });

  it('an admin forces the move; the change log records force and the failures', async () => {
    await ok(await call('PUT', '/prompts/greet/labels/production', { version: 2, force: true }));
    const { items } = await ok(await call('GET', '/activity?limit=5'));
    const move = items.find((e: { action: string }) => e.action === 'label.set');
    expect(move.details).toMatchObject({ label: 'production', from: 1, to: 2, forced: true, failedChecks: [{ path: 'greet@2.tests[0]', message: expect.stringMatching(/greets Ada/) }] });
    // A passing move records no force, even when sent.
    await ok(await call('PUT', '/prompts/greet/active', { version: 1, force: true }));
    const after = await ok(await call('GET', '/activity?limit=1'));
    expect(after.items[0].action).toBe('prompt.rolled_back');
    expect(after.items[0].details.forced).toBeUndefined();
  });

  it('an editor cannot force (the protected label needs an admin)', async () => {
    const editor = await ok(await call('POST', '/tokens', { name: 'checks-editor', role: 'editor' }), 201);
    const res = await makeClient(core).app.request('/admin/v1/prompts/greet/labels/production', {
      method: 'PUT', headers: { authorization: `Bearer ${editor.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ version: 2, force: true }),
    });
    expect(res.status).toBe(403);
    expect((await ok(await call('GET', '/prompts/greet'))).activeVersion).toBe(1);
  });

  it('a promotion runs the checks of every prompt it moves and refuses as a whole', async () => {
    // staging: greet@2 (fails), other@2 (passes).
    await ok(await call('PUT', '/prompts/other/labels/staging', { version: 2 }));
    const dry = await ok(await call('POST', '/labels/staging/promote', { to: 'production', dryRun: true }));
    expect(dry.changes).toEqual([{ prompt: 'greet', from: 1, to: 2 }, { prompt: 'other', from: 1, to: 2 }]);
    const refused = await problem(await call('POST', '/labels/staging/promote', { to: 'production' }), 409);
    expect(refused.errors?.map((e) => e.path)).toEqual(['greet@2.tests[0]']);
    // Nothing moved, not even the passing prompt.
    expect((await ok(await call('GET', '/prompts/other'))).activeVersion).toBe(1);
    expect((await ok(await call('GET', '/prompts/greet'))).activeVersion).toBe(1);
    // Forced: both move; only greet's event records failures.
    await ok(await call('POST', '/labels/staging/promote', { to: 'production', force: true }));
    const { items } = await ok(await call('GET', '/activity?limit=2'));
    const byPrompt = Object.fromEntries(items.map((e: { entityKey: string; details: Record<string, unknown> }) => [e.entityKey, e.details]));
    expect(byPrompt.greet).toMatchObject({ label: 'production', source: 'staging', forced: true });
    expect(byPrompt.other.forced).toBeUndefined();
    expect((await ok(await call('GET', '/prompts/other'))).activeVersion).toBe(2);
  });
});

// #37.13: the refusal said "1 check fail"; now "1 check failed" / "N checks failed".
describe('the refusal counts its failures in words', () => {
  it('"2 checks failed" for two failing test cases', async () => {
    const fails = (name: string) => ({ name, arguments: { who: 'Ada' }, expect: [{ contains: 'never there' }] });
    await ok(await call('POST', '/prompts', { name: 'twice-failing', ...version('Hi {{who}}', [fails('one'), fails('two')]) }), 201);
    const refused = await problem(await call('PUT', '/prompts/twice-failing/labels/production', { version: 1 }), 409);
    expect(refused.errors).toHaveLength(2);
    expect(refused.detail).toMatch(/^moving production is refused: 2 checks failed \(/);
  });
});
