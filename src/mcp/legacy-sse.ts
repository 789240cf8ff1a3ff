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

export const LEGACY_SSE_PATH = '/sse';
export const LEGACY_MESSAGES_PATH = '/messages';
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface LegacySseOptions extends Pick<McpServerOptions, 'pageSize' | 'tools' | 'promptTools'> {
  core: Core;
  log: ErrorLog;
  /**
   * The same admission checks as /mcp (Host/Origin, bearer token): a refusal
   * Response, or undefined to let the request pass.
   */
  check(c: Context): Response | undefined | Promise<Response | undefined>;
  /** Asks the shared session table for room; a refusal Response, or a release function. */
  admit(c: Context, close: () => Promise<void>): Response | (() => void);
  /** Marks a session active (idle expiry is the shared table's). */
  touch?(sessionId: string): void;
}

interface LegacySession {
  transport: SSEServerTransport;
  server: Server;
  release: () => void;
}

const rpcError = (c: Context, status: 400 | 404 | 413 | 415 | 500, message: string) => c.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, status);

function nodeObjects(c: Context): { req: IncomingMessage; res: ServerResponse } | undefined {
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  return env?.incoming && env.outgoing ? { req: env.incoming, res: env.outgoing } : undefined;
}

export function createLegacySseApp(opts: LegacySseOptions) {
  const { core, log } = opts;
  const sessions = new Map<string, LegacySession>();
  const app = new Hono();

  app.get(LEGACY_SSE_PATH, async (c) => {
    const refused = await opts.check(c);
    if (refused) return refused;
    const node = nodeObjects(c);
    if (!node) return rpcError(c, 500, 'the legacy SSE transport needs the Node HTTP server');
    const transport = new SSEServerTransport(LEGACY_MESSAGES_PATH, node.res);
    const server = createMcpServer({ core, pageSize: opts.pageSize, tools: opts.tools, promptTools: opts.promptTools, log });
    const admitted = opts.admit(c, () => server.close());
    if (admitted instanceof Response) return admitted;
    const session: LegacySession = { transport, server, release: admitted };
    const inner = transport.onclose;
    transport.onclose = () => {
      inner?.();
      if (sessions.delete(transport.sessionId)) session.release();
    };
    sessions.set(transport.sessionId, session);
    // connect() starts the transport: headers and the `endpoint` event go out now.
    await connectMcpServer(server, transport, core);
    return RESPONSE_ALREADY_SENT;
  });

  app.post(LEGACY_MESSAGES_PATH, async (c) => {
    const refused = await opts.check(c);
    if (refused) return refused;
    const id = c.req.query('sessionId') ?? '';
    const session = sessions.get(id);
    if (!session) return rpcError(c, 404, 'Session not found: it expired or was closed; open a new stream with GET /sse');
    if (Number(c.req.header('content-length')) > MAX_BODY_BYTES) return rpcError(c, 413, `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`);
    const node = nodeObjects(c);
    if (!node) return rpcError(c, 500, 'the legacy SSE transport needs the Node HTTP server');
    opts.touch?.(id);
    try {
      await session.transport.handlePostMessage(node.req, node.res);
    } catch (e) {
      // The transport has already answered (400/500); keep the cause for the log.
      log('legacy SSE message refused', e);
    }
    return RESPONSE_ALREADY_SENT;
  });

  return {
    app,
    sessionCount: () => sessions.size,
    async closeAll() {
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch((e) => log('closing a legacy SSE session failed', e))));
      sessions.clear();
    },
  };
}
