// The full app with /mcp mounted, driven through app.request() with raw JSON-RPC:
// no SDK client in between, so tests see exactly what goes over the wire.
import type { Core } from '../../src/core/index.js';
import { createApp } from '../../src/http/app.js';
import { createMcpHttpApp, type McpHttpOptions } from '../../src/mcp/http.js';
import { rpcMessages } from './invariants.js';

export const MCP_PORT = 3999;

export interface RpcReply {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export function mcpHarness(core: Core, opts: Partial<McpHttpOptions> = {}) {
  const mcp = createMcpHttpApp({ core, host: '127.0.0.1', port: MCP_PORT, ...opts } as McpHttpOptions);
  const app = createApp({ core, mcp: mcp.app });
  const headers = { host: `localhost:${MCP_PORT}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

  const post = (body: string | Uint8Array, extra: Record<string, string> = {}) =>
    app.request('/mcp', { method: 'POST', headers: { ...headers, ...extra }, body: body as BodyInit });

  async function initialize(extra: Record<string, string> = {}): Promise<string> {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } }), extra);
    const text = await res.text();
    const sid = res.headers.get('mcp-session-id');
    if (res.status !== 200 || !sid) throw new Error(`initialize: ${res.status} ${text}`);
    const ack = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { ...extra, 'mcp-session-id': sid });
    if (ack.status !== 202) throw new Error(`notifications/initialized: ${ack.status}`);
    return sid;
  }

  async function rpc(sid: string, method: string, params: unknown = {}, extra: Record<string, string> = {}): Promise<RpcReply> {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }), { ...extra, 'mcp-session-id': sid });
    const msgs = rpcMessages(res.headers.get('content-type') ?? '', await res.text());
    if (typeof msgs === 'string') throw new Error(msgs);
    return { status: res.status, ...(msgs[0] as object) };
  }

  return { app, mcp, headers, post, initialize, rpc };
}
