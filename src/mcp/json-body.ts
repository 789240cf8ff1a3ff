// Reading a JSON-RPC POST body straight from Node, shared by /mcp and the legacy
// SSE transport, and telling whether it holds a request (for session expiry).
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Bodies the fast path (src/mcp/fast-path.ts) already read before handing a request
 * to the Hono app: the parsed JSON, or why it could not be had.
 */
export const preRead = new WeakMap<IncomingMessage, { body: unknown } | { error: 'parse' | 'too-large' | 'read' }>();

export function rpcError(c: Context, status: 400 | 401 | 403 | 404 | 413 | 429 | 503, code: number, message: string, headers: Record<string, string> = {}) {
  return c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status, headers);
}

/**
 * True when the body holds a JSON-RPC request other than initialize. Notifications
 * (notifications/initialized included) cost the client nothing, so they do not
 * keep an otherwise unused session alive.
 */
export function holdsRequest(body: unknown): boolean {
  const one = (m: unknown) => typeof m === 'object' && m !== null && 'id' in m && 'method' in m && (m as { method: unknown }).method !== 'initialize';
  return Array.isArray(body) ? body.some(one) : one(body);
}

/**
 * The JSON body of a POST, read straight from Node's IncomingMessage when the app
 * runs under @hono/node-server (c.env.incoming). The SDK transport would read it
 * through a WHATWG ReadableStream that node-server builds per request, the largest
 * avoidable cost on the prompts/get path; it accepts the parsed body instead.
 * undefined: not applicable here (no Node request, not JSON, declared too large),
 * and the transport reads and checks the body itself.
 */
export function readJsonBody(c: Context): Promise<{ body: unknown } | { refused: Response }> | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const early = incoming && preRead.get(incoming);
  if (early) {
    if ('body' in early) return Promise.resolve(early);
    if (early.error === 'parse') return Promise.resolve({ refused: rpcError(c, 400, -32700, 'Parse error: Invalid JSON') });
    if (early.error === 'too-large') return Promise.resolve({ refused: rpcError(c, 413, -32000, `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`) });
    return Promise.resolve({ refused: rpcError(c, 400, -32000, 'Bad Request: the request body could not be read') });
  }
  if (!incoming || c.req.method !== 'POST' || incoming.readableDidRead || incoming.readableEnded) return undefined;
  if (!(c.req.header('content-type') ?? '').includes('application/json')) return undefined;
  if (Number(c.req.header('content-length')) > MAX_BODY_BYTES) return undefined;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (r: { body: unknown } | { refused: Response }) => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onError);
      resolve(r);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        incoming.pause();
        done({ refused: rpcError(c, 413, -32000, `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`) });
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      try {
        done({ body: JSON.parse(Buffer.concat(chunks, size).toString('utf8')) });
      } catch {
        done({ refused: rpcError(c, 400, -32700, 'Parse error: Invalid JSON') });
      }
    };
    const onError = () => done({ refused: rpcError(c, 400, -32000, 'Bad Request: the request body could not be read') });
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onError);
  });
}
