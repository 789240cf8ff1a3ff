import { PrismaClient as SqliteClient } from '../generated/sqlite/client.js';
import { PrismaClient as PgClient } from '../generated/postgres/client.js';
import { adapterFactoryFor, sqliteFilePath } from './adapter.js';
import { providerOf, type DbProvider } from './provider.js';
import { openEngine, applyMigrations, readMigrations } from './schema-engine.js';

// Both generated clients expose the same model API; the repository layer is typed
// against the SQLite one.
export type PrismaDb = SqliteClient;

export interface Db {
  prisma: PrismaDb;
  provider: DbProvider;
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_DATABASE_URL = 'file:./data/promptd.db';

export function normaliseDatabaseUrl(url: string | undefined): string {
  const u = url?.trim() || DEFAULT_DATABASE_URL;
  if (providerOf(u) === 'postgresql') return u;
  return u.startsWith('file:') ? u : `file:${u}`;
}

export async function createDb(rawUrl?: string, opts: { poolMax?: number } = {}): Promise<Db> {
  const url = normaliseDatabaseUrl(rawUrl);
  const provider = providerOf(url);
  const adapter = adapterFactoryFor(url, opts);
  const prisma = (provider === 'sqlite'
    ? new SqliteClient({ adapter: adapter as never })
    : (new PgClient({ adapter: adapter as never }) as unknown as SqliteClient));
  if (provider === 'sqlite') {
    // WAL lets a `promptd mcp` stdio process read while `promptd serve` writes;
    // the mode is stored in the file, so setting it once per open is enough.
    await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    await prisma.$queryRawUnsafe('PRAGMA synchronous = NORMAL');
    await prisma.$queryRawUnsafe('PRAGMA foreign_keys = ON');
  }
  return { prisma, provider, url, close: () => prisma.$disconnect() };
}

/**
 * Migration names recorded as applied, read without the schema engine. The engine
 * takes SQLite's EXCLUSIVE locking mode, which waits for every other connection to
 * go away; a `promptd mcp` started next to a running `promptd serve` must not, so we
 * only start the engine when something is pending.
 */
async function appliedMigrationNames(url: string): Promise<Set<string> | null> {
  const factory = adapterFactoryFor(url, { poolMax: 1 }) as unknown as {
    connect(): Promise<{ queryRaw(q: { sql: string; args: unknown[]; argTypes: unknown[] }): Promise<{ rows: unknown[][] }>; dispose(): Promise<void> }>;
  };
  const conn = await factory.connect();
  try {
    const rs = await conn.queryRaw({
      sql: 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      args: [],
      argTypes: [],
    });
    return new Set(rs.rows.map((r) => String(r[0])));
  } catch {
    return null; // no migrations table yet
  } finally {
    await conn.dispose();
  }
}

/** Applies pending migrations through Prisma's wasm schema engine. */
export async function migrateDatabase(rawUrl?: string): Promise<string[]> {
  const url = normaliseDatabaseUrl(rawUrl);
  const applied = await appliedMigrationNames(url);
  if (applied) {
    const { migrationDirectories } = await readMigrations(providerOf(url));
    if (migrationDirectories.every((d) => applied.has(d.path))) return [];
  }
  // The engine never closes its connections (free() leaves SQLite's lock held), so
  // we hand it a factory whose connections we close ourselves afterwards.
  const tracked = trackConnections(adapterFactoryFor(url, { poolMax: 2 }));
  const h = await openEngine(providerOf(url), tracked.factory);
  try {
    return await applyMigrations(h);
  } finally {
    h.engine.free();
    await tracked.disposeAll();
  }
}

interface Disposable { dispose(): Promise<void> }
interface AdapterFactory { provider: string; adapterName: string; connect(): Promise<Disposable>; connectToShadowDb(): Promise<Disposable> }

export function trackConnections(inner: object) {
  const f = inner as AdapterFactory;
  const open: Disposable[] = [];
  const factory = {
    provider: f.provider,
    adapterName: f.adapterName,
    connect: async () => { const a = await f.connect(); open.push(a); return a; },
    connectToShadowDb: async () => { const a = await f.connectToShadowDb(); open.push(a); return a; },
  };
  return {
    factory,
    disposeAll: async () => { await Promise.allSettled(open.splice(0).map((a) => a.dispose())); },
  };
}
