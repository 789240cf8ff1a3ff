// Prompts as tools: list_prompts and get_prompt by default, per-prompt tools opt-in,
// through the SDK's real Client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Core } from '../../src/core/index.js';
import { argumentsJsonSchema } from '../../src/mcp/tools.js';
import { connect, createPrompt, createVersion, newCore, rpcError, textPrompt, until } from './helpers.js';

describe('the tools face', () => {
  let core: Core;
  beforeAll(async () => {
    core = await newCore();
    await createPrompt(core, textPrompt('greet', 'Hello {{who}}'));
    await createPrompt(core, {
      name: 'review',
      title: 'Code review',
      description: 'Reviews a diff for security problems',
      arguments: [
        { name: 'lang', description: 'language', required: true, choices: ['ts', 'go'] },
        { name: 'diff', required: false, maxLength: 100 },
      ],
      messages: [
        { role: 'assistant', content: { type: 'text', text: 'I review {{lang}}.' } },
        { role: 'user', content: { type: 'text', text: 'Diff: {{diff}}' } },
      ],
      activate: true,
    });
    for (let i = 0; i < 12; i++) await createPrompt(core, textPrompt(`bulk-${String(i).padStart(2, '0')}`));
  });
  afterAll(async () => core.close());

  it('default: list_prompts and get_prompt; get_prompt renders; bad arguments are an isError result', async () => {
    const { client, close } = await connect(core);
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['list_prompts', 'get_prompt']);

    const got = await client.callTool({ name: 'get_prompt', arguments: { name: 'greet', arguments: { who: 'Ada' } } });
    expect(got.isError).toBeFalsy();
    expect(got.content).toEqual([{ type: 'text', text: 'Hello Ada' }]);

    const roles = await client.callTool({ name: 'get_prompt', arguments: { name: 'review', arguments: { lang: 'ts', diff: '+x' } } });
    expect(roles.content).toEqual([
      { type: 'text', text: '[assistant]\nI review ts.' },
      { type: 'text', text: '[user]\nDiff: +x' },
    ]);

    const bad = await client.callTool({ name: 'get_prompt', arguments: { name: 'review', arguments: { lang: 'cobol' } } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]!.text).toBe('argument "lang" must be one of: ts, go (got "cobol")');
    const missing = await client.callTool({ name: 'get_prompt', arguments: { name: 'review' } });
    expect((missing.content as { text: string }[])[0]!.text).toContain('missing required argument "lang"');
    const unknown = await client.callTool({ name: 'get_prompt', arguments: { name: 'nope' } });
    expect(unknown.isError).toBe(true);
    expect((unknown.content as { text: string }[])[0]!.text).toContain('prompt "nope" not found');
    const notString = await client.callTool({ name: 'get_prompt', arguments: { name: 'greet', arguments: { who: 3 } } });
    expect((notString.content as { text: string }[])[0]!.text).toBe('argument "who" must be a string (got 3)');

    expect((await rpcError(client.callTool({ name: 'greet', arguments: {} }))).code).toBe(-32602);
    await close();
  });

  it('list_prompts pages with cursors and filters by query over name, title and description', async () => {
    const { client, close } = await connect(core, { pageSize: 5 });
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await client.callTool({ name: 'list_prompts', arguments: cursor ? { cursor } : {} });
      const page = r.structuredContent as { prompts: { name: string }[]; nextCursor?: string };
      expect(JSON.parse((r.content as { text: string }[])[0]!.text)).toEqual(page);
      names.push(...page.prompts.map((p) => p.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(names).toHaveLength(14);
    expect(new Set(names).size).toBe(14);

    const hit = (await client.callTool({ name: 'list_prompts', arguments: { query: 'SECURITY' } })).structuredContent as { prompts: unknown[] };
    expect(hit.prompts).toEqual([
      { name: 'review', title: 'Code review', description: 'Reviews a diff for security problems', arguments: [
        { name: 'lang', type: 'string', description: 'language', required: true, choices: ['ts', 'go'] },
        { name: 'diff', type: 'string', required: false, maxLength: 100 },
      ] },
    ]);
    const bulk: string[] = [];
    cursor = undefined;
    do {
      const page = (await client.callTool({ name: 'list_prompts', arguments: { query: 'bulk', ...(cursor ? { cursor } : {}) } })).structuredContent as { prompts: { name: string }[]; nextCursor?: string };
      bulk.push(...page.prompts.map((p) => p.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(bulk).toHaveLength(12);
    const forged = await client.callTool({ name: 'list_prompts', arguments: { cursor: 'forged' } });
    expect(forged.isError).toBe(true);
    await close();
  });

  it('per-prompt tools: one tool per served prompt, inputSchema from its arguments, paged, tools/list_changed follows', async () => {
    const { client, close } = await connect(core, { promptTools: true, pageSize: 10 });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    const all: { name: string; inputSchema: unknown }[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    expect(all.map((t) => t.name).slice(0, 2)).toEqual(['list_prompts', 'get_prompt']);
    expect(all).toHaveLength(16);
    expect(all.find((t) => t.name === 'review')!.inputSchema).toEqual({
      type: 'object',
      properties: { lang: { type: 'string', description: 'language', enum: ['ts', 'go'] }, diff: { type: 'string', maxLength: 100 } },
      required: ['lang'],
      additionalProperties: false,
    });
    const r = await client.callTool({ name: 'greet', arguments: { who: 'Lin' } });
    expect(r.content).toEqual([{ type: 'text', text: 'Hello Lin' }]);
    const bad = await client.callTool({ name: 'review', arguments: {} });
    expect(bad.isError).toBe(true);

    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    const { name: _n, ...next } = textPrompt('greet', 'Hi {{who}}');
    await createVersion(core, 'greet', next);
    await until(() => changed > 0, 5_000, 'tools/list_changed');
    expect((await client.callTool({ name: 'greet', arguments: { who: 'Lin' } })).content).toEqual([{ type: 'text', text: 'Hi Lin' }]);
    await close();
  });

  it('--no-tools: no tools capability, tools/list is method-not-found', async () => {
    const { client, close } = await connect(core, { tools: false });
    expect(client.getServerCapabilities()?.tools).toBeUndefined();
    expect((await rpcError(client.listTools())).code).toBe(-32601);
    await close();
  });

  it('argumentsJsonSchema: no required list when nothing is required', () => {
    expect(argumentsJsonSchema([])).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });
});
