// prompts/get dispatched directly (src/mcp/direct-dispatch.ts) answers exactly what the
// SDK's own dispatch answers: the same requests, raw JSON-RPC, to a server connected
// with connectMcpServer and to one connected the SDK's way (server.connect plus the
// same shaping), compared message for message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Core } from '../../src/core/index.js';
import { connectMcpServer, createMcpServer } from '../../src/mcp/server.js';
import { shapeByNegotiatedVersion } from '../../src/mcp/protocol-shape.js';
import { createPrompt, newCore, textPrompt } from './helpers.js';
import type { TestCore } from '../helpers/db.js';

type Message = Record<string, unknown>;

/** A raw JSON-RPC peer: every message the server sends, in order. */
async function rawPeer(core: Core, connect: (server: ReturnType<typeof createMcpServer>, t: Transport) => Promise<void>, protocolVersion: string) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ core, log: () => {} });
  await connect(server, serverSide);
  const received: Message[] = [];
  const waiting = new Map<unknown, () => void>();
  clientSide.onmessage = (m) => {
    received.push(m as Message);
    const id = (m as Message).id;
    if (id !== undefined) waiting.get(id)?.();
  };
  await clientSide.start();
  const send = async (m: Message) => {
    const answered = 'id' in m ? new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${JSON.stringify(m)}`)), 5_000);
      waiting.set(m.id, () => (clearTimeout(timer), resolve()));
    }) : Promise.resolve();
    await clientSide.send(m as JSONRPCMessage);
    await answered;
  };
  await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
  await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  received.length = 0;
  /** Sends without waiting for an answer. */
  const post = (m: Message) => clientSide.send(m as JSONRPCMessage);
  return { send, post, received, close: () => clientSide.close() };
}

const REQUESTS: Message[] = [
  { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Ada' } } },
  { jsonrpc: '2.0', id: 'two', method: 'prompts/get', params: { name: 'typed', arguments: { ratio: '0.5', who: 'x' } } },
  { jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'greet' } },
  { jsonrpc: '2.0', id: 4, method: 'prompts/get', params: { name: 'nobody', arguments: {} } },
  { jsonrpc: '2.0', id: 5, method: 'prompts/get', params: {} },
  { jsonrpc: '2.0', id: 6, method: 'prompts/get', params: { name: 42 } },
  { jsonrpc: '2.0', id: 7, method: 'prompts/get', params: { name: 'greet', arguments: { who: 7 } } },
  { jsonrpc: '2.0', id: 8, method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Ada' }, extra: true, _meta: { progressToken: 'p' } } },
  { jsonrpc: '2.0', id: 9, method: 'prompts/get' },
  { jsonrpc: '2.0', id: 11, method: 'prompts/get', params: { name: 'typed', arguments: { ratio: 'lots', who: 'x' } } },
  { jsonrpc: '2.0', id: 12, method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Ada' }, task: { ttl: 1000 } } },
  { jsonrpc: '2.0', id: 13, method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Ada' }, _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } } },
  { jsonrpc: '2.0', id: 14, method: 'prompts/list', params: {} },
  { jsonrpc: '2.0', id: 15, method: 'prompts/list' },
  { jsonrpc: '2.0', id: 16, method: 'prompts/list', params: { cursor: 'not-a-cursor' } },
  { jsonrpc: '2.0', id: 17, method: 'prompts/list', params: { cursor: 42 } },
  { jsonrpc: '2.0', id: 18, method: 'prompts/list', params: { _meta: { progressToken: 'p' } } },
  { jsonrpc: '2.0', id: 19, method: 'tools/list', params: {} },
];

describe('prompts/get dispatched directly', () => {
  let core: TestCore;
  beforeAll(async () => {
    core = await newCore();
    await createPrompt(core, textPrompt('greet'));
    await createPrompt(core, textPrompt('typed', 'Hello {{who}} at {{ratio}}', { arguments: [{ name: 'who', required: true }, { name: 'ratio', type: 'number', default: 0.25 }] }));
    await core.catalog.ready();
  });
  afterAll(() => core.close());

  for (const version of ['2025-06-18', '2024-11-05']) {
    it(`answers what the SDK's dispatch answers, request by request (protocol ${version})`, async () => {
      const direct = await rawPeer(core, (s, t) => connectMcpServer(s, t, core), version);
      const sdk = await rawPeer(
        core,
        async (s, t) => {
          await s.connect(t);
          shapeByNegotiatedVersion(t, { resolve: (uri) => core.resolver.resolve(uri) });
        },
        version,
      );
      for (const r of REQUESTS) {
        await direct.send(r);
        await sdk.send(r);
      }
      expect(direct.received.length).toBe(REQUESTS.length);
      expect(direct.received).toEqual(sdk.received);
      // Not vacuous: results and both kinds of error are among the answers.
      expect(direct.received.filter((m) => 'result' in m).length).toBeGreaterThanOrEqual(3);
      const errors = direct.received.flatMap((m) => ('error' in m ? [m.error as { code: number; message: string }] : []));
      expect(errors.filter((e) => e.code === -32602).length).toBeGreaterThanOrEqual(5);
      // A person reads these: no "MCP error -32602: " prefix (clients add their own).
      expect(errors.find((e) => e.message.startsWith('Invalid params for prompts/get: params.name'))).toBeDefined();
      expect(errors.every((e) => !e.message.startsWith('MCP error'))).toBe(true);
      await direct.close();
      await sdk.close();
    });
  }

  it('answers nothing to a prompts/get the client cancelled while it was in flight, as the SDK does', async () => {
    const connectors = {
      direct: (s: ReturnType<typeof createMcpServer>, t: Transport) => connectMcpServer(s, t, core),
      sdk: async (s: ReturnType<typeof createMcpServer>, t: Transport) => {
        await s.connect(t);
        shapeByNegotiatedVersion(t, { resolve: (uri) => core.resolver.resolve(uri) });
      },
    };
    const seen: Record<string, Message[]> = {};
    for (const [name, connect] of Object.entries(connectors)) {
      const peer = await rawPeer(core, connect, '2025-06-18');
      // The cancellation reaches the server before the render's answer is sent.
      const get = peer.post({ jsonrpc: '2.0', id: 20, method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Ada' } } });
      const cancel = peer.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 20, reason: 'user gave up' } });
      await Promise.all([get, cancel]);
      // A later request on the same session is answered, and after it nothing for id 20 can still be pending.
      await peer.send({ jsonrpc: '2.0', id: 21, method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Bo' } } });
      // A cancellation for a request already answered changes nothing.
      await peer.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 21 } });
      await peer.send({ jsonrpc: '2.0', id: 22, method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Cy' } } });
      seen[name] = [...peer.received];
      await peer.close();
    }
    expect(seen.direct!.map((m) => m.id)).toEqual([21, 22]);
    expect(seen.direct).toEqual(seen.sdk);
  });
});
