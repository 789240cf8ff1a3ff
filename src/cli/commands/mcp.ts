import { Option, type Command } from 'commander';
import { configFrom, note, openDatabase } from '../context.js';
import { portableDatabaseUrl } from '../../db/create-db.js';
import { addMcpFaceOptions, mcpFaceOptions } from '../mcp-face-options.js';
import { isDomainError } from '../../core/errors.js';
import { UsageError } from '../output.js';
import { BIN_PATH, CLIENT_FILES, MCP_CLIENTS, mcpClientConfig, type McpClient } from '../mcp-client-config.js';

type McpOpts = Parameters<typeof mcpFaceOptions>[0] & { printConfig?: McpClient | true; label: string };

/**
 * Every serving flag given on this command line, as the client must pass it: walks
 * the command's own options, so a flag added later is carried without a change here.
 */
export function servingArgs(cmd: Command): string[] {
  const args: string[] = [];
  for (const o of cmd.options) {
    const key = o.attributeName();
    if (key === 'printConfig' || cmd.getOptionValueSource(key) !== 'cli') continue;
    const value: unknown = cmd.getOptionValue(key);
    const flag = o.long ?? o.short!;
    if (o.negate || value === true) args.push(flag);
    else if (Array.isArray(value)) for (const v of value) args.push(flag, String(v));
    else if (value !== false && value !== undefined) args.push(flag, String(value));
  }
  return args;
}

export function registerMcp(program: Command): void {
  addMcpFaceOptions(program.command('mcp'))
    .description('serve MCP over stdio (stdout is the protocol; logs go to stderr)')
    .option('--label <label>', 'serve this label\'s view (e.g. staging; `latest` is every prompt\'s newest version)', 'production')
    .addOption(new Option('--print-config [client]', 'print the client config entry with absolute paths filled in, and exit').choices(MCP_CLIENTS))
    .addHelpText(
      'after',
      `
Desktop client config (\`promptd mcp --print-config\` prints it with your paths):
  {"mcpServers":{"promptd":{"command":"${process.execPath}","args":["${BIN_PATH}","mcp"],
    "env":{"DATABASE_URL":"file:/absolute/path/to/promptd.db"}}}}

The command is this node's absolute path (a client's PATH may have another node or none);
serving flags given with --print-config (--label, --page-size, …) go into "args".
Use the database \`promptd serve\` uses; \`promptd mcp\` never creates one.
Where the entry goes:
${MCP_CLIENTS.map((c) => `  ${CLIENT_FILES[c]}`).join('\n')}
VS Code's file names the map "servers" (--print-config vscode).`,
    )
    .action(async (opts: McpOpts, cmd: Command) => {
      const face = mcpFaceOptions(opts);
      const config = configFrom(cmd);
      if (opts.printConfig) {
        const extra = servingArgs(cmd);
        const client = opts.printConfig === true ? 'claude' : opts.printConfig;
        const db = portableDatabaseUrl(config.databaseUrl);
        process.stdout.write(`${JSON.stringify(mcpClientConfig(client, db.url, extra), null, 2)}\n`);
        if (db.missingFile) note(`warning: no database at ${db.missingFile} yet; create it with \`promptd migrate\` or \`promptd serve\` (same DATABASE_URL) before starting the client`);
        return;
      }
      const db = await openDatabase(cmd, config, 'read', { quiet: true, missingHint: ' in the client config (`promptd mcp --print-config` prints the entry)' });
      const [{ openStore }, { createCore }, { runStdio }] = await Promise.all([import('../../db/store.js'), import('../../core/index.js'), import('../../mcp/stdio.js')]);
      const core = await createCore({ store: await openStore(config.databaseUrl, db.open) });
      let n: number;
      try {
        // What this label's view serves, not production's.
        n = (await core.catalog.open(opts.label)).size();
      } catch (e) {
        await core.close();
        // An unknown label is a usage error (exit 2) naming the known labels.
        if (isDomainError(e) && e.code === 'not_found') throw new UsageError(e.message);
        throw e;
      }
      note(`mcp: serving ${n} prompt${n === 1 ? '' : 's'} from ${db.where}${db.readOnly ? ' (read-only)' : ''}`);
      if (n === 0) {
        const what = opts.label === 'production' ? 'has an active version' : `carries the label ${opts.label}`;
        note(`mcp: warning: no prompt ${what} here; ${opts.label === 'production' ? 'activate some (`promptd import DIR --activate`, or the admin UI)' : `set it on some (\`promptd import DIR --label ${opts.label}\`, or the admin UI)`}, or point DATABASE_URL at the database \`promptd serve\` uses`);
      }
      await runStdio({ core, ...face, label: opts.label, maxSubscriptions: config.mcpMaxSubscriptions });
      await core.close();
    });
}
