// The HTTP composition root: health, the admin REST API, the admin UI and (when
// given) the MCP endpoint. Used by `promptd serve` and by tests via app.request().
import { Hono } from 'hono';
import type { Core } from '../core/index.js';
import { createAdminApi } from '../rest/admin-api.js';
import { renderError, problemResponse } from '../rest/problem.js';
import { adminUi } from './admin-ui.js';

export interface AppOptions {
  core: Core;
  /** The MCP Streamable HTTP endpoint, mounted at /mcp. */
  mcp?: Hono;
  /** The deprecated HTTP+SSE MCP transport (GET /sse, POST /messages). */
  mcpLegacy?: Hono;
  adminUiDir?: string;
  bodyLimitBytes?: number;
  logError?: (e: unknown) => void;
}

export function createApp({ core, mcp, mcpLegacy, adminUiDir, bodyLimitBytes, logError }: AppOptions) {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await core.db.prisma.$queryRawUnsafe('SELECT 1');
      return c.json({ status: 'ready', database: core.db.provider });
    } catch {
      return problemResponse(c, 503, 'Service unavailable', 'the database is not reachable');
    }
  });
  app.route('/admin/v1', createAdminApi(core, { bodyLimitBytes }));
  if (mcp) app.route('/mcp', mcp);
  if (mcpLegacy) app.route('/', mcpLegacy);
  app.route('/admin', adminUi(adminUiDir));
  app.get('/', (c) => c.redirect('/admin/'));
  app.notFound((c) => problemResponse(c, 404, 'Not found', `no route for ${c.req.method} ${c.req.path}`));
  app.onError((err, c) => renderError(err, c, logError));
  return app;
}
