// Every difference between SQLite and PostgreSQL lives behind this interface: driver
// adapters and pools, client set-up, the write lock, commit notifications, the cheap
// "did anyone commit?" marker, the LISTEN client, retryable errors and the SQL
// fragments that differ. One dialect is chosen per database URL, in dialectFor() (dialects.ts).
import type { Models, PgClient, Prisma, SqliteClient, Tx } from './prisma.js';
import type { DbProvider } from './provider.js';
import type { PoolStats } from '../core/ports.js';
import type { RawSql } from './raw-sql.js';

export interface AdapterOptions {
  shadowDatabaseUrl?: string;
  /** PostgreSQL: pooled connections (default 10). */
  poolMax?: number;
  /** PostgreSQL: how long to wait for a pooled connection (default 10 s). */
  poolTimeoutMs?: number;
  /** How to open a SQLite file (ignored by PostgreSQL); default: read-write, created when missing. */
  sqlite?: SqliteOpenOptions;
}

export interface SqliteOpenOptions {
  /** fail instead of creating a missing file */
  mustExist?: boolean;
  /** no writes (a file or directory we may not write) */
  readOnly?: boolean;
  /** read-only and no locking, for a WAL file in a read-only directory */
  immutable?: boolean;
}

/** What secureFiles may create (nothing by default: it only checks modes). */
export interface SecureFilesOptions {
  /** the database's directory (0700); only for commands that may create a database */
  createDirectory?: boolean;
  /** the database file itself (0600), when its directory exists */
  createFile?: boolean;
}

export interface ChangeListener {
  close(): Promise<void>;
}

/** Prisma's limits on an interactive write transaction (waiting to start, running). */
export const WRITE_TX_OPTIONS = { maxWait: 30_000, timeout: 30_000 };

interface OpenedCommon {
  models: Models;
  /** Raw SQL inside the write transaction `tx`. */
  writeSql(tx: Tx): RawSql;
  /** Runs `fn` in one write transaction (Db.transaction). */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** The change marker read on the client's own connection, where the dialect's changeMarker(models) would not do. */
  changeMarker?(): Promise<unknown>;
  /** Raw reads outside any transaction below Prisma, where the dialect has a way (SQLite's reader): the change feed's. */
  feedSql?: RawSql;
}

/** A Prisma client as what it is, plus the shared query surface the repositories use. */
export type OpenedClient =
  | (OpenedCommon & { provider: 'sqlite'; client: SqliteClient; poolStats?: undefined })
  | (OpenedCommon & { provider: 'postgresql'; client: PgClient; poolStats(): PoolStats });

export interface Dialect {
  readonly provider: DbProvider;
  /** The URL in its canonical form; a value that cannot work is a ConfigError naming `from` (the flag or variable). */
  normaliseUrl(url: string, from?: string): string;
  /**
   * Connects once and lets go, so a command says in one line why it cannot reach a
   * server database (refused, unknown host, authentication, TLS, no such database)
   * before it prints or migrates anything. Absent for a local file.
   */
  checkConnection?(url: string): Promise<void>;
  /** Makes the database's files private before anything opens them (a no-op for a server database). */
  secureFiles(url: string, may?: SecureFilesOptions): void;
  /** The absolute path of the database file, for a database that is one (undefined for a server or :memory:). */
  localFile(url: string): string | undefined;
  /** The URL as it may be shown to a person: absolute SQLite path, no PostgreSQL password. */
  displayUrl(url: string): string;
  /** A Prisma driver adapter factory (also what the schema engine is given). */
  adapterFactory(url: string, opts?: AdapterOptions): object;
  openClient(url: string, opts?: AdapterOptions): Promise<OpenedClient>;
  readonly schemaPath: string;
  readonly migrationsDir: string;
  /** `serve` loads the seed library into an empty database by default (a local file: yes; a shared server: no). */
  readonly seedsEmptyDatabase: boolean;
  /**
   * Tables the migrations create in raw SQL that the Prisma schema does not describe
   * (SQLite's FTS5 search index and its shadow tables): the schema engine leaves them
   * out of its diffs, so drift checks and `db:diff` do not drop them.
   */
  readonly externalTables: readonly string[];
  /** Wraps an adapter factory for the wasm schema engine's quirks on this database. */
  engineAdapter(factory: object): object;

  /** First statement of every write transaction (`sql`: the transaction's raw SQL, Db.writeSql): writers go one at a time. */
  takeWriteLock(tx: Tx, sql: RawSql): Promise<void>;
  /**
   * Last call of every write transaction: wakes other processes when it commits. A
   * dialect whose notification is only delivered on commit may send it with the write
   * lock instead (PostgreSQL: one round trip fewer) and do nothing here.
   */
  notifyOnCommit(tx: Tx): Promise<void>;
  /** A value that changes when another connection commits; read cheaply and often. */
  changeMarker(models: Models): Promise<unknown>;
  /** How often to read the marker by default. */
  readonly pollMs: number;
  /** Push wake-ups from other processes, where the database has them. */
  listen(url: string, onWake: () => void, onError: (e: unknown) => void): ChangeListener | undefined;
  /** A failure worth running the whole transaction again for (lock timeouts, serialization failures, pool exhaustion). */
  isRetryable(e: unknown): boolean;

  /**
   * A query of prompt ids (one column, "id") holding every prompt whose search text
   * contains q and maybe more, read from a text index of its own; undefined when the
   * LIKE itself is indexed (PostgreSQL's pg_trgm) or no index can help (fewer than 3
   * characters). `q` is lowercased.
   */
  searchCandidates(q: string): Prisma.Sql | undefined;
  /**
   * Whether an index serves a search for q (SQLite's FTS5 trigrams, PostgreSQL's
   * pg_trgm: 3+ characters). Otherwise the search reads every row's text, so the list
   * reads a bounded number of rows per request (prompt-list.ts). `q` is lowercased.
   */
  searchIndexed(q: string): boolean;

  readonly sql: {
    /** positional parameter `i` (1-based) */
    param(i: number): string;
    /** JSON array constructor */
    jsonArray: string;
    /** aggregate `expr` rows into a JSON array ordered by `order` (empty array for none) */
    jsonAgg(expr: string, order: string): string;
    /** bytes column as lowercase hex text */
    hex(column: string): string;
    /** suffix turning a JSON value into text */
    jsonText: string;
    /**
     * `expr` as an operand the planner must not look up by index (SQLite: unary `+`),
     * so that a listing walks the name index in order and stops at its LIMIT instead of
     * sorting every row it found through another index; PostgreSQL: unchanged.
     */
    noIndex(expr: string): string;
    /**
     * INSERT/UPDATE … RETURNING can be WITH clauses of one statement (PostgreSQL's
     * data-modifying CTEs): a version's rows go in one round trip (version-batch.ts).
     * SQLite has none, and runs its statements on the connection directly instead.
     */
    writableCte: boolean;
    /**
     * `ROW_NUMBER() OVER (ORDER BY <the order its input already has>)` streams: no sort,
     * and a LIMIT above it stops the walk (PostgreSQL). A bounded scan then finds its
     * page and where it stopped in one walk (prompt-list.ts). SQLite runs the window
     * function as a co-routine and orders the statement's rows again in a temp B-tree,
     * which made that one statement slower than its two (bench/history.md 22, 32).
     */
    streamingRowNumber: boolean;
    /**
     * What goes before and after a bound Date so it is an instant where nothing else
     * types it (a VALUES list): PostgreSQL would take the parameter as text; SQLite binds
     * it as stored already.
     */
    instantParam: readonly [before: string, after: string];
  };
}

/** The error's message and its causes' messages and codes, for matching driver errors wrapped by Prisma. */
export function messagesOf(e: unknown): string {
  const out: string[] = [];
  for (let c: unknown = e, i = 0; c && i < 5; c = (c as { cause?: unknown }).cause, i++) {
    if (typeof (c as { message?: unknown }).message === 'string') out.push((c as { message: string }).message);
    const code = (c as { originalCode?: unknown }).originalCode ?? (c as { code?: unknown }).code;
    if (typeof code === 'string') out.push(code);
  }
  return out.join(' | ');
}
