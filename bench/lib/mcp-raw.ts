// A minimal MCP Streamable HTTP client session on node:http with one keep-alive
// connection per session: initialize, notifications/initialized, then JSON-RPC
// requests whose answers may come as JSON or as a one-event SSE stream. Used by the
// load generator so that the client side costs little next to the server.
import http from 'node:http';

export const PROTOCOL_VERSION = '2025-06-18';

export interface RpcResult {
  result?: unknown;
  error?: { code: number; message: string };
}

function post(agent: http.Agent, url: URL, headers: Record<string, string>, body: string, method = 'POST'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC message answering `id`, from a JSON body or an SSE body. */
export function parseAnswer(contentType: string | undefined, body: string, id: number): RpcResult {
  if (contentType?.startsWith('text/event-stream')) {
    for (const line of body.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const msg = JSON.parse(line.slice(5)) as RpcResult & { id?: number };
      if (msg.id === id) return msg;
    }
    throw new Error(`no answer to request ${id} in the event stream`);
  }
  return JSON.parse(body) as RpcResult;
}

export class RawSession {
  private agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private nextId = 1;
  private headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  sessionId = '';

  constructor(readonly url: URL) {}

  async open(): Promise<void> {
    const id = this.nextId++;
    const init = { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'promptd-bench', version: '1' } } };
    const r = await post(this.agent, this.url, this.headers, JSON.stringify(init));
    const sid = r.headers['mcp-session-id'];
    if (r.status !== 200 || typeof sid !== 'string') throw new Error(`initialize failed: ${r.status} ${r.body.slice(0, 300)}`);
    this.sessionId = sid;
    this.headers = { ...this.headers, 'mcp-session-id': sid, 'mcp-protocol-version': PROTOCOL_VERSION };
    const n = await post(this.agent, this.url, this.headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    if (n.status !== 202) throw new Error(`notifications/initialized: ${n.status}`);
  }

  async request(method: string, params: unknown): Promise<RpcResult> {
    const id = this.nextId++;
    const r = await post(this.agent, this.url, this.headers, JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    if (r.status !== 200) throw new Error(`${method}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    return parseAnswer(r.headers['content-type'], r.body, id);
  }

  async close(): Promise<void> {
    try {
      await post(this.agent, this.url, this.headers, '', 'DELETE');
    } catch {
      /* server already gone */
    }
    this.agent.destroy();
  }
}
