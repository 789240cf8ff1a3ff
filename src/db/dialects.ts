// The one place a dialect is chosen: by the database URL's scheme.
import { ConfigError } from '../config-error.js';
import type { Dialect } from './dialect.js';
import { sqliteDialect } from './dialect-sqlite.js';
import { postgresDialect } from './dialect-postgres.js';
import { providerOf, type DbProvider } from './provider.js';

const dialects: Record<DbProvider, Dialect> = { sqlite: sqliteDialect, postgresql: postgresDialect };

export const ACCEPTED_DATABASE_URLS = 'file:PATH or a path (SQLite), postgres://… or postgresql://… (PostgreSQL)';

/**
 * `file:PATH`, a bare path, or a PostgreSQL URL. Anything else with a scheme
 * (mysql://, sqlite://, http://) is refused: taken as a path it would become a
 * SQLite file in a directory named after the scheme. `from` names the setting.
 */
export function dialectFor(url: string, from = 'DATABASE_URL'): Dialect {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]+):/.exec(url)?.[1];
  if (scheme && scheme.toLowerCase() !== 'file' && !/^postgres(ql)?:\/\//i.test(url)) {
    throw new ConfigError(`${from}: unsupported database "${scheme}:"; use ${ACCEPTED_DATABASE_URLS}`);
  }
  return dialects[providerOf(url)];
}

export function dialectOf(provider: DbProvider): Dialect {
  return dialects[provider];
}
