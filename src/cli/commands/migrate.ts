import type { Command } from 'commander';
import { configFrom } from '../context.js';
import { migrateDatabase } from '../../db/create-db.js';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description("apply pending migrations (Prisma's schema engine; recorded in _prisma_migrations)")
    .addHelpText('after', '\nExamples:\n  $ promptd migrate\n  $ promptd --database-url postgres://localhost/promptd migrate')
    .action(async (_opts: unknown, cmd: Command) => {
      const { databaseUrl } = configFrom(cmd);
      const applied = await migrateDatabase(databaseUrl);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
    });
}
