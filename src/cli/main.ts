// `promptd`: one entry for every face that runs from a shell.
import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands/index.js';
import { fail, UsageError } from './output.js';
import { ConfigError } from '../config-error.js';

const program = new Command()
  .name('promptd')
  .description('Prompt management service: admin REST API + web UI for authors, MCP for clients.')
  .option('--database-url <url>', 'database: file:PATH or a path (SQLite), postgres://… (PostgreSQL); default $DATABASE_URL, else ./data/promptd.db in the current directory')
  .option('--verbose', 'show stack traces on errors')
  .exitOverride()
  // One line, like every other error: commander's message and its "Did you mean" hint, then where help is.
  .configureOutput({ outputError: (str, write) => write(`promptd: ${str.replace(/^error: /, '').trim().replace(/\s*\n\s*/g, ' ')} (see --help)\n`) });

registerCommands(program);

program.addHelpText('after', `
Examples:
  $ promptd serve                      # admin API + UI + MCP over HTTP on 127.0.0.1:3000
  $ promptd mcp                        # MCP over stdio, for desktop clients
  $ promptd token create ci-bot        # a new admin API token (shown once)
  $ DATABASE_URL=postgres://localhost/promptd promptd migrate`);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? 0 : 2;
  } else if (e instanceof UsageError || e instanceof ConfigError) {
    process.stderr.write(`promptd: ${e.message}\n`);
    process.exitCode = 2;
  } else {
    fail(e, Boolean(program.opts().verbose));
  }
}
