// SQLite behind Prisma on two connections of one file: a writer for writes only and a
// reader for every read outside a write transaction.
//
// Why: Prisma's better-sqlite3 adapter has one connection, and only startTransaction
// waits for its mutex, so a read issued while a write transaction was open ran inside
// that transaction and could see its uncommitted rows, even rows a savepoint rolled
// back afterwards (a 412 in a group commit). Here a statement outside a transaction
// that only reads goes to the reader (WAL: it sees the last committed state, never
// waits for the writer); everything else goes to the writer, after the transaction
// that holds it (one mutex for Prisma's transactions, the write path's own ones
// (begin(), sqlite-write-tx.ts) and single writes). One PrismaClient either way: one
// query compiler, one set of plans.
//
// A database opened read-only or immutable, and :memory: (a second connection would
// be a different database), keep one connection, as before.
import type { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { cacheStatements, type Connection, type Statement } from './sqlite-statement-cache.js';
import { ADOPT_LEVEL } from './sqlite-write-tx.js';

export interface Query { sql: string; args: unknown[]; argTypes: unknown[] }

interface Queryable {
  readonly provider: 'sqlite';
  readonly adapterName: string;
  queryRaw(q: Query): Promise<unknown>;
  executeRaw(q: Query): Promise<number>;
}

/** What PrismaBetterSqlite3Adapter offers (its connection as `client` is not public API: sqlite-statement-cache.ts checks it). */
interface InnerAdapter extends Queryable {
  client: Connection & { pragma(source: string, opts?: { simple?: boolean }): unknown; close(): void };
  executeScript(script: string): Promise<void>;
  dispose(): Promise<void>;
}

export interface SqliteConnectionOptions {
  /** One connection only (read-only, immutable, :memory:). */
  single: boolean;
  /** Statements run on a connection as it opens (WAL, synchronous, foreign keys, cache size). */
  pragmas: { writer: string[]; reader: string[] };
  /**
   * Keep the query planner's statistics (sqlite_stat1) current, as SQLite advises for
   * long-lived connections: at open, every `everyMs` and at close, `PRAGMA
   * optimize=0x10002` analyzes every table never analyzed or grown or shrunk tenfold
   * since. That mask, not the default one: the default analyzes with a sample limit, and
   * a sample of 2,000 rows of the (deletedAt, name) index, all live, told the planner
   * "2,001 rows per deletedAt", so a sort=updated q= page walked and sorted every live
   * prompt (480 ms at 100,000). Without statistics list pages took 100–600 ms
   * (bench/history.md 35). Not for a read-only connection.
   */
  optimize?: { everyMs: number };
}

/** The writer as the write path sees it, once Prisma has connected. */
export interface SqliteWriter {
  connection: Connection & { pragma(source: string, opts?: { simple?: boolean }): unknown };
  /** Compiled statements of the writer (sqlite-direct.ts runs them). */
  compiled(sql: string): Statement;
  /** Waits for the writer: resolves with the function that frees it again. */
  lock(): Promise<() => void>;
  /** See DirectWriter.adoptNext (sqlite-write-tx.ts). */
  adoptNext: boolean;
  /** Compiled statements of the reader (the writer's where there is one connection). */
  readerCompiled(sql: string): Statement;
}

const BEGIN: Query = { sql: 'BEGIN IMMEDIATE', args: [], argTypes: [] };
const plain = (sql: string): Query => ({ sql, args: [], argTypes: [] });

/**
 * Writers of this process in turn: a transaction holds the writer from BEGIN to
 * COMMIT or ROLLBACK, a single write statement while it runs.
 */
function createMutex() {
  let tail: Promise<void> = Promise.resolve();
  return (): Promise<() => void> => {
    let free!: () => void;
    const freed = new Promise<void>((r) => (free = r));
    const turn = tail.then(() => {
      let done = false;
      return () => {
        if (!done) (done = true), free();
      };
    });
    tail = tail.then(() => freed);
    return turn;
  };
}

/**
 * A Prisma driver adapter factory over `inner` (the stock better-sqlite3 one) that
 * opens a writer and, unless `single`, a read-only reader. `onWriter` hands the write
 * path its connection once Prisma has connected.
 */
export function twoConnectionFactory(
  inner: PrismaBetterSqlite3,
  readerFactory: PrismaBetterSqlite3 | undefined,
  opts: SqliteConnectionOptions,
  onWriter: (w: SqliteWriter) => void,
): PrismaBetterSqlite3 {
  // (The stock factory keeps its settings in private fields: a wrapper, not a subclass.)
  const factory = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connectToShadowDb: () => inner.connectToShadowDb(),
    connect: undefined as unknown as PrismaBetterSqlite3['connect'],
  };
  factory.connect = async () => {
    const w = (await inner.connect()) as unknown as InnerAdapter;
    for (const p of opts.pragmas.writer) w.client.pragma(p);
    const writerCompiled = cacheStatements(w.client);
    // Opened after the writer has switched the file to WAL (a read-only connection cannot).
    const r = opts.single || !readerFactory ? w : ((await readerFactory.connect()) as unknown as InnerAdapter);
    let readerCompiled = writerCompiled;
    if (r !== w) {
      for (const p of opts.pragmas.reader) r.client.pragma(p);
      readerCompiled = cacheStatements(r.client);
    }
    const lock = createMutex();
    const writer: SqliteWriter = { connection: w.client, compiled: writerCompiled, lock, adoptNext: false, readerCompiled };
    onWriter(writer);
    // ANALYZE writes sqlite_stat1: a busy database (another process's write) only defers it.
    const optimize = () => {
      if (!opts.optimize) return;
      try {
        writerCompiled('PRAGMA optimize=0x10002').run();
      } catch {
        // Statistics are an aid to the planner: a failure leaves the old ones.
      }
    };
    optimize();
    const optimizer = opts.optimize ? setInterval(() => void lock().then((free) => (optimize(), free())), opts.optimize.everyMs) : undefined;
    optimizer?.unref();

    // Whether a statement may run on the reader: it returns rows and writes nothing
    // (BEGIN, SAVEPOINT and setting PRAGMAs say "read-only" too, but return no rows).
    const kinds = new Map<string, boolean>();
    const readsOnly = (sql: string): boolean => {
      let k = kinds.get(sql);
      if (k === undefined) {
        try {
          const s = readerCompiled(sql) as Statement & { readonly: boolean };
          k = s.readonly && s.reader;
        } catch {
          k = false; // let the writer report the error
        }
        if (kinds.size >= 2000) kinds.clear();
        kinds.set(sql, k);
      }
      return k;
    };
    const onWriterAlone = async <T>(fn: () => Promise<T>): Promise<T> => {
      const free = await lock();
      try {
        return await fn();
      } finally {
        free();
      }
    };
    const adapter = {
      provider: 'sqlite' as const,
      adapterName: w.adapterName,
      queryRaw: (q: Query) => (r === w ? w.queryRaw(q) : readsOnly(q.sql) ? r.queryRaw(q) : onWriterAlone(() => w.queryRaw(q))),
      executeRaw: (q: Query) => onWriterAlone(() => w.executeRaw(q)),
      executeScript: (script: string) => onWriterAlone(() => w.executeScript(script)),
      // BEGIN IMMEDIATE: the file's write lock at once (the busy timeout waits for another
      // process's), so no transaction of ours ever fails later for having read first.
      async startTransaction(isolationLevel?: string) {
        if (isolationLevel && isolationLevel !== 'SERIALIZABLE') {
          // As the stock adapter: SQLite transactions are serializable only.
          throw new Error(`SQLite transactions are SERIALIZABLE only (asked for ${isolationLevel})`);
        }
        // A Prisma transaction that directWriteTx (sqlite-write-tx.ts) starts for the
        // model calls of its write: the transaction is already open on the writer, with
        // the mutex held; Prisma sends no BEGIN or COMMIT for a "phantom" one.
        if (writer.adoptNext && isolationLevel === ADOPT_LEVEL && w.client.inTransaction) {
          writer.adoptNext = false;
          return {
            provider: 'sqlite' as const,
            adapterName: w.adapterName,
            options: { usePhantomQuery: true },
            queryRaw: (q: Query) => w.queryRaw(q),
            executeRaw: (q: Query) => w.executeRaw(q),
            commit: async () => {},
            rollback: async () => {},
          };
        }
        const free = await lock();
        try {
          await w.executeRaw(BEGIN);
        } catch (e) {
          free();
          throw e;
        }
        return {
          provider: 'sqlite' as const,
          adapterName: w.adapterName,
          options: { usePhantomQuery: false },
          queryRaw: (q: Query) => w.queryRaw(q),
          executeRaw: (q: Query) => w.executeRaw(q),
          // Prisma has sent COMMIT or ROLLBACK through executeRaw before these.
          commit: async () => free(),
          rollback: async () => free(),
          createSavepoint: async (name: string) => void (await w.executeRaw(plain(`SAVEPOINT ${name}`))),
          rollbackToSavepoint: async (name: string) => void (await w.executeRaw(plain(`ROLLBACK TO ${name}`))),
          releaseSavepoint: async (name: string) => void (await w.executeRaw(plain(`RELEASE SAVEPOINT ${name}`))),
        };
      },
      async dispose() {
        clearInterval(optimizer);
        optimize();
        if (r !== w) {
          await r.dispose();
          // SQLite deletes the WAL and SHM files when the last connection closes, but only
          // a connection that has the WAL open, and a writer that never read or wrote (a
          // session of reads only) has not opened it: without this they stay behind.
          try {
            writerCompiled('PRAGMA wal_checkpoint(PASSIVE)').all();
          } catch {
            // Closing matters more than tidying: a busy checkpoint leaves the files, as before.
          }
        }
        await w.dispose();
      },
    };
    return adapter as unknown as Awaited<ReturnType<PrismaBetterSqlite3['connect']>>;
  };
  return factory as unknown as PrismaBetterSqlite3;
}
