// The `promptd` command tree, built without running it: main.ts parses argv with it,
// and test/docs/docs-truth.test.ts reads its commands and options to check the docs.
import { Command } from 'commander';
import { registerCommands } from './commands/index.js';

export function buildProgram(): Command {
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
  return program;
}
