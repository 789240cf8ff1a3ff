// Each protocol version gets only what it defines; the newest gets everything.
// Checked through the real SDK Client pinned to each version's handshake.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Core } from '../../src/core/index.js';
import { ResourceInputSchema } from '../../src/core/schemas.js';
import { connectMcpServer, createMcpServer } from '../../src/mcp/server.js';
import { needsShaping, shapeResult } from '../../src/mcp/protocol-shape.js';
import fc from 'fast-check';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { createPrompt, createResource, newCore, PNG_BASE64 } from './helpers.js';

/** Speaks raw JSON-RPC over an in-memory pair so the handshake can ask for any version. */
async function rawSession(core: Core, protocolVersion: string) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connectMcpServer(createMcpServer({ core, log: () => {} }), serverSide, core);
  const waiting = new Map<number, (m: JSONRPCMessage) => void>();
  clientSide.onmessage = (m) => {
    const id = (m as { id?: number }).id;
    if (id !== undefined) waiting.get(id)?.(m);
  };
  await clientSide.start();
  let next = 1;
  const request = async (method: string, params: Record<string, unknown> = {}) => {
    const id = next++;
    const answer = new Promise<JSONRPCMessage>((resolve) => waiting.set(id, resolve));
    await clientSide.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    return (await answer) as { result?: Record<string, any>; error?: { code: number; message: string } };
  };
  const init = await request('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
  return { init: init.result!, request, close: () => clientSide.close() };
}

describe('results shaped by the negotiated protocol version', () => {
  let core: Core;
  beforeAll(async () => {
    core = await newCore();
    // Public where resources have a visibility (once they do, `bound` is the default).
    const guide = { uri: 'docs://guide', name: 'guide', title: 'The guide', mimeType: 'text/markdown', text: '# Guide' };
    await createResource(core, ResourceInputSchema.safeParse({ ...guide, visibility: 'public' }).success ? { ...guide, visibility: 'public' } : guide);
    await createPrompt(core, {
      name: 'shaped',
      title: 'Shaped prompt',
      description: 'every content type',
      icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png' }],
      arguments: [{ name: 'who', title: 'Who', required: false }],
      messages: [
        { role: 'user', content: { type: 'text', text: 'Hi {{who}}', annotations: { audience: ['user'], priority: 0.5 } } },
        { role: 'user', content: { type: 'resource_link', uri: 'docs://guide' } },
        { role: 'user', content: { type: 'audio', data: PNG_BASE64, mimeType: 'audio/wav' } },
        { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
      ],
      activate: true,
    });
  });
  afterAll(async () => core.close());

  it('2024-11-05: no resource_link, no audio, no title, no icons, no completions capability', async () => {
    const s = await rawSession(core, '2024-11-05');
    expect(s.init.protocolVersion).toBe('2024-11-05');
    expect(s.init.capabilities.completions).toBeUndefined();
    expect(s.init.capabilities.prompts).toEqual({ listChanged: true });
    expect(s.init.serverInfo.title).toBeUndefined();
    const list = (await s.request('prompts/list')).result!;
    const p = list.prompts.find((x: { name: string }) => x.name === 'shaped');
    expect(p).toEqual({ name: 'shaped', description: 'every content type', arguments: [{ name: 'who', required: false }] });
    const got = (await s.request('prompts/get', { name: 'shaped', arguments: { who: 'Ada' } })).result!;
    expect(got.messages.map((m: { content: { type: string } }) => m.content.type)).toEqual(['text', 'resource', 'resource', 'image']);
    expect(got.messages[0].content.annotations).toEqual({ audience: ['user'], priority: 0.5 });
    expect(got.messages[1].content.resource).toEqual({ uri: 'docs://guide', mimeType: 'text/markdown', text: '# Guide' });
    expect(got.messages[2].content.resource).toMatchObject({ mimeType: 'audio/wav', blob: PNG_BASE64 });
    await s.close();
  });

  it('2025-03-26: audio and the completions capability, still no resource_link or title', async () => {
    const s = await rawSession(core, '2025-03-26');
    expect(s.init.capabilities.completions).toEqual({});
    const got = (await s.request('prompts/get', { name: 'shaped' })).result!;
    expect(got.messages.map((m: { content: { type: string } }) => m.content.type)).toEqual(['text', 'resource', 'audio', 'image']);
    const list = (await s.request('prompts/list')).result!;
    expect(list.prompts.find((x: { name: string }) => x.name === 'shaped').title).toBeUndefined();
    await s.close();
  });

  it('2025-06-18: resource_link and titles, no icons', async () => {
    const s = await rawSession(core, '2025-06-18');
    const got = (await s.request('prompts/get', { name: 'shaped' })).result!;
    expect(got.messages[1].content).toMatchObject({ type: 'resource_link', uri: 'docs://guide', name: 'guide', title: 'The guide' });
    const p = (await s.request('prompts/list')).result!.prompts.find((x: { name: string }) => x.name === 'shaped');
    expect(p.title).toBe('Shaped prompt');
    expect(p.arguments[0].title).toBe('Who');
    expect(p.icons).toBeUndefined();
    expect(s.init.serverInfo.title).toBe('promptd prompt library');
    await s.close();
  });

  it(`${LATEST_PROTOCOL_VERSION} (newest): everything, icons included, through the SDK Client`, async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await connectMcpServer(createMcpServer({ core, log: () => {} }), serverSide, core);
    const client = new Client({ name: 'new', version: '1' });
    await client.connect(clientSide);
    const p = (await client.listPrompts()).prompts.find((x) => x.name === 'shaped')!;
    expect(p.icons).toEqual([{ src: 'https://example.com/icon.png', mimeType: 'image/png' }]);
    const got = await client.getPrompt({ name: 'shaped' });
    expect(got.messages.map((m) => m.content.type)).toEqual(['text', 'resource_link', 'audio', 'image']);
    await client.close();
  });

  it('a resource_link to something promptd no longer holds becomes a text item naming it', async () => {
    const shaped = await shapeResult(
      'prompts/get',
      { messages: [{ role: 'user', content: { type: 'resource_link', uri: 'docs://gone', name: 'gone', _meta: { x: 1 } } }] },
      '2024-11-05',
      { resolve: async () => null },
    );
    expect(shaped.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Resource: docs://gone (gone)' } }]);
  });

  it('resources, templates and tool listings lose fields their version does not define', async () => {
    const res = await shapeResult('resources/list', { resources: [{ uri: 'a://b', name: 'b', title: 'B', icons: [], annotations: { priority: 1, lastModified: '2025-01-01T00:00:00Z' } }] }, '2024-11-05', { resolve: async () => null });
    expect(res.resources).toEqual([{ uri: 'a://b', name: 'b', annotations: { priority: 1 } }]);
    const tools = await shapeResult('tools/list', { tools: [{ name: 't', title: 'T', inputSchema: { type: 'object' }, outputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] }, '2024-11-05', { resolve: async () => null });
    expect(tools.tools).toEqual([{ name: 't', inputSchema: { type: 'object' } }]);
    const call = await shapeResult('tools/call', { content: [{ type: 'text', text: 'x' }], structuredContent: { a: 1 } }, '2025-03-26', { resolve: async () => null });
    expect(call).toEqual({ content: [{ type: 'text', text: 'x' }] });
  });
  it('a result skipped by needsShaping is exactly what shapeResult would send', async () => {
    // Every field shaping can drop or rewrite, in every place it can appear.
    const meta = fc.option(fc.constant({ k: 1 }), { nil: undefined });
    const annotations = fc.option(fc.record({ priority: fc.constant(0.5), lastModified: fc.constant('2025-01-01T00:00:00Z') }, { requiredKeys: [] }), { nil: undefined });
    const strip = <T extends object>(o: T) => JSON.parse(JSON.stringify(o)) as T;
    const content = fc.oneof(
      fc.record({ type: fc.constant('text'), text: fc.string(), _meta: meta, annotations }),
      fc.record({ type: fc.constant('audio'), data: fc.constant('AAAA'), mimeType: fc.constant('audio/wav'), annotations }),
      fc.record({ type: fc.constant('resource_link'), uri: fc.constant('docs://gone'), name: fc.constant('gone'), _meta: meta }),
      fc.record({ type: fc.constant('resource'), resource: fc.record({ uri: fc.constant('a://b'), text: fc.constant('t'), _meta: meta }), annotations }),
    );
    const descriptor = fc.record({ name: fc.constant('n'), title: fc.option(fc.constant('T'), { nil: undefined }), icons: fc.option(fc.constant([{ src: 'https://x/i.png' }]), { nil: undefined }), _meta: meta, annotations, arguments: fc.option(fc.constant([{ name: 'a', title: 'A' }]), { nil: undefined }) });
    const results: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
      initialize: fc.record({ serverInfo: descriptor, capabilities: fc.constant({ completions: {}, prompts: {} }) }),
      'prompts/list': fc.record({ prompts: fc.array(descriptor, { maxLength: 2 }) }),
      'resources/list': fc.record({ resources: fc.array(descriptor, { maxLength: 2 }) }),
      'resources/templates/list': fc.record({ resourceTemplates: fc.array(descriptor, { maxLength: 2 }) }),
      'resources/read': fc.record({ contents: fc.array(fc.record({ uri: fc.constant('a://b'), text: fc.constant('t'), _meta: meta }), { maxLength: 2 }) }),
      'prompts/get': fc.record({ messages: fc.array(fc.record({ role: fc.constant('user'), content }), { maxLength: 3 }) }),
      'tools/list': fc.record({ tools: fc.array(fc.record({ name: fc.constant('t'), title: fc.constant('T'), outputSchema: fc.option(fc.constant({ type: 'object' }), { nil: undefined }), annotations: fc.option(fc.constant({ readOnlyHint: true }), { nil: undefined }) }), { maxLength: 2 }) }),
      'tools/call': fc.record({ content: fc.array(content, { maxLength: 2 }), structuredContent: fc.option(fc.constant({ a: 1 }), { nil: undefined }) }),
    };
    let skipped = 0;
    for (const [method, arb] of Object.entries(results)) {
      for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
        if (needsShaping(method, version)) continue;
        skipped++;
        await fc.assert(
          fc.asyncProperty(arb, async (r) => {
            const result = strip(r);
            expect(await shapeResult(method, result, version, { resolve: async () => null })).toEqual(result);
          }),
          { numRuns: 40 },
        );
      }
      // The oldest version always needs shaping for each of these methods.
      expect(needsShaping(method, '2024-11-05')).toBe(true);
    }
    expect(skipped).toBeGreaterThan(8);
    expect(needsShaping('prompts/get', '2025-06-18')).toBe(false);
  });
});
