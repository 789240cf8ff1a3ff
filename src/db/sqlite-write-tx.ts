// SQLite's write transaction straight on the writer connection (sqlite-connections.ts):
// BEGIN IMMEDIATE, the function, COMMIT (or ROLLBACK), with the writer's mutex held
// throughout. Prisma's interactive transaction (its transaction manager, timers and
// the BEGIN/COMMIT round through the query interpreter) cost more than some of the
// writes it wrapped, and the version write path runs only raw SQL, on the connection
// (sqlite-direct.ts). A write that does use Prisma's models gets a Prisma transaction
// lazily, on its first call: Prisma starts one and the adapter adopts the transaction
// already open on the writer (no second BEGIN, no COMMIT of its own), so every
// statement is still in this one transaction and in the savepoint of its writer.
import { Prisma, type Models, type Tx } from './prisma.js';
import type { Statement } from './sqlite-statement-cache.js';
import { WRITE_TX_OPTIONS } from './dialect.js';

export interface DirectWriter {
  connection: { readonly inTransaction: boolean };
  compiled(sql: string): Statement;
  lock(): Promise<() => void>;
  /**
   * Set while the open write transaction starts a Prisma transaction for its model
   * calls: the adapter adopts the next one asking for ADOPT_LEVEL. (Not an
   * AsyncLocalStorage: on Node 20 its first use turns on promise hooks for good, ~2%
   * of every request.) Nothing else in promptd names an isolation level, so a
   * transaction started elsewhere meanwhile waits for the writer as usual.
   */
  adoptNext: boolean;
}

/** The isolation level that marks the Prisma transaction to adopt (SQLite's only one). */
export const ADOPT_LEVEL = 'SERIALIZABLE';

/**
 * A Tx whose every call waits for `start()` (the Prisma transaction) first. Model
 * delegates and $-methods are all the repositories use of a Tx.
 */
function lazyTx(start: () => Promise<Tx>): Tx {
  const delegates = new Map<string, unknown>();
  const call = (target: (t: Tx) => Record<string, unknown>, key: string) => (...args: unknown[]) =>
    start().then((t) => (target(t)[key] as (...a: unknown[]) => unknown).apply(target(t), args));
  return new Proxy({} as Tx, {
    get(_, key) {
      if (typeof key !== 'string' || key === 'then') return undefined; // not a thenable
      if (key.startsWith('$')) return call((t) => t as unknown as Record<string, unknown>, key);
      let d = delegates.get(key);
      if (!d) {
        d = new Proxy({}, {
          get: (_t, m) => (typeof m !== 'string' || m === 'then' ? undefined : call((t) => (t as unknown as Record<string, Record<string, unknown>>)[key]!, m)),
        });
        delegates.set(key, d);
      }
      return d;
    },
  });
}

const run = (w: DirectWriter, sql: string) => w.compiled(sql).run();

/** Runs `fn` in one write transaction on the writer (see the file comment). */
export async function directWriteTx<T>(models: Models, writer: () => Promise<DirectWriter>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const w = await writer();
  const free = await w.lock();
  try {
    // The busy timeout waits here for another process's write lock; past it, SQLITE_BUSY (retryable).
    run(w, 'BEGIN IMMEDIATE');
    let prisma: Promise<Tx> | undefined;
    let settled: Promise<unknown> | undefined;
    let finish!: (ok: boolean) => void;
    const start = () =>
      (prisma ??= new Promise<Tx>((resolve, reject) => {
        const done = new Promise<boolean>((r) => (finish = r));
        w.adoptNext = true;
        settled = models
          .$transaction(async (t) => {
            resolve(t);
            // Held open until this transaction ends; throwing makes Prisma close its side as rolled back.
            if (!(await done)) throw new Error('rolled back');
          }, { ...WRITE_TX_OPTIONS, isolationLevel: Prisma.TransactionIsolationLevel.Serializable })
          .catch(reject)
          .finally(() => (w.adoptNext = false));
      }));
    const end = async (ok: boolean) => {
      if (!prisma) return;
      finish(ok);
      await settled;
    };
    let result: T;
    try {
      result = await fn(lazyTx(start));
      await end(true);
    } catch (e) {
      await end(false);
      if (w.connection.inTransaction) run(w, 'ROLLBACK');
      throw e;
    }
    try {
      run(w, 'COMMIT');
    } catch (e) {
      if (w.connection.inTransaction) run(w, 'ROLLBACK');
      throw e;
    }
    return result;
  } finally {
    free();
  }
}
