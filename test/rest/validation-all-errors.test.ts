// Issue #37 item 11: one invalid body gets one 422 naming every failing field: the
// schema's errors and the checks on whatever parts of the body are well-formed
// (template variables, test cases, their patterns), not the latter only after the
// former are fixed. Paths are compared exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
});
afterAll(() => core.close());

type Err = { path: string; message: string };
const pathsOf = async (res: Response) => {
  expect(res.status).toBe(422);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return ((await res.json()).errors as Err[]).map((e) => e.path).sort();
};

const body = {
  arguments: [{ name: 'a', required: true }],
  messages: [
    { role: 'bot', content: { type: 'text', text: 'Hi {{a}} and {{b}}' } },
    { role: 'user', content: { type: 'text', text: '{{c}}' } },
  ],
  tests: [{ name: 't', arguments: { zz: '1' }, expect: [{ matches: '(?=a)a' }, { contains: 'x' }] }],
};

describe('every error of a body in one 422', () => {
  it('a bad role does not hide the template and test case errors (create)', async () => {
    const res = await call('POST', '/prompts', { name: 'all-errors', ...body });
    expect(await pathsOf(res)).toEqual([
      'messages[0].content.text', 'messages[0].role', 'messages[1].content.text', 'tests[0].arguments.zz', 'tests[0].expect[0].matches',
    ]);
  });

  it('the same for a new version', async () => {
    expect((await call('POST', '/prompts', textPrompt('all-errors-v'))).status).toBe(201);
    const res = await call('POST', '/prompts/all-errors-v/versions', body);
    expect(await pathsOf(res)).toEqual([
      'messages[0].content.text', 'messages[0].role', 'messages[1].content.text', 'tests[0].arguments.zz', 'tests[0].expect[0].matches',
    ]);
  });

  it('a malformed test case still has its other parts checked, with their indexes', async () => {
    const res = await call('POST', '/prompts', {
      name: 'all-errors-tests',
      arguments: [{ name: 'a' }],
      messages: [{ role: 'user', content: { type: 'text', text: '{{a}}' } }],
      tests: [
        { name: 't', arguments: { zz: '1', a: 2 }, expect: [{ nope: 1 }, { matches: '(?!x)y' }] },
        { name: 't', expect: [{ contains: 'y' }] },
      ],
    });
    expect(await pathsOf(res)).toEqual([
      'tests[0].arguments.a', 'tests[0].arguments.zz', 'tests[0].expect[0]', 'tests[0].expect[1].matches', 'tests[1].name',
    ]);
  });

  it('a valid body with several semantic errors lists them all', async () => {
    const res = await call('POST', '/prompts', { name: 'all-errors-ok', ...body, messages: [body.messages[1], body.messages[0]!].map((m) => ({ ...m, role: 'user' })) });
    expect(await pathsOf(res)).toEqual(['messages[0].content.text', 'messages[1].content.text', 'tests[0].arguments.zz', 'tests[0].expect[0].matches']);
  });
});
