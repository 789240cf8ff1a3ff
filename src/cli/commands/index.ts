import type { Command } from 'commander';
import { registerServe } from './serve.js';
import { registerMcp } from './mcp.js';
import { registerMigrate } from './migrate.js';
import { registerToken } from './token.js';
import { registerLibrary } from './library.js';
import { registerSync } from './sync.js';
import { registerCheck } from './check.js';

export function registerCommands(program: Command): void {
  registerServe(program);
  registerMcp(program);
  registerMigrate(program);
  registerToken(program);
  registerLibrary(program);
  registerSync(program);
  registerCheck(program);
}
