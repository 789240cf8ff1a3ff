import { Option, type Command } from 'commander';
import { configFrom, note, openDatabase } from '../context.js';
import { portableDatabaseUrl } from '../../db/create-db.js';
import { addMcpFaceOptions, mcpFaceOptions } from '../mcp-face-options.js';
import { isDomainError } from '../../core/errors.js';
import { UsageError } from '../output.js';
import { BIN_PATH, CLIENT_FILES, MCP_CLIENTS, mcpClientConfig, type McpClient } from '../mcp-client-config.js';

type McpOpts = Parameters<typeof mcpFaceOptions>[0] & { printConfig?: McpClient | true; label: string };

export function registerMcp(program: Command): void {
  addMcpFaceOptions(program.command('mcp'))
    .description('serve MCP over stdio (stdout is the protocol; logs go to stderr)')
    .option('--label <label>', 'serve this label\'s view (e.g. staging; `latest` is every prompt\'s newest version)', 'production')
    .addOption(new Option('--print-config [client]', 'print the client config entry with absolute paths filled in, and exit').choices(MCP_CLIENTS))
    .addHelpText(
      'after',
      `
Desktop client config (\`promptd mcp --print-config\` prints it with your paths):
  {"mcpServers":{"promptd":{"command":"node","args":["${BIN_PATH}","mcp"],
    "env":{"DATABASE_URL":"file:/absolute/path/to/promptd.db"}}}}

Use the database \`promptd serve\` uses; \`promptd mcp\` never creates one.
Where the entry goes:
${MCP_CLIENTS.map((c) => `  ${CLIENT_FILES[c]}`).join('\n')}
VS Code's file names the map "servers" (--print-config vscode).`,
    )
    .action(async (opts: McpOpts, cmd: Command) => {
      const face = mcpFaceOptions(opts);
      const config = configFrom(cmd);
      if (opts.printConfig) {
        const extra = [...(opts.pageSize ? ['--page-size', opts.pageSize] : []), ...(opts.promptTools ? ['--prompt-tools'] : []), ...(opts.tools === false ? ['--no-tools'] : [])];
        const client = opts.printConfig === true ? 'claude' : opts.printConfig;
        const db = portableDatabaseUrl(config.databaseUrl);
        process.stdout.write(`${JSON.stringify(mcpClientConfig(client, db.url, extra), null, 2)}\n`);
        if (db.missingFile) note(`warning: no database at ${db.missingFile} yet; create it with \`promptd migrate\` or \`promptd serve\` (same DATABASE_URL) before starting the client`);
        return;
      }
      const db = await openDatabase(cmd, config, 'read', { quiet: true, missingHint: ' in the client config (`promptd mcp --print-config` prints the entry)' });
      const [{ openStore }, { createCore }, { runStdio }] = await Promise.all([import('../../db/store.js'), import('../../core/index.js'), import('../../mcp/stdio.js')]);
      const core = await createCore({ store: await openStore(config.databaseUrl, db.open) });
      try {
        await core.catalog.open(opts.label);
      } catch (e) {
        await core.close();
        // An unknown label is a usage error (exit 2) naming the known labels.
        if (isDomainError(e) && e.code === 'not_found') throw new UsageError(e.message);
        throw e;
      }
      const n = core.catalog.size();
      note(`mcp: serving ${n} prompt${n === 1 ? '' : 's'} from ${db.where}${db.readOnly ? ' (read-only)' : ''}`);
      if (n === 0) note('mcp: warning: no prompt has an active version here; activate some (`promptd import DIR --activate`, or the admin UI), or point DATABASE_URL at the database `promptd serve` uses');
      await runStdio({ core, ...face, label: opts.label, maxSubscriptions: config.mcpMaxSubscriptions });
      await core.close();
    });
}
