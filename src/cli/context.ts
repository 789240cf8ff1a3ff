// Opens the configured database (checked, migrated, named on stderr) and the core for one CLI command.
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { ConfigError } from '../config-error.js';
import { normaliseDatabaseUrl } from '../db/create-db.js';
import type { Core } from '../core/index.js';
import { prepareDatabase, type Access, type PreparedDatabase } from '../db/prepare-database.js';

export function configFrom(cmd: Command, extra: Partial<Config> = {}): Config {
  const globals = cmd.optsWithGlobals() as { databaseUrl?: string };
  // `--database-url ''` (an unset shell variable, usually) was ignored: the default database instead.
  if (globals.databaseUrl !== undefined && !globals.databaseUrl.trim()) throw new ConfigError('--database-url is empty; give file:PATH, a path or postgres://…');
  // Validated here, to name the setting that holds the bad value.
  if (globals.databaseUrl) return loadConfig(process.env, { databaseUrl: normaliseDatabaseUrl(globals.databaseUrl, '--database-url'), ...extra });
  return loadConfig(process.env, extra);
}

/** True when neither --database-url nor DATABASE_URL chose the database. */
export function databaseDefaulted(cmd: Command): boolean {
  return !(cmd.optsWithGlobals() as { databaseUrl?: string }).databaseUrl && !process.env.DATABASE_URL?.trim();
}

export const note = (line: string) => process.stderr.write(`promptd: ${line}\n`);

export async function openDatabase(cmd: Command, config: Config, access: Access, opts: { quiet?: boolean; missingHint?: string } = {}): Promise<PreparedDatabase> {
  return prepareDatabase(config.databaseUrl, access, { defaulted: databaseDefaulted(cmd), note, ...opts });
}

export async function withCore<T>(cmd: Command, access: Access, fn: (core: Core, config: Config, db: PreparedDatabase) => Promise<T>): Promise<T> {
  const config = configFrom(cmd);
  const db = await openDatabase(cmd, config, access);
  // Loaded on first use: `promptd --help` and the commands that open no core start without them.
  const [{ openStore }, { createCore }] = await Promise.all([import('../db/store.js'), import('../core/index.js')]);
  const core = await createCore({ store: await openStore(config.databaseUrl, db.open), adminToken: config.adminToken });
  try {
    return await fn(core, config, db);
  } finally {
    await core.close();
  }
}
