// Typed arguments over MCP, through the SDK's real Client: prompts/get parses values
// by type (-32602 naming the argument), fills defaults, per-prompt tools carry the
// JSON Schema, completion offers true/false for booleans. Runs on SQLite and
// PostgreSQL (the served catalog reads type and default from its own SQL document).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { connect, countListChanged, createPrompt, createVersion, rpcError } from './helpers.js';

describe('typed arguments over MCP', () => {
  let core: Core;
  beforeAll(async () => {
    core = await makeCore();
    await createPrompt(core, {
      name: 'digest',
      description: 'Summarises the news',
      arguments: [
        { name: 'count', type: 'integer', required: true, description: 'how many items' },
        { name: 'ratio', type: 'number', default: 0.25 },
        { name: 'loud', type: 'boolean', default: false },
        { name: 'tone', choices: ['calm', 'firm'], default: 'calm' },
        { name: 'level', type: 'integer', choices: ['1', '2', '3'] },
      ],
      messages: [{ role: 'user', content: { type: 'text', text: '{{count}} items, ratio {{ratio}}, {{tone}}{{#loud}}, LOUD{{/loud}}{{#level}}, level {{level}}{{/level}}.' } }],
      activate: true,
    });
  });
  afterAll(async () => core.close());

  it('prompts/get: a bad integer is -32602 with a message naming the argument and the value', async () => {
    const { client, close } = await connect(core);
    const e = await rpcError(client.getPrompt({ name: 'digest', arguments: { count: 'ten' } }));
    expect(e.code).toBe(-32602);
    expect(e.message).toContain('argument "count" must be an integer (got "ten")');
    const b = await rpcError(client.getPrompt({ name: 'digest', arguments: { count: '2', loud: 'yes' } }));
    expect(b.code).toBe(-32602);
    expect(b.message).toContain('argument "loud" must be true or false (got "yes")');
    const c = await rpcError(client.getPrompt({ name: 'digest', arguments: { count: '2', level: '4' } }));
    expect(c.message).toContain('argument "level" must be one of: 1, 2, 3 (got "4")');
    await close();
  });

  it('prompts/get: defaults fill missing optional values; values are parsed, booleans drive sections', async () => {
    const { client, close } = await connect(core);
    const text = async (args: Record<string, string>) => ((await client.getPrompt({ name: 'digest', arguments: args })).messages[0]!.content as { text: string }).text;
    expect(await text({ count: '3' })).toBe('3 items, ratio 0.25, calm.');
    expect(await text({ count: ' 07 ', loud: 'true', tone: 'firm', ratio: '1.5', level: '2' })).toBe('7 items, ratio 1.5, firm, LOUD, level 2.');
    expect(await text({ count: '1', loud: 'false' })).toBe('1 items, ratio 0.25, calm.');
    await close();
  });

  it('per-prompt tools: inputSchema carries types, enum, default and required; typed JSON values render', async () => {
    const { client, close } = await connect(core, { promptTools: true });
    const tool = (await client.listTools()).tools.find((t) => t.name === 'digest')!;
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        count: { type: 'integer', description: 'how many items' },
        ratio: { type: 'number', default: 0.25 },
        loud: { type: 'boolean', default: false },
        tone: { type: 'string', enum: ['calm', 'firm'], default: 'calm' },
        level: { type: 'integer', enum: [1, 2, 3] },
      },
      required: ['count'],
      additionalProperties: false,
    });
    const r = await client.callTool({ name: 'digest', arguments: { count: 2, loud: true, level: 3 } });
    expect(r.content).toEqual([{ type: 'text', text: '2 items, ratio 0.25, calm, LOUD, level 3.' }]);
    const bad = await client.callTool({ name: 'digest', arguments: { count: 2.5 } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]!.text).toBe('argument "count" must be an integer (got 2.5)');
    const listed = (await client.callTool({ name: 'list_prompts', arguments: { query: 'digest' } })).structuredContent as { prompts: { arguments: unknown[] }[] };
    expect(listed.prompts[0]!.arguments[1]).toEqual({ name: 'ratio', type: 'number', required: false, default: 0.25 });
    await close();
  });

  it('completion/complete: a boolean offers true/false, a typed argument with choices its choices', async () => {
    const { client, close } = await connect(core);
    const complete = (name: string, value: string) => client.complete({ ref: { type: 'ref/prompt', name: 'digest' }, argument: { name, value } });
    expect((await complete('loud', '')).completion.values).toEqual(['true', 'false']);
    expect((await complete('loud', 'f')).completion.values).toEqual(['false']);
    expect((await complete('level', '')).completion.values).toEqual(['1', '2', '3']);
    expect((await complete('count', '')).completion.values).toEqual([]);
    await close();
  });

  it('a new version changes the types MCP serves (the catalog reloads type and default)', async () => {
    const { client, close } = await connect(core);
    await client.listPrompts();
    const changed = countListChanged(client);
    await createVersion(core, 'digest', {
      arguments: [{ name: 'count', type: 'number', default: 1.5 }],
      messages: [{ role: 'user', content: { type: 'text', text: 'n={{count}}' } }],
      activate: true,
    });
    await changed.waitFor(1);
    expect(((await client.getPrompt({ name: 'digest' })).messages[0]!.content as { text: string }).text).toBe('n=1.5');
    expect(((await client.getPrompt({ name: 'digest', arguments: { count: '2.5' } })).messages[0]!.content as { text: string }).text).toBe('n=2.5');
    await close();
  });
});
