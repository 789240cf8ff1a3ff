import type { Command } from 'commander';
import { configFrom, openDatabase } from '../context.js';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description("apply pending migrations (Prisma's schema engine; recorded in _prisma_migrations)")
    .addHelpText('after', '\nExamples:\n  $ promptd migrate\n  $ promptd --database-url postgres://localhost/promptd migrate')
    .action(async (_opts: unknown, cmd: Command) => {
      const config = configFrom(cmd);
      const { applied } = await openDatabase(cmd, config, 'create');
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
    });
}
