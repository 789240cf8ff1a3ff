// Transactions and Prisma error translation, the only place that knows both.
import { Prisma } from '../../generated/sqlite/client.js';
import type { Db } from '../../db/create-db.js';
import { DomainError, conflict } from '../errors.js';

export type Tx = Prisma.TransactionClient;

const TX_OPTIONS = { maxWait: 30_000, timeout: 30_000 };

/**
 * Runs `fn` in one transaction. On SQLite the first statement takes the write lock:
 * a deferred transaction that reads first and then writes fails at once with
 * SQLITE_BUSY when another process wrote in between (the busy timeout does not
 * apply to that case), so we make every write transaction a writer from the start.
 */
export async function writeTx<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.prisma.$transaction(async (tx) => {
      if (db.provider === 'sqlite') {
        await tx.$executeRawUnsafe(`UPDATE "Setting" SET "value" = "value" WHERE "key" = 'write_lock'`);
      } else {
        // Writers commit one at a time, so change-log ids become visible in id
        // order and a follower reading `id > last` never skips a late commit.
        await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(7320247)');
      }
      const result = await fn(tx);
      // Delivered to every LISTENing instance when (and only if) this commits.
      if (db.provider === 'postgresql') await tx.$executeRawUnsafe(`SELECT pg_notify('promptd_changes', '')`);
      return result;
    }, TX_OPTIONS);
  } catch (e) {
    throw translatePrismaError(e);
  }
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
