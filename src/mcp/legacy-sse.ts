// The deprecated HTTP+SSE transport of protocol 2024-11-05 (`GET /sse` opens the
// stream and names the POST endpoint; `POST /messages?sessionId=` carries requests),
// served beside Streamable HTTP as the spec's backwards-compatibility section
// suggests, so clients that only know it still work. The SDK's own server
// transport does the protocol work; it writes to Node's response directly, so the
// handlers hand the raw request/response to it and tell Hono the response is sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Core } from '../core/index.js';
import { connectMcpServer, createMcpServer, type McpServerOptions } from './server.js';
import type { ErrorLog } from './errors.js';
import { MAX_BODY_BYTES, holdsRequest, readJsonBody } from './json-body.js';
import type { SessionTable } from './session-table.js';
import { sessionAuthFor } from './session-label.js';
import { observeMcpTransport } from './observe.js';
import type { McpMetrics } from '../metrics/metrics.js';
import { sessionBinding, type McpPrincipal } from './mcp-auth.js';
import type { McpSessionAuth } from '../core/mcp-scope.js';

export const LEGACY_SSE_PATH = '/sse';
export const LEGACY_MESSAGES_PATH = '/messages';

export interface LegacySseOptions extends Pick<McpServerOptions, 'pageSize' | 'tools' | 'promptTools' | 'maxSubscriptions'> {
  core: Core;
  log: ErrorLog;
  /**
   * The same admission checks as /mcp (Host/Origin, bearer token): a refusal
   * Response, or the admitted principal.
   */
  check(c: Context): Response | McpPrincipal | Promise<Response | McpPrincipal>;
  /** What a new session of this principal is (its scope for `?label=`, who it is), or a refusal. */
  sessionFor(c: Context, principal: McpPrincipal): Promise<McpSessionAuth | Response>;
  /** The session table shared with /mcp: caps, eviction and expiry. */
  table: SessionTable;
  /** The address a per-client cap counts against. */
  clientOf(c: Context): string;
  metrics?: McpMetrics;
}

interface LegacySession {
  transport: SSEServerTransport;
  principal: string;
  server: Server;
  auth: McpSessionAuth;
}

const legacyError = (c: Context, status: 400 | 404 | 413 | 415 | 500, message: string) => c.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, status);

function nodeObjects(c: Context): { req: IncomingMessage; res: ServerResponse } | undefined {
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  return env?.incoming && env.outgoing ? { req: env.incoming, res: env.outgoing } : undefined;
}

export function createLegacySseApp(opts: LegacySseOptions) {
  const { core, log } = opts;
  const sessions = new Map<string, LegacySession>();
  const app = new Hono();

  app.get(LEGACY_SSE_PATH, async (c) => {
    const principal = await opts.check(c);
    if (principal instanceof Response) return principal;
    const node = nodeObjects(c);
    if (!node) return legacyError(c, 500, 'the legacy SSE transport needs the Node HTTP server');
    const auth = await opts.sessionFor(c, principal);
    if (auth instanceof Response) return auth;
    const label = auth.scope.label;
    const transport = new SSEServerTransport(LEGACY_MESSAGES_PATH, node.res);
    const server = createMcpServer({ core, pageSize: opts.pageSize, tools: opts.tools, promptTools: opts.promptTools, maxSubscriptions: opts.maxSubscriptions, log, label, auth, transport: 'sse' });
    // The stream is the session: it holds one stream for its whole life, so only the
    // unused-session expiry and eviction at a cap apply, not the idle timeout.
    opts.table.reserve(opts.clientOf(c)).commit(transport.sessionId, () => server.close(), { streams: 1 });
    const inner = transport.onclose;
    transport.onclose = () => {
      inner?.();
      sessions.delete(transport.sessionId);
      opts.table.remove(transport.sessionId);
    };
    sessions.set(transport.sessionId, { transport, server, principal: sessionBinding(principal), auth });
    // connect() starts the transport: headers and the `endpoint` event go out now.
    await connectMcpServer(server, transport, core);
    if (opts.metrics) observeMcpTransport(transport, opts.metrics, { transport: 'sse', label });
    return RESPONSE_ALREADY_SENT;
  });

  app.post(LEGACY_MESSAGES_PATH, async (c) => {
    const principal = await opts.check(c);
    if (principal instanceof Response) return principal;
    const id = c.req.query('sessionId') ?? '';
    const session = sessions.get(id);
    if (!session || session.principal !== sessionBinding(principal)) return legacyError(c, 404, 'Session not found: it expired or was closed; open a new stream with GET /sse');
    if (Number(c.req.header('content-length')) > MAX_BODY_BYTES) return legacyError(c, 413, `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`);
    const node = nodeObjects(c);
    if (!node) return legacyError(c, 500, 'the legacy SSE transport needs the Node HTTP server');
    const read = await readJsonBody(c);
    if (read && 'refused' in read) return read.refused;
    opts.table.touch(id, !read || holdsRequest(read.body));
    try {
      await session.transport.handlePostMessage(node.req, node.res, read?.body);
    } catch (e) {
      // The transport has already answered (400/500); keep the cause for the log.
      log('legacy SSE message refused', e);
    }
    return RESPONSE_ALREADY_SENT;
  });

  return {
    app,
    sessionCount: () => sessions.size,
    sessionAuth: (id: string) => sessions.get(id)?.auth,
    /** Ends the sessions a revoked token opened. */
    closeToken(tokenId: number) {
      for (const s of sessions.values()) if (s.auth.tokenId === tokenId) s.server.close().catch((e) => log('closing a legacy SSE session failed', e));
    },
    async closeAll() {
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch((e) => log('closing a legacy SSE session failed', e))));
      sessions.clear();
    },
  };
}
