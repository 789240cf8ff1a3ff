// What every admin API and /mcp response must look like, whatever was sent.
// Returns a description of the violation, or null. Shared with bench/soak.ts.

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the body (cancelling event streams) and checks: no 5xx; errors are RFC 9457 problem+json. */
export async function checkRestResponse(res: Response, method: string): Promise<string | null> {
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return res.status === 200 ? null : `event stream with status ${res.status}`;
  }
  const text = await res.text();
  if (res.status >= 500) return `status ${res.status}: ${text.slice(0, 300)}`;
  if (res.status < 400 || method === 'HEAD') return null;
  // Node's HTTP parser refuses a request line + headers over 16 KB before the app sees it.
  if (res.status === 431 && !text) return null;
  if (!type.startsWith('application/problem+json')) return `status ${res.status} with content-type "${type}": ${text.slice(0, 200)}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${res.status}: problem body is not JSON: ${text.slice(0, 200)}`;
  }
  if (!isObj(body)) return 'problem body is not an object';
  if (body.status !== res.status) return `problem status ${String(body.status)} != HTTP status ${res.status}`;
  if (typeof body.title !== 'string' || typeof body.detail !== 'string' || typeof body.type !== 'string') return `problem lacks type/title/detail: ${text.slice(0, 200)}`;
  if (body.errors !== undefined) {
    if (!Array.isArray(body.errors) || !body.errors.every((e) => isObj(e) && typeof e.path === 'string' && typeof e.message === 'string')) {
      return `problem errors malformed: ${text.slice(0, 200)}`;
    }
  }
  return null;
}

const isRpcError = (m: unknown) =>
  isObj(m) && m.jsonrpc === '2.0' && isObj(m.error) && Number.isInteger(m.error.code) && typeof m.error.message === 'string' && 'id' in m;
const isRpcResult = (m: unknown) => isObj(m) && m.jsonrpc === '2.0' && 'result' in m && 'id' in m;

/** JSON-RPC messages in a /mcp response body: JSON (one message or a batch) or SSE `data:` lines. */
export function rpcMessages(type: string, text: string): unknown[] | string {
  if (type.startsWith('text/event-stream')) {
    const out: unknown[] = [];
    for (const line of text.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (!data) continue;
      try {
        out.push(JSON.parse(data));
      } catch {
        return `SSE data is not JSON: ${data.slice(0, 200)}`;
      }
    }
    return out;
  }
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v : [v];
  } catch {
    return `body is not JSON: ${text.slice(0, 200)}`;
  }
}

/**
 * /mcp: no 5xx; an error status carries a JSON-RPC error (or problem+json from the
 * outer app); every message in a 200 is a well-formed result, error or notification.
 */
export interface McpStats {
  /** -32603 replies that are really invalid params rejected by the SDK before our handlers run. */
  sdkInvalidParams: number;
}

/** The SDK's request-schema failure: the message is a JSON array of zod issues. */
export function isSdkParamsError(message: string): boolean {
  try {
    const issues = JSON.parse(message);
    return Array.isArray(issues) && issues.length > 0 && issues.every((i) => isObj(i) && typeof i.code === 'string' && Array.isArray(i.path));
  } catch {
    return false;
  }
}

export async function checkMcpResponse(res: Response, stats?: McpStats): Promise<string | null> {
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (res.status >= 500) return `status ${res.status}: ${text.slice(0, 300)}`;
  if (res.status === 202 || res.status === 204 || (res.status === 200 && !text)) return null;
  if (res.status === 405) return null; // method not allowed (e.g. PUT): the SDK answers with a JSON-RPC error or an empty body
  if (type.startsWith('application/problem+json')) return res.status >= 400 ? null : `problem+json with status ${res.status}`;
  const msgs = rpcMessages(type, text);
  if (typeof msgs === 'string') return `status ${res.status}: ${msgs}`;
  for (const m of msgs) {
    if (res.status >= 400 && !isRpcError(m)) return `status ${res.status} without a JSON-RPC error: ${text.slice(0, 200)}`;
    const notification = isObj(m) && m.jsonrpc === '2.0' && typeof m.method === 'string' && !('id' in m);
    if (!isRpcError(m) && !isRpcResult(m) && !notification) return `malformed JSON-RPC message: ${JSON.stringify(m).slice(0, 200)}`;
    if (isRpcError(m)) {
      const { code, message } = (m as { error: { code: number; message: string } }).error;
      // -32603 (internal error) means an unhandled exception behind a well-formed reply,
      // except for the SDK's own params check, which answers -32603 with the zod issue
      // list instead of -32602 (modelcontextprotocol/typescript-sdk#2284): counted apart.
      if (code === -32603) {
        if (!isSdkParamsError(message)) return `internal error: ${text.slice(0, 300)}`;
        if (stats) stats.sdkInvalidParams++;
      }
    }
  }
  return null;
}
