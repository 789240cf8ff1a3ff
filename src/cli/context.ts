// Opens the configured database (migrated) and the core for one CLI command.
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { createDb, migrateDatabase } from '../db/create-db.js';
import { createCore, type Core } from '../core/index.js';

export function configFrom(cmd: Command, extra: Partial<Config> = {}): Config {
  const globals = cmd.optsWithGlobals() as { databaseUrl?: string };
  return loadConfig(process.env, { ...(globals.databaseUrl ? { databaseUrl: globals.databaseUrl } : {}), ...extra });
}

export async function withCore<T>(cmd: Command, fn: (core: Core, config: Config) => Promise<T>): Promise<T> {
  const config = configFrom(cmd);
  await migrateDatabase(config.databaseUrl);
  const core = await createCore({ db: await createDb(config.databaseUrl), adminToken: config.adminToken });
  try {
    return await fn(core, config);
  } finally {
    await core.close();
  }
}
