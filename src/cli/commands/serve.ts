import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { configFrom, openDatabase } from '../context.js';
import { parsePort } from '../../config.js';
import { checkPortFree } from '../../port-check.js';
import { addMcpFaceOptions, mcpFaceOptions } from '../mcp-face-options.js';
import type { SyncWatcher } from '../../library/sync-watch.js';
import { syncLines } from './sync.js';

export function registerServe(program: Command): void {
  addMcpFaceOptions(program.command('serve'))
    .description('serve the admin REST API (/admin/v1), the admin UI (/admin) and MCP over Streamable HTTP (/mcp)')
    .option('--host <host>', 'interface to bind (default $HOST or 127.0.0.1)')
    .option('--port <port>', 'port (default $PORT or 3000)', (v) => parsePort(v, '--port'))
    .option('--no-seed', 'do not load seed/ into an empty SQLite database')
    .option('--allow-unauthenticated-mcp', 'serve MCP on a non-loopback interface without PROMPTD_MCP_TOKEN or PROMPTD_OAUTH_ISSUER (logs a warning)')
    .option('--sync <dir>', 'watch this directory of prompt files and sync it, activated (like promptd sync <dir> --activate --watch)')
    .addHelpText('after', '\nExamples:\n  $ promptd serve\n  $ PROMPTD_ADMIN_TOKEN=secret promptd serve --host 0.0.0.0 --port 8080')
    .action(async (opts: { host?: string; port?: number; seed: boolean; sync?: string; allowUnauthenticatedMcp?: boolean } & Parameters<typeof mcpFaceOptions>[0], cmd: Command) => {
      const mcp = mcpFaceOptions(opts);
      if (opts.sync !== undefined && !(existsSync(opts.sync) && statSync(opts.sync).isDirectory())) throw new Error(`serve: --sync ${path.resolve(opts.sync)}: no such directory`);
      const config = configFrom(cmd, { ...(opts.host ? { host: opts.host } : {}), ...(opts.port !== undefined ? { port: opts.port } : {}) });
      await checkPortFree(config.host, config.port);
      await openDatabase(cmd, config, 'create');
      // Loaded here, not at start: every other command (an import) starts without the server's modules.
      const [{ startServer }, { createLogger }, { UnauthenticatedMcpError }, { watchDirectory }] = await Promise.all([
        import('../../server.js'), import('../../logger.js'), import('../../mcp/mcp-auth.js'), import('../../library/sync-watch.js'),
      ]);
      const logger = createLogger(config.logLevel);
      let server: Awaited<ReturnType<typeof startServer>>;
      try {
        server = await startServer({ ...config, mcp, seed: opts.seed ? undefined : false, logger, allowUnauthenticatedMcp: opts.allowUnauthenticatedMcp });
      } catch (e) {
        // Checked by startServer once the database is open (hasMcpAuthentication may look at stored credentials): one line, status 2.
        if (e instanceof UnauthenticatedMcpError) {
          process.stderr.write(`promptd: error: ${e.message}\n`);
          process.exit(2);
        }
        // Any start-up failure ends the process with status 1: never running without listening.
        logger.fatal({ err: e }, 'start-up failed');
        process.stderr.write(`promptd: error: start-up failed: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exit(1);
      }
      let watcher: SyncWatcher | undefined;
      if (opts.sync !== undefined) {
        watcher = watchDirectory(server.core, opts.sync, {
          activate: true,
          onReport: (r) => {
            const lines = syncLines(r);
            for (const l of [...lines.out, ...lines.err]) process.stderr.write(`promptd sync: ${l}\n`);
          },
          onError: (e) => logger.error({ err: e }, 'sync failed'),
        });
      }
      process.stderr.write(`promptd serving on ${server.url}  (admin UI ${server.url}/admin, MCP ${server.url}/mcp)\n`);
      let stopping = false;
      const stop = async (signal: string) => {
        // A second signal, or a drain that hangs (a client that never reads), ends it at once.
        if (stopping) process.exit(1);
        stopping = true;
        setTimeout(() => process.exit(1), 10_000).unref();
        logger.info({ signal }, 'shutting down: no new connections, closing MCP sessions, draining');
        await watcher?.close();
        await server.close();
        process.exit(0);
      };
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
    });
}
