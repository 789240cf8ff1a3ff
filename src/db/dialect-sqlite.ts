// SQLite: one file, WAL, a busy timeout, and a write lock taken by the first statement.
import { ensurePrivateSqliteFile } from './sqlite-file-mode.js';
import { ConfigError } from '../config-error.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { messagesOf, type AdapterOptions, type Dialect } from './dialect.js';
import { Prisma, SqliteClient, type Models, type Tx } from './prisma.js';
import { projectRoot } from './paths.js';
import { sqliteDirectSql, sqliteReadSql } from './sqlite-direct.js';
import type { RawSql } from './raw-sql.js';
import { twoConnectionFactory, type SqliteWriter } from './sqlite-connections.js';
import { directWriteTx } from './sqlite-write-tx.js';

/** SQLite's page cache per connection, in KiB (SQLite's own default). */
const PAGE_CACHE_KIB = 2000;

// better-sqlite3 builds SQLite with a 16 MB page cache per connection (SQLite's own
// default is 2 MB). The served catalog is read once at start and then kept in
// memory, so that load filled the cache with pages never read again: ~9 MiB of
// malloc held for good at 100,000 prompts (bench/history.md, section 17). Reads after
// start are few and small, and the file's pages stay in the OS cache.
const CONNECTION_PRAGMAS = ['synchronous = NORMAL', 'foreign_keys = ON', `cache_size = -${PAGE_CACHE_KIB}`];
// The reader's cache holds one bounded q= scan's window (5,000 prompts' rows, ~2.8 MB at
// ~550 bytes a row): with 2 MB the page query and the where-it-stopped query each re-read
// every page through the OS (pread), 2.6x the CPU of the same two statements with the
// window cached (bench/history.md section 26). 1 MB more for the one connection.
const READER_CACHE_KIB = 3000;
// How often a long-running process brings the planner's statistics up to date
// (sqlite-connections.ts `optimize`); SQLite suggests hourly to daily.
const OPTIMIZE_EVERY_MS = 60 * 60 * 1000;
const READER_PRAGMAS = [...CONNECTION_PRAGMAS.slice(0, -1), `cache_size = -${READER_CACHE_KIB}`];

export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

export function sqliteFilePath(url: string): string {
  return url.replace(/^file:/, '');
}

// The directory of the file must exist: only `serve`, `migrate` and `seed` create it
// (ensureDatabaseDirectory, migrateDatabase), so a typo in a path never leaves directories behind.
function adapterFactory(url: string, opts: AdapterOptions = {}) {
  const file = sqliteFilePath(url);
  const o = opts.sqlite ?? {};
  // A WAL database in a directory we cannot write opens only as immutable (SQLite
  // cannot create its -shm file there); that needs URI file names (SQLITE_USE_URI=1,
  // set by bin/promptd.js). The adapter strips one `file:`, so the URI keeps its own.
  const name = o.immutable ? `file:${pathToFileURL(path.resolve(file)).href}?immutable=1` : `file:${file}`;
  // better-sqlite3's `timeout` is SQLite's busy timeout: a writer waits for the
  // other process's lock instead of failing with SQLITE_BUSY.
  return new PrismaBetterSqlite3(
    { url: name, timeout: SQLITE_BUSY_TIMEOUT_MS, ...(o.readOnly || o.immutable ? { readonly: true } : {}), ...(o.mustExist ? { fileMustExist: true } : {}) },
    { shadowDatabaseUrl: opts.shadowDatabaseUrl ?? ':memory:' },
  );
}

interface RawAdapter {
  executeRaw(q: { sql: string; args: unknown[] }): Promise<number>;
  executeScript(sql: string): Promise<void>;
}

/** Trigrams a FTS5 query ANDs at most: enough to make a long query rare, few enough to stay cheap. */
const MAX_TRIGRAMS = 12;

/**
 * An FTS5 query for the "PromptSearch" trigram index (migration search_trigram): every
 * trigram of q (spread out when there are many), each a quoted string. The index has
 * no positions (detail=none), so this finds texts holding all of them, a superset of
 * those holding q; the LIKE beside it is the exact test. Undefined below 3 characters.
 */
export function trigramMatch(q: string): string | undefined {
  const cs = Array.from(q);
  if (cs.length < 3) return undefined;
  const all = cs.slice(2).map((_, i) => cs.slice(i, i + 3).join(''));
  const picked = all.length <= MAX_TRIGRAMS ? all : Array.from({ length: MAX_TRIGRAMS }, (_, i) => all[Math.round((i * (all.length - 1)) / (MAX_TRIGRAMS - 1))]!);
  return [...new Set(picked)].map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ');
}

/**
 * The engine replays whole migration files on SQLite shadow databases through
 * executeRaw, which better-sqlite3 refuses for multi-statement SQL; route
 * argument-less statements through executeScript there instead.
 */
function engineAdapter(factory: object): object {
  const f = factory as { provider: string; adapterName: string; connect(): Promise<unknown>; connectToShadowDb(): Promise<RawAdapter> };
  return {
    provider: f.provider,
    adapterName: f.adapterName,
    connect: () => f.connect(),
    connectToShadowDb: async () => {
      const a = await f.connectToShadowDb();
      return new Proxy(a, {
        get(target, key) {
          if (key === 'executeRaw') {
            return async (q: { sql: string; args: unknown[] }) => {
              if (q.args.length === 0) {
                await target.executeScript(q.sql);
                return 0;
              }
              return target.executeRaw(q);
            };
          }
          const v = (target as unknown as Record<PropertyKey, unknown>)[key];
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    },
  };
}

export const sqliteDialect: Dialect = {
  provider: 'sqlite',
  normaliseUrl(url, from = 'DATABASE_URL') {
    // `file:` alone resolved to the current directory, which SQLite then opened as a temporary database.
    if (!sqliteFilePath(url).trim()) throw new ConfigError(`${from}: "${url}" names no file; use file:PATH or a path (e.g. file:./data/promptd.db)`);
    return url.startsWith('file:') ? url : `file:${url}`;
  },
  // The file holds the library, token hashes and the cursor secret: created private (src/db/sqlite-file-mode.ts).
  displayUrl(url) {
    // A desktop client starts `promptd mcp` in a directory of its own choosing.
    const file = sqliteDialect.localFile(url);
    return file ? `file:${file}` : url;
  },
  localFile(url) {
    const file = sqliteFilePath(url);
    return file === ':memory:' ? undefined : path.resolve(file);
  },
  secureFiles(url, may) {
    for (const w of ensurePrivateSqliteFile(sqliteFilePath(url), may)) process.emitWarning(w, 'PromptdSecurityWarning');
  },
  adapterFactory,
  async openClient(url, opts) {
    // Never the directory here (see adapterFactory); the file only when this open may create it.
    const o = opts?.sqlite ?? {};
    sqliteDialect.secureFiles(url, { createFile: !o.mustExist && !o.readOnly && !o.immutable });
    const readOnly = Boolean(o.readOnly || o.immutable);
    // A writer and a reader (sqlite-connections.ts); one connection where a second
    // would not see the same database or nothing is written.
    const single = readOnly || sqliteFilePath(url) === ':memory:';
    let writer: SqliteWriter | undefined;
    const factory = twoConnectionFactory(
      adapterFactory(url, opts),
      single ? undefined : adapterFactory(url, { ...opts, sqlite: { ...o, readOnly: true } }),
      {
        single,
        pragmas: {
          // WAL lets a reader (ours, or a `promptd mcp` stdio process) read while a
          // writer writes; the mode is stored in the file, so setting it once per open is enough.
          writer: [...(readOnly ? [] : ['journal_mode = WAL']), ...CONNECTION_PRAGMAS],
          reader: READER_PRAGMAS,
        },
        optimize: readOnly ? undefined : { everyMs: OPTIMIZE_EVERY_MS },
      },
      (w) => (writer = w),
    );
    // errorFormat minimal: otherwise every query captures a stack trace (new Error()) for
    // the call site of a possible error message, a sixth of a version write's CPU
    // (bench/writes-profile.ts); our errors are translated to domain errors anyway.
    const client = new SqliteClient({ adapter: factory, errorFormat: 'minimal' });
    // Prisma connects on its first query: the writer exists after this.
    await client.$queryRawUnsafe('SELECT 1');
    const w = writer!;
    // The write path's raw SQL runs on the writer below Prisma (sqlite-direct.ts).
    const direct = sqliteDirectSql(w.connection, w.compiled);
    return {
      provider: 'sqlite',
      client,
      models: client,
      writeSql: () => direct,
      // The change feed's read after each commit: on the writer when it is idle (sqlite-direct.ts).
      feedSql: sqliteReadSql(w.readerCompiled, w),
      transaction: (fn) => directWriteTx(client, async () => w, fn),
      // On the writer: PRAGMA data_version changes with other connections' commits
      // only, and the reader would count the writer's as such.
      // (Through the statement cache: better-sqlite3's pragma() calls the connection's
      // prepare, which the cache has replaced with the adapter's view.)
      changeMarker: async () => Number((w.compiled('PRAGMA data_version').raw(false).get() as { data_version: bigint | number }).data_version),
    };
  },
  schemaPath: path.join(projectRoot, 'prisma', 'schema.prisma'),
  migrationsDir: path.join(projectRoot, 'prisma', 'migrations'),
  seedsEmptyDatabase: true,
  // migration search_trigram: the FTS5 table and the shadow tables FTS5 makes for it
  externalTables: ['PromptSearch', 'PromptSearch_config', 'PromptSearch_data', 'PromptSearch_docsize', 'PromptSearch_idx'],
  engineAdapter,
  searchCandidates(q) {
    const match = trigramMatch(q);
    return match === undefined ? undefined : Prisma.sql`SELECT "rowid" AS "id" FROM "PromptSearch" WHERE "PromptSearch" MATCH ${match}`;
  },
  searchIndexed: (q) => trigramMatch(q) !== undefined,

  /**
   * Nothing to do: every write transaction begins IMMEDIATE (sqlite-write-tx.ts,
   * sqlite-connections.ts), a writer from its first statement. A deferred one that read
   * first and then wrote would fail at once with SQLITE_BUSY when another process wrote
   * in between (the busy timeout does not apply to that case).
   */
  async takeWriteLock(_tx: Tx, _sql: RawSql) {},
  async notifyOnCommit() {
    // Nothing to send: other processes poll PRAGMA data_version.
  },
  // Changes only when another connection commits; a no-op read otherwise.
  async changeMarker(models: Models) {
    const rows = await models.$queryRawUnsafe<{ data_version: bigint | number }[]>('PRAGMA data_version');
    return Number(rows[0]?.data_version ?? 0);
  },
  pollMs: 25,
  listen: () => undefined,
  // The busy timeout already waits 10 s for another process's lock; past that, one more try.
  isRetryable: (e) => /SQLITE_BUSY|database is locked/i.test(messagesOf(e)),

  sql: {
    param: () => '?',
    jsonArray: 'json_array',
    // json() keeps a subquery's array an array instead of a string.
    jsonAgg: (expr, order) => `json(json_group_array(${expr} ORDER BY ${order}))`,
    hex: (column) => `hex(${column})`,
    jsonText: '',
    noIndex: (expr: string) => `+${expr}`,
    writableCte: false,
    streamingRowNumber: false,
    instantParam: ['', ''],
  },
};
