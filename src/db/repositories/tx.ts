// Write transactions and Prisma error translation, the only place that knows both.
import { setTimeout as delay } from 'node:timers/promises';
import { Prisma, type Tx } from '../prisma.js';
import type { Db } from '../create-db.js';
import { DomainError, conflict } from '../../core/errors.js';

/** Attempts per write when the database reports a retryable failure. */
export const WRITE_ATTEMPTS = 4;
/** Longest a write waits behind this process's other writes: under the HTTP request timeout (60 s). */
export const WRITE_QUEUE_MAX_WAIT_MS = 30_000;

export interface WriteTxOptions {
  /** Pause before attempt `n` (2, 3, …); tests shorten it. */
  backoffMs?: (attempt: number) => number;
  /** See WRITE_QUEUE_MAX_WAIT_MS. */
  queueMaxWaitMs?: number;
}

/**
 * Writers of one process queue here, in memory, before they take a pooled connection.
 * The database serialises writers anyway (SQLite's write lock, PostgreSQL's advisory
 * lock), so this costs no throughput; without it a burst of writes held every pooled
 * connection while waiting for the lock, and the rest timed out acquiring one
 * ("timeout exceeded when trying to connect": HTTP 500 under an activation storm).
 */
export function createWriteQueue(opts: { maxWaitMs?: number; now?: () => number } = {}) {
  const maxWaitMs = opts.maxWaitMs ?? WRITE_QUEUE_MAX_WAIT_MS;
  const now = opts.now ?? (() => performance.now());
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const queuedAt = now();
    // A write that waited past maxWaitMs is refused without running: its client is
    // about to give up, and the writes behind it should not wait for it too.
    const turn = () => {
      const waited = now() - queuedAt;
      if (waited > maxWaitMs) throw new DomainError('unavailable', `too many writes are waiting (this one waited ${Math.round(waited / 1000)} s); try again shortly`);
      return fn();
    };
    const run = tail.then(turn, turn);
    tail = run.catch(() => {});
    return run;
  };
}

const defaultBackoff = (attempt: number) => 20 * 2 ** (attempt - 2) + Math.random() * 20;

/**
 * Runs `fn` in one transaction that takes the dialect's write lock first and sends
 * its commit notification last. Retryable failures (lock or serialization failures,
 * pool timeouts) run `fn` again, a bounded number of times; what is left becomes a
 * domain error, so a well-formed request never surfaces as a 500.
 */
export async function writeTx<T>(db: Db, fn: (tx: Tx) => Promise<T>, opts: WriteTxOptions = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        await db.dialect.takeWriteLock(tx, db.writeSql(tx));
        const result = await fn(tx);
        await db.dialect.notifyOnCommit(tx);
        return result;
      });
    } catch (e) {
      if (e instanceof DomainError || !db.dialect.isRetryable(e)) throw translatePrismaError(e);
      if (attempt >= WRITE_ATTEMPTS) {
        throw new DomainError('unavailable', `the database is too busy to take this write right now (tried ${attempt} times); try again shortly`);
      }
      await delay((opts.backoffMs ?? defaultBackoff)(attempt + 1));
    }
  }
}

/** Most writes one group transaction takes from the queue (an import is one write, however large). */
export const WRITE_GROUP_MAX = 16;

export interface GroupWriterOptions extends WriteTxOptions {
  /** See WRITE_GROUP_MAX; 1 turns group commit off. */
  groupMax?: number;
  now?: () => number;
}

interface Job {
  fn: (tx: Tx) => Promise<unknown>;
  queuedAt: number;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * The queue of this process's writers with group commit: the writers waiting when a
 * transaction starts share it (up to groupMax), each in a SAVEPOINT of its own, so
 * they share one BEGIN, one write lock, one commit notification and one COMMIT (on
 * PostgreSQL one WAL flush) instead of paying each. A writer that fails rolls back
 * to its savepoint only: the others' writes commit, and it gets its own error. A
 * writer alone runs without a savepoint, exactly as writeTx. Nobody hears of success
 * before the COMMIT; a retryable failure runs the whole group again (every writer's
 * `fn` again, as writeTx does for one); a writer that waited past queueMaxWaitMs is
 * refused (503) without running.
 */
export function createGroupWriter(db: Db, opts: GroupWriterOptions = {}) {
  const maxWaitMs = opts.queueMaxWaitMs ?? WRITE_QUEUE_MAX_WAIT_MS;
  const groupMax = Math.max(1, opts.groupMax ?? WRITE_GROUP_MAX);
  const now = opts.now ?? (() => performance.now());
  const waiting: Job[] = [];
  let running = false;

  async function runGroup(jobs: Job[]): Promise<Outcome[]> {
    if (jobs.length === 1) {
      return writeTx(db, jobs[0]!.fn, opts).then((value) => [{ ok: true, value }] as Outcome[], (error: unknown) => [{ ok: false, error }]);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction(async (tx) => {
          const sql = db.writeSql(tx);
          await db.dialect.takeWriteLock(tx, sql);
          const out: Outcome[] = [];
          for (const [i, job] of jobs.entries()) {
            // Savepoints in SQL on the transaction's own connection (on SQLite below
            // Prisma): a nested Prisma transaction per writer cost more than its writes.
            // A writer that succeeds leaves its savepoint open (COMMIT ends them all; the
            // group is at most groupMax deep): a RELEASE per writer was one PostgreSQL
            // round trip more, and ROLLBACK TO a later one leaves the earlier writes be.
            await sql.execute(Prisma.raw(`SAVEPOINT w${i}`));
            try {
              const value = await job.fn(tx);
              out.push({ ok: true, value });
            } catch (e) {
              // A retryable failure concerns the whole transaction (a lock, a
              // serialization failure): the group runs again.
              if (!(e instanceof DomainError) && db.dialect.isRetryable(e)) throw e;
              await sql.execute(Prisma.raw(`ROLLBACK TO SAVEPOINT w${i}`));
              await sql.execute(Prisma.raw(`RELEASE SAVEPOINT w${i}`));
              out.push({ ok: false, error: translatePrismaError(e) });
            }
          }
          await db.dialect.notifyOnCommit(tx);
          return out;
        });
      } catch (e) {
        if (e instanceof DomainError || !db.dialect.isRetryable(e)) {
          const error = translatePrismaError(e);
          return jobs.map(() => ({ ok: false, error }));
        }
        if (attempt >= WRITE_ATTEMPTS) {
          const error = new DomainError('unavailable', `the database is too busy to take this write right now (tried ${attempt} times); try again shortly`);
          return jobs.map(() => ({ ok: false, error }));
        }
        await delay((opts.backoffMs ?? defaultBackoff)(attempt + 1));
      }
    }
  }

  async function drain(): Promise<void> {
    running = true;
    try {
      while (waiting.length) {
        const jobs: Job[] = [];
        const start = now();
        for (const job of waiting.splice(0, groupMax)) {
          const waited = start - job.queuedAt;
          // Its client is about to give up; the writes behind it should not wait for it too.
          if (waited > maxWaitMs) job.reject(new DomainError('unavailable', `too many writes are waiting (this one waited ${Math.round(waited / 1000)} s); try again shortly`));
          else jobs.push(job);
        }
        if (!jobs.length) continue;
        const outcomes = await runGroup(jobs);
        jobs.forEach((job, i) => {
          const o = outcomes[i]!;
          if (o.ok) job.resolve(o.value);
          else job.reject(o.error);
        });
      }
    } finally {
      running = false;
    }
  }

  return <T>(fn: (tx: Tx) => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ fn, queuedAt: now(), resolve: resolve as (v: unknown) => void, reject });
      // Started on a later tick: writers arriving in the same tick join the first group.
      if (!running) {
        running = true;
        setImmediate(() => void drain());
      }
    });
}

export function translatePrismaError(e: unknown): unknown {
  if (e instanceof DomainError) return e;
  if (e instanceof Prisma.PrismaClientKnownRequestError) {
    if (e.code === 'P2002') {
      const target = (e.meta as { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: string[] } } } } | undefined);
      const fields = target?.driverAdapterError?.cause?.constraint?.fields ?? (Array.isArray(target?.target) ? (target!.target as string[]) : []);
      const field = fields.find((f) => f !== 'promptId') ?? 'name';
      return conflict(`a record with this ${field} already exists`, [{ path: field, message: 'already exists' }]);
    }
    if (e.code === 'P2025') return new DomainError('not_found', 'record not found');
    if (e.code === 'P2003') return conflict('the record is referenced by other records');
  }
  return e;
}
