// Rendered size and template shape (issue 23 #4, #5): argument values may add at
// most LIMITS.renderedArgumentChars characters to a rendering, estimated before
// rendering from how often each value is written (sections, inverted sections,
// every message and URI bindings included); a whole rendered prompt is at most
// LIMITS.renderedPromptChars; templates nest at most LIMITS.sectionDepth sections
// and hold at most LIMITS.referencesPerTemplate tags. MCP gets -32602 naming the
// argument, REST a 422 naming `arguments.<name>`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { TestCore as Core } from '../helpers/db.js';
import { LIMITS } from '../../src/core/schemas.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { connect, rpcError } from '../mcp/helpers.js';
import { overwriteMessageText } from './stored.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
let mcp: Awaited<ReturnType<typeof connect>>;

const text = (t: string, role = 'user') => ({ role, content: { type: 'text', text: t } });
const prompt = (name: string, args: string[], messages: unknown[]) => ({ name, activate: true, arguments: args.map((a) => ({ name: a })), messages });
const created = async (body: unknown) => {
  const res = await call('POST', '/prompts', body);
  expect(res.status, await res.clone().text()).toBe(201);
};
const nested = (depth: number, inner = '{{a}}') => '{{#a}}'.repeat(depth) + inner + '{{/a}}'.repeat(depth);

/** REST render and MCP prompts/get of the same request both refuse it, naming `arg`. */
async function refusedBoth(name: string, args: Record<string, string>, arg: string) {
  const res = await call('POST', `/prompts/${name}/render`, { arguments: args });
  expect(res.status).toBe(422);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = await res.json();
  expect(body.errors).toEqual([expect.objectContaining({ path: `arguments.${arg}` })]);
  const err = await rpcError(mcp.client.getPrompt({ name, arguments: args }));
  expect(err.code).toBe(ErrorCode.InvalidParams);
  expect(err.message).toContain(`argument "${arg}"`);
  return err;
}

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
  // At the tag limit, so it can be saved: 1,000 writes of x.
  await created(prompt('amp', ['x'], [text('{{x}}'.repeat(LIMITS.referencesPerTemplate))]));
  // Values written inside sections and inverted sections count as well.
  await created(prompt('sections', ['x', 'y'], [text('{{#x}}{{x}}{{/x}}{{^y}}{{x}}{{/y}}'.repeat(250))]));
  // Each message is small; together they are not.
  await created(prompt('many', ['x'], Array.from({ length: 60 }, () => text('{{x}}'.repeat(20)))));
  await core.resources.create({ uri: 'docs://guide/en', name: 'guide', mimeType: 'text/plain', text: 'English guide', visibility: 'public' }, { name: 't' });
  await created(prompt('bound', ['lang'], [{ role: 'user', content: { type: 'resource', uri: 'docs://guide/{lang}' } }]));
  // Stored content embedded more than once: 2 × 9 MiB is over the 16 MiB total.
  const nine = 'r'.repeat(9 * 1024 * 1024);
  for (const k of ['a', 'b']) await core.resources.create({ uri: `docs://big/${k}`, name: k, mimeType: 'text/plain', text: nine }, { name: 't' });
  await created(prompt('embeds', [], [{ role: 'user', content: { type: 'resource', uri: 'docs://big/a' } }, { role: 'user', content: { type: 'resource', uri: 'docs://big/b' } }]));
  await created(prompt('embeds-one', [], [{ role: 'user', content: { type: 'resource', uri: 'docs://big/a' } }, text('fine')]));
  // Saved before the nesting limit existed: 4,000 levels (overwritten in the database below).
  await created(prompt('deep-old', ['a'], [text('{{a}}')]));
  await overwriteMessageText(core, 'deep-old', 1, 0, nested(4_000));
  mcp = await connect(core);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await core?.close();
});

describe('rendered size is estimated before rendering', () => {
  it('a 10 kB value written 1,000 times is refused with -32602 / 422 naming the argument; a short one renders', async () => {
    const err = await refusedBoth('amp', { x: 'v'.repeat(10_000) }, 'x');
    expect(err.message).toMatch(/1048576/);
    const ok = await mcp.client.getPrompt({ name: 'amp', arguments: { x: 'v'.repeat(1_000) } });
    expect((ok.messages[0]!.content as { text: string }).text).toHaveLength(1_000_000);
  });

  it('counts values written inside sections and inverted sections', async () => {
    // 500 writes of x (250 in sections, 250 in inverted sections) × 2,500 characters > 1 MiB
    await refusedBoth('sections', { x: 's'.repeat(2_500) }, 'x');
    const r = await mcp.client.getPrompt({ name: 'sections', arguments: { x: 's'.repeat(2_000) } });
    expect((r.messages[0]!.content as { text: string }).text).toHaveLength(1_000_000);
  });

  it('counts every message together', async () => {
    // 60 messages × 20 writes × 1,000 characters = 1.2 M > 1 MiB, each message only 20 k
    await refusedBoth('many', { x: 'm'.repeat(1_000) }, 'x');
    const r = await mcp.client.getPrompt({ name: 'many', arguments: { x: 'm'.repeat(800) } });
    expect(r.messages).toHaveLength(60);
  });

  it('refuses a value that makes a bound URI longer than any URI that can match, before expanding it', async () => {
    await refusedBoth('bound', { lang: 'l'.repeat(LIMITS.uriLength + 1) }, 'lang');
    const r = await mcp.client.getPrompt({ name: 'bound', arguments: { lang: 'en' } });
    expect(r.messages[0]!.content).toMatchObject({ type: 'resource', resource: { text: 'English guide' } });
  });

  it('caps the whole rendered prompt, embedded resources included', async () => {
    const res = await call('POST', '/prompts/embeds/render', { arguments: {} });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([expect.objectContaining({ path: 'messages[1].content' })]);
    const err = await rpcError(mcp.client.getPrompt({ name: 'embeds' }));
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).toMatch(/more than 16777216 characters/);
    // One 9 MiB resource is within the cap.
    const one = await mcp.client.getPrompt({ name: 'embeds-one' });
    expect(one.messages).toHaveLength(2);
  });
});

describe('section nesting and tag count', () => {
  it('a 4,000-level template is a 422 naming the message text, not a 500', async () => {
    const res = await call('POST', '/prompts', prompt('deep', ['a'], [text('hi'), text(nested(4_000, 'x'))]));
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.errors).toContainEqual({ path: 'messages[1].content.text', message: `sections are nested 4000 levels deep; the limit is ${LIMITS.sectionDepth}` });
  });

  it(`${LIMITS.sectionDepth} levels are accepted and render; ${LIMITS.sectionDepth + 1} are refused`, async () => {
    await created(prompt('deep-ok', ['a'], [text(nested(LIMITS.sectionDepth))]));
    const r = await mcp.client.getPrompt({ name: 'deep-ok', arguments: { a: 'A' } });
    expect((r.messages[0]!.content as { text: string }).text).toBe('A');
    const res = await call('POST', '/prompts', prompt('deep-33', ['a'], [text(nested(LIMITS.sectionDepth + 1))]));
    expect(res.status).toBe(422);
    expect((await res.json()).errors[0].path).toBe('messages[0].content.text');
  });

  it(`more than ${LIMITS.referencesPerTemplate} tags in one template are refused when saved`, async () => {
    const res = await call('POST', '/prompts', prompt('tags', ['x'], [text('{{x}}'.repeat(LIMITS.referencesPerTemplate + 1))]));
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toContainEqual({
      path: 'messages[0].content.text',
      message: `the template has ${LIMITS.referencesPerTemplate + 1} variable tags; the limit is ${LIMITS.referencesPerTemplate}`,
    });
  });

  it('resource templates get the same limits', async () => {
    const res = await call('POST', '/resource-templates', { uriTemplate: 'docs://deep/{a}', name: 'deep', mimeType: 'text/plain', text: nested(40) });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toContainEqual({ path: 'text', message: `sections are nested 40 levels deep; the limit is ${LIMITS.sectionDepth}` });
  });

  it('a version stored before the limit gives a clear error over REST and MCP, never a crash', async () => {
    const res = await call('POST', '/prompts/deep-old/render', { arguments: { a: 'x' } });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.errors).toEqual([{ path: 'messages[0].content.text', message: `sections are nested 4000 levels deep; the limit is ${LIMITS.sectionDepth}` }]);
    const err = await rpcError(mcp.client.getPrompt({ name: 'deep-old', arguments: { a: 'x' } }));
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).toMatch(/cannot be rendered.*save a new version/);
    // and the server still answers
    expect((await mcp.client.listPrompts()).prompts.length).toBeGreaterThan(0);
  });
});
