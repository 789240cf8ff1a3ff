// Wires one process: database → core → faces → HTTP listener.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createDb, migrateDatabase } from './db/create-db.js';
import { createCore, type Core } from './core/index.js';
import { createApp } from './http/app.js';
import { createMcpHttpApp } from './mcp/http.js';
import { createLogger, type Logger } from './logger.js';
import { seedIfEmpty } from './library/seed.js';
import { compactHeapOnce } from './heap.js';

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
  /** Slow-client bounds (defaults in SERVER_TIMEOUTS); tests lower them. */
  timeouts?: Partial<typeof SERVER_TIMEOUTS>;
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
  close(): Promise<void>;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(process.env.LOG_LEVEL ?? 'info');
  const host = opts.host ?? '127.0.0.1';
  const applied = await migrateDatabase(opts.databaseUrl);
  if (applied.length) logger.info({ applied }, 'applied migrations');
  const db = await createDb(opts.databaseUrl);
  const core = await createCore({ db, adminToken: opts.adminToken, onError: (e) => logger.error({ err: e }, 'change feed error') });
  if (opts.seed ?? db.provider === 'sqlite') {
    const seeded = await seedIfEmpty(core);
    if (seeded) logger.info({ prompts: seeded }, 'loaded the seed library into the empty database');
  }
  if (!opts.adminToken && (await core.tokens.count()) === 0) {
    const { token } = await core.tokens.create('first-run', 'serve');
    (opts.onFirstRunToken ?? ((t) => process.stderr.write(`\nNo admin token configured: created one. Keep it, it is shown only once:\n\n  ${t}\n\n`)))(token);
  }
  await core.catalog.ready();
  if (core.catalog.size() > LARGE_CATALOG) compactHeapOnce();

  // Port 0 is resolved after listen; the MCP app validates Host against the real port.
  let port = opts.port ?? 3000;
  const mcp = createMcpHttpApp({ core, token: opts.mcpToken, host, get port() { return port; }, logger, instanceId: opts.instanceId, ...opts.mcp } as Parameters<typeof createMcpHttpApp>[0]);
  const app = createApp({ core, mcp: mcp.app, mcpLegacy: mcp.legacyApp, logError: (e) => logger.error({ err: e }, 'unhandled error') });
  const timeouts = { ...SERVER_TIMEOUTS, ...opts.timeouts };

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: host, port, serverOptions: { connectionsCheckingInterval: timeouts.checkIntervalMs } }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  const httpServer = server as import('node:http').Server;
  httpServer.headersTimeout = timeouts.headersMs;
  httpServer.requestTimeout = timeouts.requestMs;
  httpServer.keepAliveTimeout = timeouts.keepAliveMs;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ url, database: db.provider }, 'promptd listening');

  let closing: Promise<void> | undefined;
  return {
    url,
    core,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          httpServer.close(() => resolve());
          void mcp.closeAll().finally(() => httpServer.closeAllConnections?.());
        });
        await core.close();
      })()),
  };
}
