// The write path's raw SQL straight on the better-sqlite3 connection, below Prisma.
// Through Prisma every statement of a version write cost more client work (request
// building, the query interpreter, result mapping) than SQLite spent running it
// (bench/history.md, section 14). Prisma's SQLite adapter has a single connection and runs
// a transaction on it from BEGIN to COMMIT, so a statement run on that connection while
// a write transaction's function is running is inside that transaction (and inside its
// savepoint, for a group's writer): store.ts hands this executor only to the
// repositories of Store.write, and it refuses to run when no transaction is open.
// Arguments are encoded as the adapter encodes them (mapArg in
// @prisma/adapter-better-sqlite3), so rows read back through Prisma look the same.
import type { Prisma } from './prisma.js';
import type { RawSql } from './raw-sql.js';
import type { Connection, Statement } from './sqlite-statement-cache.js';
import { conflict } from '../core/errors.js';

function encode(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString().replace('Z', '+00:00');
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return v;
}

// The connection reads integers as bigint (the adapter sets defaultSafeIntegers): as
// the adapter does, a safe integer becomes a number.
function decode(row: Record<string, unknown>): Record<string, unknown> {
  for (const k in row) {
    const v = row[k];
    if (typeof v === 'bigint' && Number.isSafeInteger(Number(v))) row[k] = Number(v);
  }
  return row;
}

// A unique violation is a conflict, as translatePrismaError (tx.ts) makes of Prisma's P2002.
function translate(e: unknown): unknown {
  const code = (e as { code?: unknown }).code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const fields = String((e as Error).message).split('constraint failed: ')[1]?.split(', ').map((f) => f.split('.').pop()!) ?? [];
    const field = fields.find((f) => f !== 'promptId') ?? 'name';
    return conflict(`a record with this ${field} already exists`, [{ path: field, message: 'already exists' }]);
  }
  return e;
}

export function sqliteDirectSql(db: Connection, compiled: (sql: string) => Statement): RawSql {
  const statement = (sql: Prisma.Sql) => {
    // Outside a transaction this would autocommit each statement: a bug, never a write.
    if (!db.inTransaction) throw new Error('direct SQL outside a write transaction');
    return compiled(sql.sql);
  };
  return {
    async query<R>(sql: Prisma.Sql) {
      const s = statement(sql);
      try {
        if (!s.reader) return (s.run(sql.values.map(encode)), []);
        // raw(false): the adapter switches the shared compiled statement to arrays.
        return s.raw(false).all(sql.values.map(encode)).map((r) => decode(r as Record<string, unknown>)) as R[];
      } catch (e) {
        throw translate(e);
      }
    },
    async execute(sql: Prisma.Sql) {
      const s = statement(sql);
      try {
        return Number((s.run(sql.values.map(encode)) as { changes: number | bigint }).changes);
      } catch (e) {
        throw translate(e);
      }
    },
  };
}

/**
 * Reads straight on a connection (sqlite-connections.ts), below Prisma, for the few
 * reads that run after every write (the change feed's). They see committed rows only:
 * on the reader (read-only, never in a write transaction), or on the writer while it
 * has no transaction open (`writer`, when given). The writer is preferred then: the
 * feed reads what was just committed there, and the writer's page cache holds those
 * pages, while the reader, like any connection in WAL mode, drops its whole page cache
 * whenever another connection has committed, and reads the schema and the pages again
 * (from the WAL). better-sqlite3 runs a statement synchronously, so no transaction can
 * begin on the writer between the check and the read.
 */
export function sqliteReadSql(compiled: (sql: string) => Statement, writer?: { connection: Connection; compiled(sql: string): Statement }): RawSql {
  return {
    async query<R>(sql: Prisma.Sql) {
      const on = writer && !writer.connection.inTransaction ? writer.compiled : compiled;
      return on(sql.sql).raw(false).all(sql.values.map(encode)).map((r) => decode(r as Record<string, unknown>)) as R[];
    },
    async execute() {
      throw new Error('the reader connection does not write');
    },
  };
}
