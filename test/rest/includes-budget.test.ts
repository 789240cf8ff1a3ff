// Issue #36.4 through the faces, on both databases: 8 levels of 6 includes inside
// false sections (49 prompts) are written (the write-time walk visits each prompt
// version once) and served over MCP on label=latest and by the REST preview; a version
// whose includes reach more than INCLUDE_BUDGET.prompts prompt versions is a 422
// problem naming the field, and a stored graph that grew past it later is refused when
// rendered (a conflict, never a 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { INCLUDE_BUDGET } from '../../src/core/render-includes.js';
import { makeCore, type TestCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { connect, createPrompt, createVersion } from '../mcp/helpers.js';

let core: TestCore;
let call: ReturnType<typeof makeClient>['call'];
const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });
const create = (name: string, t: string, args: string[] = []) => createPrompt(core, { name, arguments: args.map((a) => ({ name: a })), messages: [text(t)], activate: true });

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  ({ call } = makeClient(core));
  // Bottom up: each level includes all 6 prompts of the level below, in a false section.
  const level = (k: number) => Array.from({ length: 6 }, (_, j) => `l${k}-${j}`);
  for (let k = 8; k >= 1; k--) {
    for (const name of level(k)) await create(name, k === 8 ? 'x' : `{{#z}}${level(k + 1).map((n) => `{{> ${n}}}`).join('')}{{/z}}`, k === 8 ? [] : ['z']);
  }
  await create('root', `Hello.{{#z}}${level(1).map((n) => `{{> ${n}}}`).join('')}{{/z}}`, ['z']);
  for (let i = 0; i < INCLUDE_BUDGET.prompts; i++) await create(`leaf-${i}`, `leaf ${i}`);
  await create('hub', 'no includes yet');
  await create('over-hub', '{{#z}}{{> hub}}{{/z}}', ['z']);
}, 300_000);
afterAll(() => core.close());

describe('include work through the faces', () => {
  it('the 8×6 graph in false sections is served over MCP (label=latest) and previewed over REST', async () => {
    const c = await connect(core, { label: 'latest' });
    try {
      const r = await c.client.getPrompt({ name: 'root', arguments: {} });
      expect(r.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello.' } }]);
    } finally {
      await c.close();
    }
    const res = await call('POST', '/prompts/root/render', { arguments: {} });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { messages: { content: { text: string } }[] }).messages[0]!.content.text).toBe('Hello.');
  });

  it(`a version whose includes reach more than ${INCLUDE_BUDGET.prompts} prompt versions is a 422 naming the field`, async () => {
    // hub now includes the 100 leaves (itself within the budget: 100 versions).
    await createVersion(core, 'hub', { messages: [text(Array.from({ length: INCLUDE_BUDGET.prompts }, (_, i) => `{{> leaf-${i}}}`).join(''))], activate: true });
    const res = await call('POST', '/prompts', { name: 'too-big', arguments: [{ name: 'z' }], messages: [text('Hi'), text('{{#z}}{{> hub}}{{/z}}')], activate: true });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const body = (await res.json()) as { errors: { path: string; message: string }[] };
    expect(body.errors).toEqual([{ path: 'messages[1].content.text', message: 'the includes reach more than 100 prompt versions (at too-big → hub → leaf-99); one rendering may include at most 100' }]);
    expect((await call('GET', '/prompts/too-big')).status).toBe(404);
  });

  it('a stored graph that grew past the budget is refused when rendered: a conflict over MCP and REST, no 500', async () => {
    // over-hub was written when hub included nothing; hub's new version makes it reach 101.
    const c = await connect(core);
    try {
      const e = await c.client.getPrompt({ name: 'over-hub', arguments: {} }).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(McpError);
      expect((e as McpError).message).toMatch(/its includes reach more than 100 prompt versions/);
    } finally {
      await c.close();
    }
    const res = await call('POST', '/prompts/over-hub/render', { arguments: {} });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/reach more than 100 prompt versions \(at over-hub → hub → leaf-99\)/);
  });
});
