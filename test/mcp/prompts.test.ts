// prompts/list, prompts/get and completion/complete through the SDK's real Client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { connect, createPrompt, createResource, newCore, PNG_BASE64, rpcError, textPrompt } from './helpers.js';

let core: Core;
let mcp: Awaited<ReturnType<typeof connect>>;
const names: string[] = [];

beforeAll(async () => {
  core = await newCore();
  // Created out of order so that sorting is the server's doing.
  for (let i = 0; i < 250; i++) names.push(`p-${String((i * 37) % 250).padStart(3, '0')}`);
  for (const n of names) await createPrompt(core, textPrompt(n));
  // Not served: a draft-only prompt and an archived one.
  await createPrompt(core, textPrompt('zz-draft', 'draft', { activate: false }));
  await createPrompt(core, textPrompt('zz-archived'));
  await core.prompts.update('zz-archived', { archived: true }, { name: 't' });

  await createResource(core, { uri: 'file:///project/src/main.ts', name: 'main.ts', mimeType: 'text/x-typescript', text: 'export const x = 1;' });
  await createResource(core, { uri: 'mem://logo.png', name: 'logo', mimeType: 'image/png', blob: PNG_BASE64 });
  await createPrompt(core, {
    name: 'explain-file',
    arguments: [{ name: 'fileUri', required: true }],
    messages: [
      { role: 'user', content: { type: 'text', text: 'Explain this file:' } },
      { role: 'user', content: { type: 'resource', uri: '{+fileUri}' } },
    ],
    activate: true,
  });
  await createPrompt(core, {
    name: 'describe-logo',
    arguments: [],
    messages: [{ role: 'user', content: { type: 'image', resourceUri: 'mem://logo.png', annotations: { audience: ['assistant'] } } }],
    activate: true,
  });
  await createPrompt(core, {
    name: 'translate',
    title: 'Translate',
    icons: [{ src: 'https://example.com/translate.png', mimeType: 'image/png', sizes: ['48x48'] }],
    arguments: [
      { name: 'lang', required: true, choices: ['script-kit', 'typescript', 'javascript', 'scriptable', 'rust'] },
      { name: 'text', required: false, maxLength: 10 },
      { name: 'opt', choices: Array.from({ length: 150 }, (_, i) => `opt-${String(i).padStart(3, '0')}`) },
    ],
    messages: [{ role: 'user', content: { type: 'text', text: 'Translate to {{lang}}: {{#text}}[{{text}}]{{/text}}{{^text}}(nothing){{/text}}' } }],
    activate: true,
  });
  mcp = await connect(core, { pageSize: 40 });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await core?.close();
});

describe('prompts/list', () => {
  it('walks 250+ active prompts in pages, each exactly once, sorted', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await mcp.client.listPrompts(cursor ? { cursor } : {});
      expect(page.prompts.length).toBeLessThanOrEqual(40);
      seen.push(...page.prompts.map((p) => p.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    const expected = [...names, 'describe-logo', 'explain-file', 'translate'].sort();
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBe(Math.ceil(expected.length / 40));
    expect(seen).not.toContain('zz-draft');
    expect(seen).not.toContain('zz-archived');
  });

  it('describes each prompt with its arguments', async () => {
    const { prompts } = await mcp.client.listPrompts({ cursor: undefined });
    expect(prompts[0]).toEqual({
      name: 'describe-logo',
      arguments: [],
    });
    let cursor: string | undefined;
    let translate;
    do {
      const page = await mcp.client.listPrompts(cursor ? { cursor } : {});
      translate ??= page.prompts.find((p) => p.name === 'translate');
      cursor = page.nextCursor;
    } while (cursor);
    expect(translate).toMatchObject({ name: 'translate', title: 'Translate', icons: [{ src: 'https://example.com/translate.png', mimeType: 'image/png', sizes: ['48x48'] }], arguments: [{ name: 'lang', required: true }, { name: 'text', required: false }, { name: 'opt', required: false }] });
  });

  it('rejects a forged or tampered cursor with -32602', async () => {
    const first = await mcp.client.listPrompts({});
    const [payload, sig] = first.nextCursor!.split('.');
    const forged = Buffer.from(JSON.stringify({ k: 'mcp-prompts', v: 'p-100' })).toString('base64url') + '.' + sig;
    for (const cursor of ['garbage', forged, `${payload}.AAAA`]) {
      const err = await rpcError(mcp.client.listPrompts({ cursor }));
      expect(err.code).toBe(-32602);
      expect(err.message).toMatch(/cursor/);
    }
  });
});

describe('prompts/get', () => {
  it('renders the active version', async () => {
    const r = await mcp.client.getPrompt({ name: 'p-007', arguments: { who: 'Ada' } });
    expect(r.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }]);
    expect(r.description).toBe('prompt p-007');
  });

  it('inserts argument values literally: {{x}} stays {{x}}, no HTML escaping', async () => {
    const r = await mcp.client.getPrompt({ name: 'p-007', arguments: { who: '{{x}} <b>&amp;' } });
    expect(r.messages[0]!.content).toEqual({ type: 'text', text: 'Hello {{x}} <b>&amp;' });
  });

  it('unknown prompt → -32602 naming the prompt', async () => {
    const err = await rpcError(mcp.client.getPrompt({ name: 'nope', arguments: {} }));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('"nope"');
  });

  it('missing required argument → -32602 naming the argument', async () => {
    const err = await rpcError(mcp.client.getPrompt({ name: 'p-007', arguments: {} }));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/missing required argument "who"/);
  });

  it('a value outside choices, over maxLength, or an unknown argument → -32602', async () => {
    let err = await rpcError(mcp.client.getPrompt({ name: 'translate', arguments: { lang: 'cobol' } }));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/"lang" must be one of/);
    err = await rpcError(mcp.client.getPrompt({ name: 'translate', arguments: { lang: 'rust', text: 'x'.repeat(11) } }));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/"text" is 11 characters long; the limit is 10/);
    err = await rpcError(mcp.client.getPrompt({ name: 'translate', arguments: { lang: 'rust', colour: 'red' } }));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/unknown argument "colour"/);
  });

  it('renders optional sections', async () => {
    const a = await mcp.client.getPrompt({ name: 'translate', arguments: { lang: 'rust' } });
    expect(a.messages[0]!.content).toEqual({ type: 'text', text: 'Translate to rust: (nothing)' });
    const b = await mcp.client.getPrompt({ name: 'translate', arguments: { lang: 'rust', text: 'hi' } });
    expect(b.messages[0]!.content).toEqual({ type: 'text', text: 'Translate to rust: [hi]' });
  });

  it('{+fileUri} embeds the stored resource named by the argument', async () => {
    const r = await mcp.client.getPrompt({ name: 'explain-file', arguments: { fileUri: 'file:///project/src/main.ts' } });
    expect(r.messages[1]).toEqual({
      role: 'user',
      content: { type: 'resource', resource: { uri: 'file:///project/src/main.ts', mimeType: 'text/x-typescript', text: 'export const x = 1;' } },
    });
  });

  it('an unresolvable bound resource → -32602 naming the URI', async () => {
    const err = await rpcError(mcp.client.getPrompt({ name: 'explain-file', arguments: { fileUri: 'file:///etc/passwd' } }));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('file:///etc/passwd');
  });

  it('an image message carries base64 data with the right mimeType', async () => {
    const r = await mcp.client.getPrompt({ name: 'describe-logo' });
    expect(r.messages[0]!.content).toEqual({ type: 'image', data: PNG_BASE64, mimeType: 'image/png', annotations: { audience: ['assistant'] } });
  });
});

describe('completion/complete for prompt arguments', () => {
  const complete = (argument: string, value: string, context?: Record<string, string>) =>
    mcp.client.complete({ ref: { type: 'ref/prompt', name: 'translate' }, argument: { name: argument, value }, ...(context ? { context: { arguments: context } } : {}) });

  it('puts prefix matches first, then substring matches', async () => {
    const { completion } = await complete('lang', 'script');
    expect(completion.values).toEqual(['script-kit', 'scriptable', 'typescript', 'javascript']);
    expect(completion.total).toBe(4);
    expect(completion.hasMore).toBe(false);
  });

  it('returns at most 100 values with total and hasMore', async () => {
    const { completion } = await complete('opt', 'opt', { lang: 'rust' });
    expect(completion.values).toHaveLength(100);
    expect(completion.values[0]).toBe('opt-000');
    expect(completion.total).toBe(150);
    expect(completion.hasMore).toBe(true);
  });

  it('unknown prompt or argument → -32602', async () => {
    expect((await rpcError(complete('nope', ''))).code).toBe(-32602);
    const err = await rpcError(mcp.client.complete({ ref: { type: 'ref/prompt', name: 'ghost' }, argument: { name: 'x', value: '' } }));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('"ghost"');
  });
});
