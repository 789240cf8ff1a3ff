import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { adapterFactoryFor } from './adapter.js';
import type { AdapterOptions, Dialect, OpenedClient } from './dialect.js';
import { dialectFor } from './dialects.js';
import type { Models, Tx } from './prisma.js';
import type { RawSql } from './raw-sql.js';
import { providerOf, type DbProvider } from './provider.js';
import type { PoolStats } from '../core/ports.js';
import { openEngine, applyMigrations, readMigrations } from './schema-engine.js';

export interface Db {
  dialect: Dialect;
  provider: DbProvider;
  /** The Prisma client, typed as what it is (SQLite's or PostgreSQL's generated client). */
  client: OpenedClient['client'];
  /** The query surface the repositories use (src/db/prisma.ts). */
  prisma: Models;
  url: string;
  /** Raw SQL inside the write transaction `tx` (the dialect's fastest way: sqlite-direct.ts on SQLite). */
  writeSql(tx: Tx): RawSql;
  /**
   * Runs `fn` in one write transaction: Prisma's interactive transaction on PostgreSQL,
   * on SQLite one straight on the writer connection (sqlite-write-tx.ts). Only the
   * write queue (repositories/tx.ts) calls it.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** A value that changes when another connection commits (Dialect.changeMarker, or the client's own). */
  changeMarker(): Promise<unknown>;
  /** Raw reads below Prisma for the change feed, where the dialect has them (OpenedClient.feedSql). */
  feedSql?: RawSql;
  /** The pool's counts (null where the dialect has no pool). */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}

export const DEFAULT_DATABASE_URL = 'file:./data/promptd.db';

export { ACCEPTED_DATABASE_URLS } from './dialects.js';

/** Unknown schemes are refused (a ConfigError naming `from`) where the dialect is chosen, in dialectFor(). */
export function normaliseDatabaseUrl(url: string | undefined, from = 'DATABASE_URL'): string {
  const u = url?.trim() || DEFAULT_DATABASE_URL;
  return dialectFor(u, from).normaliseUrl(u, from);
}

/** The absolute path of a SQLite database file (undefined for PostgreSQL and :memory:). */
export function sqliteFileOf(url: string): string | undefined {
  return dialectFor(url).localFile(url);
}

/**
 * The database URL to hand to a client started elsewhere (an MCP client's config):
 * a local database file as an absolute `file:` URL, with `missingFile` when it does not
 * exist yet; any other URL as given.
 */
export function portableDatabaseUrl(url: string): { url: string; missingFile?: string } {
  const file = sqliteFileOf(url);
  if (!file) return { url };
  return existsSync(file) ? { url: `file:${file}` } : { url: `file:${file}`, missingFile: file };
}

/**
 * Creates the directory of a SQLite database file (0700: the file holds token hashes
 * and the cursor secret); returns it when it did not exist. Only the commands that
 * may create a database call this (serve, migrate, seed), so a typo in a path never
 * leaves directories behind.
 */
export function ensureDatabaseDirectory(url: string): string | undefined {
  const file = sqliteFileOf(url);
  if (!file || existsSync(path.dirname(file))) return undefined;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return path.dirname(file);
}

export async function createDb(rawUrl?: string, opts: AdapterOptions = {}): Promise<Db> {
  const url = normaliseDatabaseUrl(rawUrl);
  const dialect = dialectFor(url);
  const opened = await dialect.openClient(url, opts);
  const poolStats = opened.poolStats ? () => opened.poolStats() : () => null;
  const changeMarker = opened.changeMarker ?? (() => dialect.changeMarker(opened.models));
  return {
    dialect,
    provider: dialect.provider,
    client: opened.client,
    prisma: opened.models,
    url,
    writeSql: opened.writeSql,
    transaction: opened.transaction,
    changeMarker,
    feedSql: opened.feedSql,
    poolStats,
    close: () => opened.client.$disconnect(),
  };
}

/** A missing migrations table: a database no promptd has migrated yet. */
const noMigrationsTable = (e: unknown) =>
  (e as { cause?: { kind?: string } })?.cause?.kind === 'TableDoesNotExist' || /no such table|_prisma_migrations.*does not exist|\b42P01\b/i.test(String((e as Error)?.message ?? e));

/**
 * Migration names recorded as applied, read without the schema engine. The engine
 * takes SQLite's EXCLUSIVE locking mode, which waits for every other connection to
 * go away; a `promptd mcp` started next to a running `promptd serve` must not, so we
 * only start the engine when something is pending. Null when no migration table
 * exists; any other failure (an unreachable server) is thrown, not taken for "none".
 */
async function appliedMigrationNames(url: string, opts: AdapterOptions = {}): Promise<Set<string> | null> {
  const factory = adapterFactoryFor(url, { ...opts, poolMax: 1 }) as unknown as {
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
  } catch (e) {
    if (noMigrationsTable(e)) return null;
    throw e;
  } finally {
    await conn.dispose();
  }
}

/** What a database holds of our migrations: `migrated` false when it has none at all (not a promptd database, or a new one). */
export async function migrationState(rawUrl: string, opts: AdapterOptions = {}): Promise<{ migrated: boolean; pending: string[] }> {
  const url = normaliseDatabaseUrl(rawUrl);
  const applied = await appliedMigrationNames(url, opts);
  const { migrationDirectories } = await readMigrations(providerOf(url));
  return { migrated: applied !== null, pending: migrationDirectories.map((d) => d.path).filter((p) => !applied?.has(p)) };
}

/** Names of the migrations not applied yet, read without writing (a read-only database can answer). */
export async function pendingMigrations(rawUrl: string, opts: AdapterOptions = {}): Promise<string[]> {
  return (await migrationState(rawUrl, opts)).pending;
}

/** Applies pending migrations through Prisma's wasm schema engine. */
export async function migrateDatabase(rawUrl?: string): Promise<string[]> {
  const url = normaliseDatabaseUrl(rawUrl);
  // Migrating is how a database is created: the directory too (callers decide whether they may).
  dialectFor(url).secureFiles(url, { createDirectory: true, createFile: true });
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
  } catch (e) {
    // The engine needs the database to itself (SQLite: EXCLUSIVE locking mode). When
    // another process holds it past the busy timeout, the adapter reports the lock as
    // "SocketTimeout", a kind the engine does not know, and the message named neither.
    if (dialectFor(url).isRetryable(e) || /\bSocketTimeout\b/.test(String((e as Error)?.message ?? e))) {
      throw new Error(
        `cannot apply migrations: another process holds ${describeDatabase(url)} (a promptd serve, mcp or import of an older version?); stop it and start again`,
        { cause: e },
      );
    }
    throw e;
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

/** What a command prints for its database: the SQLite file, or PostgreSQL user@host/db (no password). */
export function describeDatabase(url: string): string {
  const file = sqliteFileOf(url);
  if (file) return file;
  if (!/^postgres/i.test(url)) return url; // :memory:
  try {
    const u = new URL(url);
    return `PostgreSQL ${u.username ? `${decodeURIComponent(u.username)}@` : ''}${u.host}${u.pathname}`;
  } catch {
    return 'PostgreSQL (unparsable URL)';
  }
}
