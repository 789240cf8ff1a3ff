import type { Command } from 'commander';
import { configFrom } from '../context.js';
import { createDb, migrateDatabase } from '../../db/create-db.js';
import { createCore } from '../../core/index.js';
import { runStdio } from '../../mcp/stdio.js';
import { addMcpFaceOptions, mcpFaceOptions } from '../mcp-face-options.js';

export function registerMcp(program: Command): void {
  addMcpFaceOptions(program.command('mcp'))
    .description('serve MCP over stdio (stdout is the protocol; logs go to stderr)')
    .addHelpText('after', '\nDesktop client config:\n  {"mcpServers":{"promptd":{"command":"npx","args":["promptd","mcp"],"env":{"DATABASE_URL":"file:/abs/path/data/promptd.db"}}}}')
    .action(async (opts: Parameters<typeof mcpFaceOptions>[0], cmd: Command) => {
      const face = mcpFaceOptions(opts);
      const config = configFrom(cmd);
      await migrateDatabase(config.databaseUrl);
      const core = await createCore({ db: await createDb(config.databaseUrl) });
      await core.catalog.ready();
      await runStdio({ core, ...face });
      await core.close();
    });
}
