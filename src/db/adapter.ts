// Driver adapter factories for a database URL (the dialect decides which).
import type { AdapterOptions } from './dialect.js';
import { dialectFor } from './dialects.js';

export { sqliteFilePath, SQLITE_BUSY_TIMEOUT_MS } from './dialect-sqlite.js';
export { pgConfigFromUrl } from './dialect-postgres.js';

export function adapterFactoryFor(url: string, opts: AdapterOptions = {}): object {
  return dialectFor(url).adapterFactory(url, opts);
}
