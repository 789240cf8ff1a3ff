// The HTTP composition root: health, the admin REST API, the read API (/v1), the admin UI and (when
// given) the MCP endpoint. Used by `promptd serve` and by tests via app.request().
import { Hono, type Context } from 'hono';
import type { Core } from '../core/index.js';
import { createAdminApi } from '../rest/admin-api.js';
import { createReadApi } from '../rest/read/read-api.js';
import { renderError, problemResponse } from '../rest/problem.js';
import { adminUi } from './admin-ui.js';
import { adminSecurityHeaders } from './security-headers.js';
import type { HostAllowList } from './host-allowlist.js';
import type { EventStreamLimits } from '../rest/events/stream-registry.js';
import type { RateLimitOptions } from './rate-limit.js';
import type { Metrics } from '../metrics/metrics.js';
import { httpMetrics, markUnmatched, metricsHandler } from '../metrics/http.js';

const MCP_PATHS = /^\/(mcp|sse|messages)(\/|$)/;
// Probes (Kubernetes sends `Host: <pod IP>:<port>`) answer without data worth rebinding for.
const PROBES = new Set(['/healthz', '/readyz']);
// Public metadata a browser-based MCP client reads cross-origin (RFC 9728).
const PUBLIC_METADATA = /^\/\.well-known\/oauth-protected-resource(\/|$)/;

export interface AppOptions {
  core: Core;
  /** The MCP Streamable HTTP endpoint, mounted at /mcp. */
  mcp?: Hono;
  /** The deprecated HTTP+SSE MCP transport (GET /sse, POST /messages). */
  mcpLegacy?: Hono;
  adminUiDir?: string;
  bodyLimitBytes?: number;
  logError?: (e: unknown) => void;
  /** The Host allow-list (src/http/host-allowlist.ts), applied to every route but the probes. */
  hosts?: HostAllowList;
  /** Served at the root when MCP authorization is on (src/http/protected-resource.ts). */
  wellKnown?: Hono;
  /** Caps, heartbeat and lifetime of /admin/v1/events and /v1/changes/stream streams (each has its own caps). */
  events?: Partial<EventStreamLimits>;
  /** Rate limits on /admin/v1 and /v1 (docs/rate-limits.md); off when absent. */
  rate?: RateLimitOptions;
  /**
   * This app's metrics (src/metrics): every response is counted and GET /metrics serves
   * them, to anyone when `open` (PROMPTD_METRICS=1), else only with an admin token.
   */
  metrics?: { instruments: Metrics; open: boolean };
  /** Whether /mcp needs a token now (the MCP app's McpAuth.required); GET /admin/v1/tokens reports it as mcpAnonymous. */
  mcpRequired?: () => Promise<boolean>;
}

export function createApp({ core, mcp, mcpLegacy, adminUiDir, bodyLimitBytes, logError, hosts, events, rate, metrics, wellKnown, mcpRequired }: AppOptions) {
  const app = new Hono();
  const notFound = (c: Context) => {
    markUnmatched(c);
    return problemResponse(c, 404, 'Not found', `no route for ${c.req.method} ${c.req.path}`);
  };
  // First, so that refusals by the Host check are counted too.
  if (metrics) app.use('*', httpMetrics(metrics.instruments.http));
  if (hosts) {
    // Every bind: a browser page of a foreign site gets nothing from any route (CSRF, cross-site reads).
    app.use('*', async (c, next) => {
      const origin = c.req.header('origin');
      if (origin === undefined || PROBES.has(c.req.path) || PUBLIC_METADATA.test(c.req.path) || hosts.allowsOrigin(origin)) return next();
      const detail = `Origin "${origin}" is not allowed (PROMPTD_ALLOWED_ORIGINS extends the list)`;
      if (MCP_PATHS.test(c.req.path)) return c.json({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: ${detail}` }, id: null }, 403);
      return problemResponse(c, 403, 'Forbidden', detail);
    });
  }
  if (hosts?.active) {
    app.use('*', async (c, next) => {
      if (PROBES.has(c.req.path) || hosts.allowsHost(c.req.header('host'))) return next();
      const detail = `Host "${c.req.header('host') ?? ''}" is not allowed (PROMPTD_ALLOWED_HOSTS extends the list)`;
      if (MCP_PATHS.test(c.req.path)) return c.json({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: ${detail}` }, id: null }, 403);
      return problemResponse(c, 403, 'Forbidden', detail);
    });
  }
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  if (metrics) {
    app.get('/metrics', metricsHandler(metrics.instruments, {
      open: metrics.open,
      authenticate: async (token) => (await core.tokens.authenticate(token)) !== null,
      notFound,
    }));
  }
  app.get('/readyz', async (c) => {
    try {
      return c.json(await core.health());
    } catch {
      return problemResponse(c, 503, 'Service unavailable', 'the database is not reachable');
    }
  });
  // The admin UI and the admin API (its docs page included): CSP, nosniff, no Referer, no framing.
  const headers = adminSecurityHeaders();
  app.use('/admin', headers);
  app.use('/admin/*', headers);
  app.route('/admin/v1', createAdminApi(core, { bodyLimitBytes, events, rate, mcpRequired }));
  app.route('/v1', createReadApi(core, { bodyLimitBytes, events, rate, onServed: metrics ? (label) => metrics.instruments.promptServed(label) : undefined }));
  if (wellKnown) app.route('/', wellKnown);
  if (mcp) app.route('/mcp', mcp);
  if (mcpLegacy) app.route('/', mcpLegacy);
  app.route('/admin', adminUi(adminUiDir));
  app.get('/', (c) => c.redirect('/admin/'));
  app.notFound(notFound);
  app.onError((err, c) => renderError(err, c, logError));
  return app;
}
