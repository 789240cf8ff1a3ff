// PostgreSQL: a pool per instance, an advisory lock for writers, NOTIFY on commit and
// a LISTEN connection per instance for wake-ups.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { PrismaPg as PrismaPgType } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import { messagesOf, WRITE_TX_OPTIONS, type AdapterOptions, type Dialect } from './dialect.js';
import type { Models, PgClient as PgClientType, Tx } from './prisma.js';
import { listenForChanges, CHANGE_CHANNEL, pgDriver } from './pg-listener.js';
import { projectRoot } from './paths.js';
import { ConfigError } from '../config-error.js';
import { prismaSql } from './raw-sql.js';
import { createStatementNames } from './pg-statement-names.js';

// Loaded on first use (as pg-listener.ts loads pg): a SQLite command (`promptd import`)
// starts without PostgreSQL's driver and adapter (~60 ms of CPU).
const require = createRequire(import.meta.url);
let adapterModule: { PrismaPg: typeof PrismaPgType } | undefined;
const newPrismaPg = (...args: ConstructorParameters<typeof PrismaPgType>): PrismaPgType => new (adapterModule ??= require('@prisma/adapter-pg')).PrismaPg(...args);

/** Key of the transaction-scoped advisory lock every writer takes. */
const WRITE_LOCK_KEY = 7320247;

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

/** Pool size: `?connection_limit=` (Prisma's convention) or PROMPTD_DB_POOL_MAX, default 10. */
function adapterPoolMax(url: string, opts: AdapterOptions): number {
  const fromUrl = Number(new URL(url).searchParams.get('connection_limit') ?? process.env.PROMPTD_DB_POOL_MAX ?? NaN);
  return opts.poolMax ?? (Number.isInteger(fromUrl) && fromUrl > 0 ? fromUrl : 10);
}

function adapterFactory(url: string, opts: AdapterOptions = {}) {
  const max = adapterPoolMax(url, opts);
  const config = { ...pgConfigFromUrl(url), max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: opts.poolTimeoutMs ?? 10_000 };
  // Each factory (one per store) names its own statements; see pg-statement-names.ts.
  return withPgShadowDatabase(newPrismaPg(config, { statementNameGenerator: createStatementNames() }), config);
}

/**
 * The schema engine diffs against a throw-away shadow database. The adapter's own
 * shadow support drops that database while its pool still holds a connection, so
 * we create and drop it ourselves (DROP … WITH (FORCE)).
 */
function withPgShadowDatabase(factory: PrismaPgType, config: pg.PoolConfig): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => factory.connect(),
    connectToShadowDb: async () => {
      const name = `promptd_shadow_${randomUUID().replace(/-/g, '')}`;
      const admin = new (pgDriver().Client)(config);
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const shadowFactory = newPrismaPg({ ...config, database: name, max: 2 });
      const conn = await shadowFactory.connect();
      const dispose = conn.dispose.bind(conn);
      conn.dispose = async () => {
        await dispose();
        await (conn.underlyingDriver() as pg.Pool).end().catch(() => {});
        const c = new (pgDriver().Client)(config);
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => c.end());
      };
      return conn;
    },
  };
}

type PerformIO = (q: unknown) => Promise<{ fields: { dataTypeID: number }[] }>;

/**
 * The engine's PostgreSQL introspection reads catalog columns of type "char"
 * (OID 18), which @prisma/adapter-pg cannot map; they hold plain text, so we
 * present them as text (OID 25).
 */
function engineAdapter(factory: object): object {
  const f = factory as { provider: string; adapterName: string; connect(): Promise<object>; connectToShadowDb(): Promise<object> };
  const patch = (a: object) => {
    const conn = a as { performIO?: PerformIO };
    const original = conn.performIO;
    if (typeof original !== 'function') throw new Error('@prisma/adapter-pg no longer has performIO; the schema engine compatibility patch in src/db/dialect-postgres.ts needs updating');
    conn.performIO = async function (this: unknown, q: unknown) {
      const r = await original.call(this, q);
      for (const field of r.fields) if (field.dataTypeID === 18) field.dataTypeID = 25;
      return r;
    };
    return a;
  };
  return {
    provider: f.provider,
    adapterName: f.adapterName,
    connect: async () => patch(await f.connect()),
    connectToShadowDb: async () => patch(await f.connectToShadowDb()),
  };
}

// SQLSTATEs worth a fresh transaction: serialization failure, deadlock, lock timeout.
const RETRYABLE_SQLSTATE = /\b(40001|40P01|55P03)\b/;
// pg-pool's acquisition timeout, and Prisma's "could not start the transaction in time"
// and write-conflict codes.
const RETRYABLE_MESSAGE = /timeout exceeded when trying to connect|Unable to start a transaction in the given time|\bP2034\b|\bP2028\b/i;

/** Why a first connection failed, in words a person can act on (pg's error codes and Node's). */
function connectCause(e: unknown, c: ReturnType<typeof pgConfigFromUrl>): string {
  const err = e as { code?: string; message?: string };
  const msg = String(err?.message ?? e).split('\n')[0]!;
  switch (err?.code) {
    case 'ECONNREFUSED': return `connection refused (is PostgreSQL running and listening on port ${c.port}?)`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `unknown host ${c.host}`;
    case 'ETIMEDOUT': case 'EHOSTUNREACH': case 'ENETUNREACH': return `no answer from ${c.host} (${err.code})`;
    case '28P01': return `authentication failed: ${msg}`;
    case '28000': return `authentication refused: ${msg}`;
    case '3D000': return `the database "${c.database}" does not exist (create it: createdb ${c.database})`;
  }
  if (/SSL|TLS|certificate/i.test(msg)) return `TLS: ${msg} (see sslmode in the URL)`;
  return msg;
}

export const postgresDialect: Dialect = {
  provider: 'postgresql',
  normaliseUrl(url, from = 'DATABASE_URL') {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new ConfigError(`${from}: not a valid postgres:// URL`);
    }
    // Accepted silently before and replaced by the default 10: say so instead.
    const limit = u.searchParams.get('connection_limit');
    if (limit !== null && (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 1000)) {
      throw new ConfigError(`${from}: connection_limit must be a whole number from 1 to 1000 (got "${limit}")`);
    }
    return url;
  },
  async checkConnection(url) {
    const config = pgConfigFromUrl(url);
    const client = new (pgDriver().Client)({ ...config, connectionTimeoutMillis: 10_000 });
    // A refused connection can also surface as an 'error' event after connect() rejects.
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (e) {
      const where = `${config.user ? `${config.user}@` : ''}${config.host}:${config.port}/${config.database ?? ''}`;
      throw new Error(`cannot connect to PostgreSQL ${where}: ${connectCause(e, config)}`);
    } finally {
      await client.end().catch(() => {});
    }
  },
  secureFiles: () => {},
  localFile: () => undefined,
  displayUrl(url) {
    try {
      const u = new URL(url);
      if (u.password) u.password = '<password>';
      return u.toString();
    } catch {
      return 'postgresql://<user>:<password>@<host>/<database>';
    }
  },
  adapterFactory,
  async openClient(url, opts) {
    // The adapter makes its pool on connect; keep hold of it to report its counts.
    const factory = adapterFactory(url, opts);
    let pool: pg.Pool | undefined;
    const adapter: SqlMigrationAwareDriverAdapterFactory = {
      ...factory,
      connect: async () => {
        const conn = await factory.connect();
        pool = (conn as unknown as { underlyingDriver(): pg.Pool }).underlyingDriver();
        return conn;
      },
    };
    // errorFormat minimal: no stack trace captured per query (see dialect-sqlite.ts).
    // Imported here: a SQLite process never loads PostgreSQL's generated client (its
    // module and data model stay out of the heap).
    const { PrismaClient: PgClient } = await import('../generated/postgres/client.js');
    const client: PgClientType = new PgClient({ adapter, errorFormat: 'minimal' });
    const max = adapterPoolMax(url, opts ?? {});
    const poolStats = () => (pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max } : { total: 0, idle: 0, waiting: 0, max });
    // The repositories are typed against the SQLite client's declarations (src/db/prisma.ts);
    // the generated PostgreSQL client has the same delegates, but TypeScript cannot
    // relate two sets of generated conditional types, so the shared surface is named here once.
    const models = client as unknown as Models;
    return {
      provider: 'postgresql',
      client,
      models,
      poolStats,
      writeSql: (tx) => ({ ...prismaSql(tx), arrays: true }),
      transaction: (fn) => models.$transaction(fn, WRITE_TX_OPTIONS),
    };
  },
  schemaPath: path.join(projectRoot, 'prisma', 'postgres', 'schema.prisma'),
  migrationsDir: path.join(projectRoot, 'prisma', 'postgres', 'migrations'),
  seedsEmptyDatabase: false,
  externalTables: [],
  // The pg_trgm GIN index (migration prompt_search) serves LIKE '%q%' itself.
  searchCandidates: () => undefined,
  // pg_trgm extracts no trigram from a LIKE pattern of fewer than 3 characters.
  searchIndexed: (q) => Array.from(q).length >= 3,
  engineAdapter,

  // Writers commit one at a time, so change-log ids become visible in id order and a
  // follower reading `id > last` never skips a late commit.
  // The commit notification is queued in the same round trip: a NOTIFY is delivered to
  // every LISTENing instance when (and only if) the transaction commits, wherever in
  // the transaction it was sent, so it need not be the last statement.
  async takeWriteLock(tx: Tx) {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY}), pg_notify('${CHANGE_CHANNEL}', '')`);
  },
  async notifyOnCommit() {
    // Sent with the lock (above).
  },
  async changeMarker(models: Models) {
    return (await models.changeEvent.findFirst({ orderBy: { id: 'desc' }, select: { id: true } }))?.id ?? 0;
  },
  // NOTIFY wakes followers; the poll is only a safety net.
  pollMs: 1_000,
  listen: (url, onWake, onError) => listenForChanges(url, onWake, onError),
  isRetryable: (e) => {
    const m = messagesOf(e);
    return RETRYABLE_SQLSTATE.test(m) || RETRYABLE_MESSAGE.test(m);
  },

  sql: {
    param: (i) => `$${i}`,
    jsonArray: 'json_build_array',
    jsonAgg: (expr, order) => `COALESCE(json_agg(${expr} ORDER BY ${order}), '[]'::json)`,
    hex: (column) => `encode(${column}, 'hex')`,
    jsonText: '::text',
    noIndex: (expr: string) => expr,
    writableCte: true,
    streamingRowNumber: true,
    instantParam: ['CAST(', ' AS TIMESTAMP(3))'],
  },
};
