// promptd's own HTTP app (admin REST + MCP), composed as src/server.ts does but with
// the MCP prompts/list page size set to 100, for the deep-paging benchmark:
//
//   node --import tsx bench/paging-server.ts <database-url> <port> <admin-token>
//
// Prints {"url": "...", "loadMs": n} on stdout once the catalog is loaded and it listens.
import { serve } from '@hono/node-server';
import { openStore } from '../src/db/store.js';
import { createCore } from '../src/core/index.js';
import { createApp } from '../src/http/app.js';
import { createMcpHttpApp } from '../src/mcp/http.js';

const [databaseUrl, portArg, adminToken] = process.argv.slice(2);
const port = Number(portArg);
const store = await openStore(databaseUrl);
const core = await createCore({ store, adminToken });
const t0 = performance.now();
await core.catalog.ready();
const loadMs = performance.now() - t0;
const mcp = createMcpHttpApp({ core, host: '127.0.0.1', port, pageSize: 100 });
const app = createApp({ core, mcp: mcp.app, logError: (e) => process.stderr.write(`paging-server: ${String(e)}\n`) });
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port }, () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, loadMs })}\n`);
});

const stop = () => {
  server.close();
  void mcp.closeAll().then(() => core.close()).finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
