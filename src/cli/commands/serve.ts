import type { Command } from 'commander';
import { configFrom } from '../context.js';
import { startServer } from '../../server.js';
import { createLogger } from '../../logger.js';
import { addMcpFaceOptions, mcpFaceOptions } from '../mcp-face-options.js';

export function registerServe(program: Command): void {
  addMcpFaceOptions(program.command('serve'))
    .description('serve the admin REST API (/admin/v1), the admin UI (/admin) and MCP over Streamable HTTP (/mcp)')
    .option('--host <host>', 'interface to bind (default $HOST or 127.0.0.1)')
    .option('--port <port>', 'port (default $PORT or 3000)', (v) => Number(v))
    .option('--no-seed', 'do not load seed/ into an empty SQLite database')
    .addHelpText('after', '\nExamples:\n  $ promptd serve\n  $ PROMPTD_ADMIN_TOKEN=secret promptd serve --host 0.0.0.0 --port 8080')
    .action(async (opts: { host?: string; port?: number; seed: boolean } & Parameters<typeof mcpFaceOptions>[0], cmd: Command) => {
      const mcp = mcpFaceOptions(opts);
      const config = configFrom(cmd, { ...(opts.host ? { host: opts.host } : {}), ...(opts.port !== undefined ? { port: opts.port } : {}) });
      const logger = createLogger(config.logLevel);
      const server = await startServer({ ...config, mcp, seed: opts.seed ? undefined : false, logger });
      process.stderr.write(`promptd serving on ${server.url}  (admin UI ${server.url}/admin, MCP ${server.url}/mcp)\n`);
      let stopping = false;
      const stop = async (signal: string) => {
        // A second signal, or a drain that hangs (a client that never reads), ends it at once.
        if (stopping) process.exit(1);
        stopping = true;
        setTimeout(() => process.exit(1), 10_000).unref();
        logger.info({ signal }, 'shutting down: no new connections, closing MCP sessions, draining');
        await server.close();
        process.exit(0);
      };
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
    });
}
