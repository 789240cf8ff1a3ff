import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { providerOf } from './provider.js';

export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

export function sqliteFilePath(url: string): string {
  return url.replace(/^file:/, '');
}

export function adapterFactoryFor(url: string, opts: { shadowDatabaseUrl?: string; poolMax?: number } = {}) {
  if (providerOf(url) === 'postgresql') {
    // Pool size: `?connection_limit=` (Prisma's convention) or PROMPTD_DB_POOL_MAX, default 10.
    const fromUrl = Number(new URL(url).searchParams.get('connection_limit') ?? process.env.PROMPTD_DB_POOL_MAX ?? NaN);
    const max = opts.poolMax ?? (Number.isInteger(fromUrl) && fromUrl > 0 ? fromUrl : 10);
    const config = { ...pgConfigFromUrl(url), max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 };
    return withPgShadowDatabase(new PrismaPg(config), config);
  }
  const file = sqliteFilePath(url);
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // better-sqlite3's `timeout` is SQLite's busy timeout: a writer waits for the
  // other process's lock instead of failing with SQLITE_BUSY.
  return new PrismaBetterSqlite3(
    { url: `file:${file}`, timeout: SQLITE_BUSY_TIMEOUT_MS },
    { shadowDatabaseUrl: opts.shadowDatabaseUrl ?? ':memory:' },
  );
}

/**
 * Discrete fields rather than `connectionString`: the adapter builds its shadow
 * database pool as `{ ...config, database }`, which a connection string would override.
 */
export function pgConfigFromUrl(url: string) {
  const u = new URL(url);
  const params = Object.fromEntries(u.searchParams);
  return {
    host: decodeURIComponent(u.hostname.replace(/^\[|\]$/g, '')) || params.host || 'localhost',
    port: u.port ? Number(u.port) : 5432,
    user: decodeURIComponent(u.username) || params.user || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || undefined,
    ...(params.sslmode && params.sslmode !== 'disable' ? { ssl: { rejectUnauthorized: params.sslmode === 'verify-full' } } : {}),
    ...(params.application_name ? { application_name: params.application_name } : {}),
  };
}

/**
 * The schema engine diffs against a throw-away shadow database. The adapter's own
 * shadow support drops that database while its pool still holds a connection, so
 * we create and drop it ourselves (DROP … WITH (FORCE)).
 */
function withPgShadowDatabase(factory: PrismaPg, config: pg.PoolConfig) {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => factory.connect(),
    connectToShadowDb: async () => {
      const name = `promptd_shadow_${randomUUID().replace(/-/g, '')}`;
      const admin = new pg.Client(config);
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const shadowFactory = new PrismaPg({ ...config, database: name, max: 2 });
      const conn = await shadowFactory.connect();
      const dispose = conn.dispose.bind(conn);
      conn.dispose = async () => {
        await dispose();
        await (conn.underlyingDriver() as pg.Pool).end().catch(() => {});
        const c = new pg.Client(config);
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => c.end());
      };
      return conn;
    },
  };
}
