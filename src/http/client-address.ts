// The client address a per-client limit counts against (MCP session caps, rate limits).
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * The socket's peer address; with PROMPTD_TRUST_PROXY, the last X-Forwarded-For entry
 * (the one our own proxy appended: earlier entries are the client's to forge).
 */
export function clientAddress(c: Context, trustProxy = false): string {
  if (trustProxy) {
    const last = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (last) return last.replace(/^::ffff:/, '');
  }
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return (incoming?.socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
}
