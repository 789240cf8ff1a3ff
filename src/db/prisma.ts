// The Prisma query surface the repositories are written against. Both generated
// clients come from one model (prisma/postgres/schema.prisma is schema.prisma with the
// provider swapped), so their model delegates and raw-SQL methods behave alike; the
// repositories are typed against the SQLite client's declarations.
import { Prisma, PrismaClient as SqliteClient } from '../generated/sqlite/client.js';
import type { PrismaClient as PgClient } from '../generated/postgres/client.js';

export { Prisma, SqliteClient };
export type { PgClient };

/** Model delegates, raw SQL and transactions: what the repositories may call. */
export type Models = SqliteClient;
/** The same surface inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;
