// Wires one process: database → core → faces → HTTP listener.
import { createServer } from 'node:http';
import { getRequestListener, type ServerType } from '@hono/node-server';
import { createFastPath } from './mcp/fast-path.js';
import { createFastVersionWrite } from './rest/fast-version-write.js';
import { ADMIN_BODY_LIMIT } from './rest/admin-api.js';
import { adminSecurityHeadersList } from './http/security-headers.js';
import type { AddressInfo } from 'node:net';
import { migrateDatabase } from './db/create-db.js';
import { openStore, type DbStore } from './db/store.js';
import { allowPrivateWebhooks, createCore, type Core } from './core/index.js';
import { createWebhookDispatcher, type DispatcherOptions } from './core/webhook-dispatcher.js';
import { createApp } from './http/app.js';
import { createMcpHttpApp } from './mcp/http.js';
import { createMcpServer } from './mcp/server.js';
import { createLogger, type Logger } from './logger.js';
import { seedIfEmpty } from './library/seed.js';
import { compactHeapOnce } from './heap.js';
import { benchStatsApp, benchStatsEnabled } from './http/bench-stats.js';
import { notifierFor } from './mcp/notifier.js';
import { listenError } from './port-check.js';
import { createHostAllowList, isLoopbackHost } from './http/host-allowlist.js';
import { createMcpAuth, hasMcpAuthentication, UnauthenticatedMcpError } from './mcp/mcp-auth.js';
import { createOAuthVerifier } from './mcp/oauth-verifier.js';
import { protectedResourceApp, resourceMetadataUrl } from './http/protected-resource.js';
import type { SessionLimits } from './mcp/session-table.js';
import type { EventStreamLimits } from './rest/events/stream-registry.js';
import { createMetrics } from './metrics/metrics.js';
import { coreSources } from './metrics/core-sources.js';

export interface ServerOptions {
  databaseUrl: string;
  host?: string;
  port?: number;
  adminToken?: string;
  mcpToken?: string;
  /** Prefix of MCP session ids, for sticky routing behind a load balancer (deploy/nginx.conf). */
  instanceId?: string;
  /** Load seed/ into an empty SQLite database (default true for SQLite). */
  seed?: boolean;
  logger?: Logger;
  onFirstRunToken?: (token: string) => void;
  /** The MCP face: page size and the tools face (src/cli/mcp-face-options.ts). */
  mcp?: { pageSize?: number; tools?: boolean; promptTools?: boolean };
  /** PROMPTD_ALLOWED_HOSTS: Host names accepted on every route besides the loopback ones. */
  allowedHosts?: string[];
  /** PROMPTD_ALLOWED_ORIGINS: browser Origins accepted besides those of allowed Host names. */
  allowedOrigins?: string[];
  /** PROMPTD_PUBLIC_URL: the base URL clients use (the OAuth resource URI is this + /mcp). */
  publicUrl?: string;
  /** PROMPTD_OAUTH_ISSUER / PROMPTD_OAUTH_AUDIENCE: MCP accepts this issuer's JWT access tokens. */
  oauth?: { issuer: string; audience?: string };
  /** Serve MCP off loopback with no authentication (--allow-unauthenticated-mcp); refused otherwise. */
  allowUnauthenticatedMcp?: boolean;
  /** PROMPTD_TRUST_PROXY: the per-client MCP session cap counts the last X-Forwarded-For address. */
  trustProxy?: boolean;
  /** Prompts a q= search that no index serves reads per request (default 5,000; tests lower it). */
  searchScanLimit?: number;
  /** MCP session table limits (src/mcp/session-table.ts). */
  mcpSessions?: Partial<SessionLimits>;
  /** resources/subscribe entries per MCP session (default 100). */
  mcpMaxSubscriptions?: number;
  /** /admin/v1/events caps and lifetime (src/rest/events/stream-registry.ts). */
  events?: Partial<EventStreamLimits>;
  /** Slow-client bounds (defaults in SERVER_TIMEOUTS); tests lower them. */
  timeouts?: Partial<typeof SERVER_TIMEOUTS>;
  /** Rate limits on the admin, read and MCP HTTP faces (docs/rate-limits.md; `promptd serve` turns them on, PROMPTD_RATE_LIMITS=off turns them off). Default off. */
  rateLimits?: boolean;
  /** Webhook delivery: private targets (default PROMPTD_WEBHOOK_ALLOW_PRIVATE=1); tests shorten the timeouts. */
  webhooks?: { allowPrivate?: boolean } & Pick<DispatcherOptions, 'pollMs' | 'timeoutMs' | 'now'>;
  /** PROMPTD_METRICS=1: GET /metrics answers anyone; otherwise only requests with an admin token (docs/metrics.md). */
  metricsOpen?: boolean;
  /**
   * The prompts/get and prompts/list fast path below Hono (src/mcp/fast-path.ts); default on.
   * PROMPTD_MCP_FAST_PATH=off turns it off (the benchmark's comparison, and a way back).
   */
  mcpFastPath?: boolean;
  /**
   * The version-write fast path below Hono (src/rest/fast-version-write.ts); default on.
   * PROMPTD_REST_FAST_PATH=off turns it off.
   */
  restFastPath?: boolean;
}

/**
 * Slow clients must not pin connections (slowloris): headers must arrive within
 * headersMs and the whole request within requestMs, checked every checkIntervalMs.
 */
/** Served prompts above which the start-up load is followed by one compacting GC (src/heap.ts). */
const LARGE_CATALOG = 10_000;

export const SERVER_TIMEOUTS = { headersMs: 20_000, requestMs: 60_000, keepAliveMs: 5_000, checkIntervalMs: 5_000 };

export interface RunningServer {
  url: string;
  core: Core;
  /** The store the core runs on (tests and operators look at the database through it). */
  store: DbStore;
  /** The version-write fast path's counts (src/rest/fast-version-write.ts); absent when it is off. */
  fastVersionWrites?: { readonly answered: number; readonly handedOn: number };
  close(): Promise<void>;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(process.env.LOG_LEVEL ?? 'info');
  const host = opts.host ?? '127.0.0.1';
  const applied = await migrateDatabase(opts.databaseUrl);
  if (applied.length) logger.info({ applied }, 'applied migrations');
  const store = await openStore(opts.databaseUrl);
  const allowPrivate = allowPrivateWebhooks({ allowPrivateWebhooks: opts.webhooks?.allowPrivate });
  let core: Core;
  try {
    core = await createCore({
      store, adminToken: opts.adminToken, allowPrivateWebhooks: allowPrivate, searchScanLimit: opts.searchScanLimit, onError: (e) => logger.error({ err: e }, 'background error'),
    });
  } catch (e) {
    // An open pool would keep the process alive, running but not listening.
    await store.close().catch(() => {});
    throw e;
  }
  try {
    return await listen(opts, core, store, logger, host, allowPrivate);
  } catch (e) {
    await core.close().catch(() => {});
    throw e;
  }
}

async function listen(opts: ServerOptions, core: Core, store: DbStore, logger: Logger, host: string, allowPrivate: boolean): Promise<RunningServer> {
  if (!isLoopbackHost(host) && !(await hasMcpAuthentication(opts, core))) {
    if (!opts.allowUnauthenticatedMcp) throw new UnauthenticatedMcpError(host);
    logger.warn({ host }, 'WARNING: MCP is served WITHOUT AUTHENTICATION on a non-loopback interface (--allow-unauthenticated-mcp): anyone who can reach this port reads every served prompt and resource');
    process.stderr.write(`\npromptd: WARNING: MCP on ${host} needs NO authentication (--allow-unauthenticated-mcp). Anyone who can reach the port reads every served prompt.\n\n`);
  }
  if (opts.seed ?? store.seedsByDefault) {
    const seeded = await seedIfEmpty(core);
    if (seeded) logger.info({ prompts: seeded }, 'loaded the seed library into the empty database');
  }
  // Under the write lock: instances starting together on an empty database make one token.
  const firstRun = opts.adminToken ? null : await core.tokens.createFirstRun('serve');
  if (firstRun) {
    const { token } = firstRun;
    (opts.onFirstRunToken ?? ((t) => process.stderr.write(`\nNo admin token configured: created one. Keep it, it is shown only once:\n\n  ${t}\n\n`)))(token);
  }
  await core.catalog.ready();
  if (core.catalog.size() > LARGE_CATALOG) compactHeapOnce();
  // Only `serve` sends webhooks: CLI commands and `promptd mcp` write to the change
  // log, and a serving instance delivers from it.
  const dispatcher = createWebhookDispatcher({ store, feed: core.feed, ...opts.webhooks, allowPrivate, onError: (e) => logger.error({ err: e }, 'webhook dispatcher error') });
  dispatcher.start();
  try {
    return await listenHttp(opts, core, store, logger, host, dispatcher);
  } catch (e) {
    await dispatcher.stop().catch(() => {});
    throw e;
  }
}

async function listenHttp(
  opts: ServerOptions, core: Core, store: DbStore, logger: Logger, host: string, dispatcher: ReturnType<typeof createWebhookDispatcher>,
): Promise<RunningServer> {

  // One throw-away MCP server: fails now, not on the first MCP request, if the SDK
  // internals src/mcp/server.ts patches have moved.
  createMcpServer({ core, log: () => {} });

  // This app's own registry: counters are never shared with another app in the process.
  const metrics = createMetrics();
  metrics.watch(coreSources(core));

  // Port 0 is resolved after listen; the MCP app validates Host against the real port.
  let port = opts.port ?? 3000;
  const hosts = createHostAllowList({ host, get port() { return port; }, allowedHosts: opts.allowedHosts, allowedOrigins: opts.allowedOrigins, publicUrl: opts.publicUrl });
  // The resource URI (RFC 8707/9728) tokens must name as audience: PROMPTD_OAUTH_AUDIENCE, else <public URL>/mcp.
  const listeningUrl = () => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const oauth = opts.oauth;
  const resource = () => oauth?.audience ?? `${opts.publicUrl ?? listeningUrl()}/mcp`;
  const auth = createMcpAuth({
    core,
    token: opts.mcpToken,
    ...(oauth ? {
      oauth: {
        verifier: createOAuthVerifier({ issuer: oauth.issuer, get audience() { return resource(); } }),
        resourceMetadataUrl: () => resourceMetadataUrl(resource()),
      },
    } : {}),
  });
  const mcp = createMcpHttpApp({
    core, auth, token: opts.mcpToken, host, get port() { return port; }, hosts, logger, instanceId: opts.instanceId,
    sessions: opts.mcpSessions, trustProxy: opts.trustProxy, maxSubscriptions: opts.mcpMaxSubscriptions, metrics: metrics.mcp, rateLimit: opts.rateLimits, ...opts.mcp,
  } as Parameters<typeof createMcpHttpApp>[0]);
  const rate = opts.rateLimits ? { limiter: core.rateLimiter, trustProxy: opts.trustProxy } : undefined;
  const wellKnown = oauth ? protectedResourceApp({ issuer: oauth.issuer, resource }) : undefined;
  const app = createApp({
    core, mcp: mcp.app, mcpLegacy: mcp.legacyApp, hosts, wellKnown, events: opts.events, rate, logError: (e) => logger.error({ err: e }, 'unhandled error'),
    metrics: { instruments: metrics, open: opts.metricsOpen ?? false }, mcpRequired: auth.required,
  });
  if (benchStatsEnabled()) {
    app.route('/__bench', benchStatsApp(() => ({
      mcpSessions: mcp.sessionCount(),
      notifierSessions: notifierFor(core).size(),
      feedListeners: core.feed.listenerCount(),
      catalogListeners: core.catalog.stats().listeners,
    })));
  }
  const timeouts = { ...SERVER_TIMEOUTS, ...opts.timeouts };
  const restFastOn = opts.restFastPath ?? process.env.PROMPTD_REST_FAST_PATH !== 'off';
  const securityHeaders = restFastOn ? await adminSecurityHeadersList() : [];
  let fastVersionWrites: RunningServer['fastVersionWrites'];

  const server: ServerType = await new Promise((resolve, reject) => {
    // What @hono/node-server's serve() does, with the MCP prompts/get and prompts/list fast path in front of the app (src/mcp/fast-path.ts).
    const fastOn = opts.mcpFastPath ?? process.env.PROMPTD_MCP_FAST_PATH !== 'off';
    const fast = fastOn ? { ...mcp.fastPath, observe: (status: number, seconds: number) => metrics.http.request('POST', '/mcp', status, seconds) } : undefined;
    const appListener = getRequestListener(app.fetch, { hostname: host });
    const mcpFast = createFastPath(() => fast, appListener);
    const versionWrites = restFastOn
      ? createFastVersionWrite({
        core, hosts, rate, bodyLimitBytes: ADMIN_BODY_LIMIT, securityHeaders, fetch: app.fetch,
        observe: (route, status, seconds) => metrics.http.request('POST', route, status, seconds),
        logError: (e) => logger.error({ err: e }, 'unhandled error'),
      }, mcpFast)
      : undefined;
    fastVersionWrites = versionWrites?.stats;
    const listener = versionWrites ?? mcpFast;
    const s = createServer({ connectionsCheckingInterval: timeouts.checkIntervalMs }, listener);
    s.listen(port, host, () => resolve(s));
    // EADDRINUSE and the like (a port taken since the CLI checked it): fail start-up with one line.
    s.once('error', (e) => {
      void mcp.closeAll();
      reject(listenError(e, host, port));
    });
  });
  port = (server.address() as AddressInfo).port;
  const httpServer = server as import('node:http').Server;
  httpServer.headersTimeout = timeouts.headersMs;
  httpServer.requestTimeout = timeouts.requestMs;
  httpServer.keepAliveTimeout = timeouts.keepAliveMs;
  const url = listeningUrl();
  logger.info({ url, database: store.kind }, 'promptd listening');

  let closing: Promise<void> | undefined;
  return {
    url,
    core,
    store,
    fastVersionWrites,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          httpServer.close(() => resolve());
          void mcp.closeAll().finally(() => httpServer.closeAllConnections?.());
        });
        await dispatcher.stop();
        await core.close();
      })()),
  };
}
