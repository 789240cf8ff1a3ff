// Request body size limit (413). Like hono/body-limit, but the buffered body is put
// back as a new Request built from the URL, never from the incoming request object:
// @hono/node-server's lightweight request is not a native Request, and
// `new Request(lightweight, init)` throws unless node-server has replaced the global
// Request (overrideGlobalObjects), which the server does not rely on.
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';

export function bodyLimit(maxSize: number): MiddlewareHandler {
  const tooLarge = () => {
    throw new HTTPException(413, { message: 'request body is larger than this endpoint accepts' });
  };
  return async (c, next) => {
    const raw = c.req.raw;
    // The headers first: `raw.body` makes @hono/node-server build a full Request (a web
    // stream over the socket, an AbortController) for what a declared length settles;
    // then the JSON is read through that stream instead of straight from the socket
    // (~8% of a version write's server CPU, bench/writes-server-prof.ts).
    const length = raw.headers.get('content-length');
    if (length !== null && !raw.headers.has('transfer-encoding')) return Number(length) > maxSize ? tooLarge() : next();
    if (!raw.body) return next();
    // No (trusted) length: read at most maxSize bytes, then hand the buffered body on.
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxSize) {
        await reader.cancel().catch(() => {});
        return tooLarge();
      }
      chunks.push(value);
    }
    const body = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      body.set(chunk, at);
      at += chunk.length;
    }
    const headers = new Headers(raw.headers);
    headers.delete('transfer-encoding');
    headers.set('content-length', String(size));
    c.req.raw = new Request(raw.url, { method: raw.method, headers, body, signal: raw.signal });
    return next();
  };
}
