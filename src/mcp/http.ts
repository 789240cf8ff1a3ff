// MCP over Streamable HTTP, as a Hono app mounted at /mcp by the composition root.
// One SDK transport + one MCP server per session (Mcp-Session-Id); the SDK's
// web-standard transport does the protocol work (POST, GET notification stream,
// DELETE, protocol-version and body-size checks). This file adds what is ours:
// the session table (caps, expiry, eviction), DNS-rebinding protection and
// authentication (src/mcp/mcp-auth.ts: MCP client tokens, the static token, OAuth
// access tokens), with each session bound to the principal that opened it.
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Core } from '../core/index.js';
import { createHostAllowList, type HostAllowList } from '../http/host-allowlist.js';
import { connectMcpServer, createMcpServer } from './server.js';
import type { ErrorLog } from './errors.js';
import { createLegacySseApp } from './legacy-sse.js';
import { MAX_BODY_BYTES, holdsRequest, readJsonBody, rpcError } from './json-body.js';
import { createSessionTable, type SessionLimits, type SessionTable } from './session-table.js';

export { isLoopbackHost } from '../http/host-allowlist.js';
import { clientAddress } from '../http/client-address.js';
export { clientAddress };
import { sessionAuthFor } from './session-label.js';
import { callerSubject, requestSubject, rpcTooMany } from '../http/rate-limit.js';
import { observeMcpTransport } from './observe.js';
import type { McpMetrics } from '../metrics/metrics.js';
import { createMcpAuth, sessionBinding, type McpAuth, type McpPrincipal } from './mcp-auth.js';
import { fastDispatchFor, type FastDispatch, type FastPathDeps } from './fast-path.js';
import type { McpSessionAuth } from '../core/mcp-scope.js';

const MCP_METHODS = new Set(['GET', 'POST', 'DELETE']);

export interface McpHttpLogger {
  info(...a: unknown[]): void;
  error(...a: unknown[]): void;
}

export interface McpHttpOptions {
  core: Core;
  /**
   * PROMPTD_MCP_TOKEN: the shared token (full scope). When set, or when any MCP client
   * token exists, every request needs a token (src/mcp/mcp-auth.ts).
   */
  token?: string;
  /** Who may connect (src/mcp/mcp-auth.ts); default: MCP client tokens stored in `core` and the static token. */
  auth?: McpAuth;
  /** The interface the server is bound to; loopback turns on Host checks (Origin is checked on every bind). */
  host: string;
  /** The bound port; read on every request, so a getter resolved after listen works. */
  port: number;
  /** The Host allow-list shared with the rest of the app (default: built from host/port). */
  hosts?: HostAllowList;
  /** Sessions without a request (nor an open stream) for this long are closed (default 30 min). */
  sessionIdleMs?: number;
  /** Cap on concurrent sessions (default 1000); over it the least recently used one is closed. */
  maxSessions?: number;
  /** The other limits of the session table (src/mcp/session-table.ts). */
  sessions?: Partial<SessionLimits>;
  /** PROMPTD_TRUST_PROXY: the client address is the last X-Forwarded-For entry (set by our proxy). */
  trustProxy?: boolean;
  /**
   * Rate limits (docs/rate-limits.md): every HTTP request to /mcp and every legacy
   * SSE request counts against the MCP limit of the MCP client token that sent it (its
   * own limit, else the setting), of PROMPTD_MCP_TOKEN, of the OAuth subject, or of the
   * client address when the request is anonymous or its token is wrong. Off when false.
   */
  rateLimit?: boolean;
  /** Clock of the session table (tests). */
  now?: () => number;
  logger?: McpHttpLogger;
  pageSize?: number;
  /** resources/subscribe entries per session (default 100). */
  maxSubscriptions?: number;
  /** The tools face (default on) and per-prompt tools (default off). */
  tools?: boolean;
  promptTools?: boolean;
  /**
   * PROMPTD_INSTANCE_ID: prefixes every Mcp-Session-Id with "<id>-" so a load
   * balancer can route a session's requests to the instance that holds it.
   */
  instanceId?: string;
  /** Request, session and notification metrics (src/metrics); none when absent. */
  metrics?: McpMetrics;
}

export interface McpHttpApp {
  app: Hono;
  /** The deprecated HTTP+SSE transport (GET /sse, POST /messages), mounted at the root. */
  legacyApp: Hono;
  closeAll(): Promise<void>;
  sessionCount(): number;
  /** The shared session table (expiry can be driven from tests with an injected clock). */
  table: SessionTable;
  /** Who a session's client is and its scope (usage and audit). */
  sessionAuth(id: string): McpSessionAuth | undefined;
  /** What src/mcp/fast-path.ts needs to answer prompts/get below Hono (the app mounted at /mcp). */
  fastPath: FastPathDeps;
}

interface Entry {
  transport: WebStandardStreamableHTTPServerTransport;
  /** The principal that opened the session (with an OAuth token's scopes: sessionBinding): only it may use the session id (hijacking). */
  principal: string;
  close(): Promise<void>;
  /** Who opened the session: every later request must be the same caller. */
  auth: McpSessionAuth;
  fast: FastDispatch;
}

/**
 * DNS rebinding: a foreign Host or Origin is refused (the app-wide middleware checks
 * Host too; this keeps the MCP app safe when mounted on its own, and checks Origin).
 */
function rebindingCheck(hosts: HostAllowList): (c: Context) => Response | undefined {
  return (c) => {
    const host = c.req.header('host') ?? '';
    if (hosts.active && !hosts.allowsHost(host)) return rpcError(c, 403, -32000, `Forbidden: Host "${host}" is not allowed (PROMPTD_ALLOWED_HOSTS extends the list)`);
    const origin = c.req.header('origin');
    if (origin !== undefined && !hosts.allowsOrigin(origin)) return rpcError(c, 403, -32000, `Forbidden: Origin "${origin}" is not allowed (PROMPTD_ALLOWED_ORIGINS extends the list)`);
    return undefined;
  };
}

/** The shared PROMPTD_MCP_TOKEN as a caller: its rate-limit bucket and its audit actor. */
const MCP_TOKEN_CALLER = { actor: 'mcp-token', tokenId: null, name: 'PROMPTD_MCP_TOKEN' } as const;

/** The JSON-RPC id of a refused POST, so the client can match the error to its request (null: none, or a batch). */
async function rpcIdOf(c: Context): Promise<unknown> {
  if (c.req.method !== 'POST') return null;
  try {
    const read = readJsonBody(c);
    const body = read ? await read.then((r) => ('body' in r ? r.body : undefined)) : await c.req.json();
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : null;
  } catch {
    return null;
  }
}

/**
 * After the Host/Origin check: authentication (src/mcp/mcp-auth.ts: MCP client tokens,
 * the static token, OAuth access tokens), then the rate limit of whoever the request
 * counts as, then the audit's note of a token's use. A refused or anonymous request counts
 * against its address, so guessing tokens is limited too.
 */
function admissionCheck(opts: McpHttpOptions, auth: McpAuth): (c: Context) => Promise<McpPrincipal | Response> {
  const rate = opts.rateLimit ? { limiter: opts.core.rateLimiter, trustProxy: opts.trustProxy } : undefined;
  return async (c) => {
    const admitted = await auth.admit(c);
    const principal = admitted instanceof Response ? undefined : admitted;
    // A refused credential (not a 403 scope refusal, nor the issuer being down): audit and metrics (36.13).
    if (admitted instanceof Response && admitted.status === 401) {
      const presented = /^Bearer\s+(\S+)/i.exec(c.req.header('authorization') ?? '')?.[1];
      opts.core.authFailures.record({ face: 'mcp', address: clientAddress(c, opts.trustProxy), presented });
    }
    const viaToken = principal?.id === 'static-token';
    // An MCP client token counts against its own bucket, with its own per-token limit.
    const client = principal?.token;
    const clientCaller = client
      ? { actor: client.actor, tokenId: client.tokenId, name: client.tokenName, mcpRatePerMinute: client.mcpRatePerMinute, writeRatePerMinute: client.writeRatePerMinute }
      : undefined;
    if (rate) {
      const subject = clientCaller
        ? callerSubject(clientCaller)
        : viaToken
          ? callerSubject(MCP_TOKEN_CALLER)
          : principal && principal.id !== 'anonymous'
            ? callerSubject({ actor: principal.id, tokenId: null, name: principal.id })
            : requestSubject(c, rate);
      const refusal = rate.limiter.check(subject, 'mcp');
      if (refusal) return rpcTooMany(refusal, await rpcIdOf(c));
    }
    if (clientCaller) opts.core.tokenUse.used({ actor: clientCaller.actor, entityKey: String(clientCaller.tokenId), name: clientCaller.name, tokenId: clientCaller.tokenId, face: 'mcp' });
    else if (viaToken) opts.core.tokenUse.used({ ...MCP_TOKEN_CALLER, entityKey: MCP_TOKEN_CALLER.name, face: 'mcp' });
    return admitted;
  };
}

/** Counts the GET stream as activity while it is open; the bytes pass through untouched. */
function watchStream(res: Response, opened: () => void, closed: () => void): Response {
  const reader = res.body!.getReader();
  opened();
  let open = true;
  const end = () => {
    if (open) {
      open = false;
      closed();
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
  const sessions = new Map<string, Entry>();

  const log: ErrorLog = (msg, e) => {
    if (logger) logger.error({ err: e }, `mcp: ${msg}`);
    else process.stderr.write(`promptd mcp: ${msg}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  };

  const table = createSessionTable({
    limits: { ...(opts.sessionIdleMs !== undefined ? { idleMs: opts.sessionIdleMs } : {}), ...(opts.maxSessions !== undefined ? { max: opts.maxSessions } : {}), ...opts.sessions },
    now: opts.now,
    log: (msg, id) => logger?.info({ session: id }, msg),
    onError: log,
  });

  const serverOptions = { core, pageSize: opts.pageSize, tools: opts.tools, promptTools: opts.promptTools, maxSubscriptions: opts.maxSubscriptions, log };

  async function newSession(c: Context, client: string, principal: McpPrincipal): Promise<Response> {
    // `?label=staging` (or a client token's own label): the session serves that view for its whole life, if the grant allows it.
    const auth = await sessionAuthFor(c, core, mcpAuth, principal);
    if (auth instanceof Response) return auth;
    const label = auth.scope.label;
    const slot = table.reserve(client);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => (opts.instanceId ? `${opts.instanceId}-${randomUUID()}` : randomUUID()),
      onsessioninitialized: (id) => {
        sessions.set(id, entry);
        slot.commit(id, entry.close);
      },
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    // Set before connect(): the SDK chains it with its own close handling.
    transport.onclose = () => {
      entry.fast.closed();
      if (transport.sessionId) {
        sessions.delete(transport.sessionId);
        table.remove(transport.sessionId);
      }
    };
    const server = createMcpServer({ ...serverOptions, label, auth, transport: 'http' });
    // Before connect: shaping and metrics wrap send after it, so fast answers pass through them.
    const fast = fastDispatchFor(transport);
    const entry: Entry = { transport, principal: sessionBinding(principal), close: () => server.close(), auth, fast };
    try {
      await connectMcpServer(server, transport, core);
      if (opts.metrics) observeMcpTransport(transport, opts.metrics, { transport: 'streamable_http', label });
      const read = await readJsonBody(c);
      if (read && 'refused' in read) return read.refused;
      return await transport.handleRequest(c.req.raw, read ? { parsedBody: read.body } : undefined);
    } finally {
      slot.release();
      // Not an initialize request (the transport answered 400): nothing to keep.
      if (!transport.sessionId) await server.close();
    }
  }

  const hosts = opts.hosts ?? createHostAllowList({ host: opts.host, get port() { return opts.port; } });
  const rebinding = rebindingCheck(hosts);
  const mcpAuth = opts.auth ?? createMcpAuth({ core, token: opts.token });
  const admission = admissionCheck(opts, mcpAuth);
  // Same checks, the same session table and the same notifier fan-out as /mcp.
  const legacy = createLegacySseApp({
    ...serverOptions,
    check: async (c) => rebinding(c) ?? (await admission(c)),
    sessionFor: (c, principal) => sessionAuthFor(c, core, mcpAuth, principal),
    table,
    clientOf: (c) => clientAddress(c, opts.trustProxy),
    metrics: opts.metrics,
  });
  opts.metrics?.countSessions('streamable_http', () => sessions.size);
  opts.metrics?.countSessions('sse', () => legacy.sessionCount());
  const app = new Hono();
  // One handler with the checks inline rather than middleware: this is the
  // prompts/get hot path, and each composed middleware costs a few µs per request.
  app.all('/', async (c) => {
    const refused = rebinding(c);
    if (refused) return refused;
    // Streamable HTTP has GET, POST and DELETE; anything else is 405 with Allow, as the SDK answers, not "session id required".
    if (!MCP_METHODS.has(c.req.method)) return c.json({ jsonrpc: '2.0', error: { code: -32000, message: `Method not allowed: ${c.req.method} (allowed: GET, POST, DELETE)` }, id: null }, 405, { allow: 'GET, POST, DELETE' });
    const principal = await admission(c);
    if (principal instanceof Response) return principal;
    const id = c.req.header('mcp-session-id');
    if (id === undefined) {
      if (c.req.method !== 'POST') return rpcError(c, 400, -32000, 'Bad Request: Mcp-Session-Id header is required (POST an initialize request first)');
      return newSession(c, clientAddress(c, opts.trustProxy), principal);
    }
    const entry = sessions.get(id);
    // Another principal's session id is answered as unknown: a leaked id is worth nothing
    // without its owner's token; so is a token of the same subject with other scopes (36.7).
    if (!entry || entry.principal !== sessionBinding(principal)) return rpcError(c, 404, -32001, 'Session not found: it expired or was closed; initialize a new session');
    const read = await readJsonBody(c);
    if (read && 'refused' in read) return read.refused;
    // A body we did not parse (not JSON, no Node request) counts as use: the doubt goes to the client.
    table.touch(id, c.req.method === 'POST' && (!read || holdsRequest(read.body)));
    const res = await entry.transport.handleRequest(c.req.raw, read ? { parsedBody: read.body } : undefined);
    return c.req.method === 'GET' && res.ok && res.body ? watchStream(res, () => table.streamOpened(id), () => table.streamClosed(id)) : res;
  });

  // A token revoked anywhere (this instance, another, the CLI) ends its open sessions
  // here: requests are refused at once (the token is checked on each), and the
  // streams they hold are closed when the change log brings the revocation.
  const stopRevocations = core.feed.subscribe((events) => {
    for (const e of events) {
      if (e.action !== 'token.revoked' || !/^\d+$/.test(e.entityKey)) continue;
      const tokenId = Number(e.entityKey);
      for (const [sid, entry] of sessions) {
        if (entry.auth.tokenId !== tokenId) continue;
        logger?.info({ session: sid, tokenId }, 'mcp: closing session (token revoked)');
        entry.close().catch((err) => log('closing a session failed', err));
      }
      legacy.closeToken(tokenId);
    }
  });

  const fastPath: FastPathDeps = {
    hosts,
    admission,
    session: (id) => sessions.get(id),
    touch: (id) => table.touch(id, true),
  };

  return {
    app,
    fastPath,
    legacyApp: legacy.app,
    table,
    sessionAuth: (id: string) => sessions.get(id)?.auth ?? legacy.sessionAuth(id),
    async closeAll() {
      stopRevocations();
      mcpAuth.stop();
      table.stop();
      await Promise.all(
        [...sessions.values()].map((e) => e.close().catch((err) => log('closing a session failed', err))).concat(legacy.closeAll()),
      );
      sessions.clear();
    },
    sessionCount: () => table.size(),
  };
}
