// MCP over Streamable HTTP, as a Hono app mounted at /mcp by the composition root.
// One SDK transport + one MCP server per session (Mcp-Session-Id); the SDK's
// web-standard transport does the protocol work (POST, GET notification stream,
// DELETE, protocol-version and body-size checks). This file adds what is ours:
// the session table, idle clean-up, DNS-rebinding protection and the bearer token.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Hono, type Context } from 'hono';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Core } from '../core/index.js';
import { connectMcpServer, createMcpServer } from './server.js';
import type { ErrorLog } from './errors.js';
import { createLegacySseApp } from './legacy-sse.js';

export interface McpHttpLogger {
  info(...a: unknown[]): void;
  error(...a: unknown[]): void;
}

export interface McpHttpOptions {
  core: Core;
  /** PROMPTD_MCP_TOKEN: when set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** The interface the server is bound to; loopback turns on Host/Origin checks. */
  host: string;
  /** The bound port; read on every request, so a getter resolved after listen works. */
  port: number;
  /** Sessions without a request for this long are closed (default 30 min). */
  sessionIdleMs?: number;
  logger?: McpHttpLogger;
  pageSize?: number;
  /** The tools face (default on) and per-prompt tools (default off). */
  tools?: boolean;
  promptTools?: boolean;
  /**
   * PROMPTD_INSTANCE_ID: prefixes every Mcp-Session-Id with "<id>-" so a load
   * balancer can route a session's requests to the instance that holds it.
   */
  instanceId?: string;
  /** Cap on concurrent sessions, so unauthenticated initialize floods cannot exhaust memory (default 1000). */
  maxSessions?: number;
}

export interface McpHttpApp {
  app: Hono;
  /** The deprecated HTTP+SSE transport (GET /sse, POST /messages), mounted at the root. */
  legacyApp: Hono;
  closeAll(): Promise<void>;
  sessionCount(): number;
}

interface Entry {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
  /** Open GET notification streams: a client listening is not idle. */
  streams: number;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export const isLoopbackHost = (host: string) => ['localhost', '::1', '[::1]'].includes(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

function rpcError(c: Context, status: 400 | 401 | 403 | 404 | 413 | 503, code: number, message: string, headers: Record<string, string> = {}) {
  return c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status, headers);
}

/**
 * DNS rebinding: a page on evil.example.com whose name resolves to 127.0.0.1 can
 * reach a loopback server, but its requests carry `Host: evil.example.com` and
 * its Origin. Only loopback names (any port for Origin, ours for Host) pass.
 * Returns the refusal, or undefined when the request may pass.
 */
function rebindingCheck(opts: McpHttpOptions): (c: Context) => Response | undefined {
  if (!isLoopbackHost(opts.host)) return () => undefined;
  // The port is known only after listen (port 0 in tests): recompute when it changes.
  let forPort = -1;
  let allowed = new Set<string>();
  return (c) => {
    const port = opts.port;
    if (port !== forPort) {
      allowed = new Set(LOOPBACK_NAMES.flatMap((n) => [n, `${n}:${port}`]));
      forPort = port;
    }
    const host = (c.req.header('host') ?? '').toLowerCase();
    if (!allowed.has(host)) return rpcError(c, 403, -32000, `Forbidden: Host "${host}" is not allowed on a loopback-bound server`);
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      let name = '';
      try {
        name = new URL(origin).hostname.toLowerCase();
      } catch {
        /* "null" or garbage: rejected below */
      }
      if (!LOOPBACK_NAMES.includes(name)) return rpcError(c, 403, -32000, `Forbidden: Origin "${origin}" is not allowed`);
    }
    return undefined;
  };
}

function bearerCheck(token: string | undefined): (c: Context) => Response | undefined {
  if (!token) return () => undefined;
  // Comparing fixed-length digests keeps the comparison constant-time whatever the
  // length of the presented token.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  const expected = digest(token);
  return (c) => {
    const m = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '');
    if (!m || !timingSafeEqual(digest(m[1]!.trim()), expected)) {
      return rpcError(c, 401, -32001, 'Unauthorized: send Authorization: Bearer <PROMPTD_MCP_TOKEN>', {
        'WWW-Authenticate': 'Bearer realm="promptd-mcp"',
      });
    }
    return undefined;
  };
}

/**
 * The JSON body of a POST, read straight from Node's IncomingMessage when the app
 * runs under @hono/node-server (c.env.incoming). The SDK transport would read it
 * through a WHATWG ReadableStream that node-server builds per request, the largest
 * avoidable cost on the prompts/get path; it accepts the parsed body instead.
 * undefined: not applicable here (no Node request, not JSON, declared too large),
 * and the transport reads and checks the body itself.
 */
function readJsonBody(c: Context): Promise<{ body: unknown } | { refused: Response }> | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
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

/** Counts the GET stream as activity while it is open; the bytes pass through untouched. */
function watchStream(res: Response, entry: Entry): Response {
  const reader = res.body!.getReader();
  entry.streams++;
  let open = true;
  const end = () => {
    if (open) {
      open = false;
      entry.streams--;
      entry.lastSeen = Date.now();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
        } else controller.enqueue(value);
      } catch (e) {
        end();
        controller.error(e);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

export function createMcpHttpApp(opts: McpHttpOptions): McpHttpApp {
  const { core, logger } = opts;
  const idleMs = opts.sessionIdleMs ?? 30 * 60_000;
  const sessions = new Map<string, Entry>();
  let sweeper: NodeJS.Timeout | undefined;

  const log: ErrorLog = (msg, e) => {
    if (logger) logger.error({ err: e }, `mcp: ${msg}`);
    else process.stderr.write(`promptd mcp: ${msg}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  };

  const closeEntry = async (e: Entry) => {
    try {
      await e.server.close(); // closes the transport, which drops the session below
    } catch (err) {
      log('closing a session failed', err);
    }
  };

  function sweep() {
    const cutoff = Date.now() - idleMs;
    for (const [id, e] of sessions) {
      if (e.streams === 0 && e.lastSeen < cutoff) {
        logger?.info({ session: id }, 'mcp: closing idle session');
        void closeEntry(e);
      }
    }
  }

  function track(id: string, entry: Entry) {
    sessions.set(id, entry);
    sweeper ??= setInterval(sweep, Math.max(1_000, Math.min(idleMs / 2, 60_000))).unref();
  }

  async function newSession(c: Context): Promise<Response> {
    let entry: Entry | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => (opts.instanceId ? `${opts.instanceId}-${randomUUID()}` : randomUUID()),
      onsessioninitialized: (id) => {
        if (entry) track(id, entry);
      },
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    // Set before connect(): the SDK chains it with its own close handling.
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = createMcpServer({ core, pageSize: opts.pageSize, tools: opts.tools, promptTools: opts.promptTools, log });
    entry = { transport, server, lastSeen: Date.now(), streams: 0 };
    await connectMcpServer(server, transport, core);
    const res = await transport.handleRequest(c.req.raw);
    // Not an initialize request (the transport answered 400): nothing to keep.
    if (!transport.sessionId) await server.close();
    return res;
  }

  const rebinding = rebindingCheck(opts);
  const bearer = bearerCheck(opts.token);
  const maxSessions = opts.maxSessions ?? 1000;
  // Same checks, same cap and the same notifier fan-out as /mcp.
  const legacy = createLegacySseApp({
    core,
    log,
    pageSize: opts.pageSize,
    tools: opts.tools,
    promptTools: opts.promptTools,
    check: (c) => rebinding(c) ?? bearer(c),
    admit: (c) =>
      sessions.size + legacy.sessionCount() >= maxSessions
        ? rpcError(c, 503, -32000, 'Too many open sessions; close one or retry later', { 'Retry-After': '30' })
        : () => {},
  });
  const app = new Hono();
  // One handler with the checks inline rather than middleware: this is the
  // prompts/get hot path, and each composed middleware costs a few µs per request.
  app.all('/', async (c) => {
    const refused = rebinding(c) ?? bearer(c);
    if (refused) return refused;
    const id = c.req.header('mcp-session-id');
    if (id === undefined) {
      if (c.req.method !== 'POST') return rpcError(c, 400, -32000, 'Bad Request: Mcp-Session-Id header is required (POST an initialize request first)');
      if (sessions.size + legacy.sessionCount() >= maxSessions) return rpcError(c, 503, -32000, 'Too many open sessions; close one (DELETE) or retry later', { 'Retry-After': '30' });
      return newSession(c);
    }
    const entry = sessions.get(id);
    if (!entry) return rpcError(c, 404, -32001, 'Session not found: it expired or was closed; initialize a new session');
    entry.lastSeen = Date.now();
    const read = await readJsonBody(c);
    if (read && 'refused' in read) return read.refused;
    const res = await entry.transport.handleRequest(c.req.raw, read ? { parsedBody: read.body } : undefined);
    return c.req.method === 'GET' && res.ok && res.body ? watchStream(res, entry) : res;
  });

  return {
    app,
    legacyApp: legacy.app,
    async closeAll() {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      await Promise.all([...sessions.values()].map(closeEntry).concat(legacy.closeAll()));
      sessions.clear();
    },
    sessionCount: () => sessions.size + legacy.sessionCount(),
  };
}
