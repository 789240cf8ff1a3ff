// The core's storage port (src/core/ports.ts) on Prisma: repositories over the
// client or a transaction, the one write path's transaction, the served catalog's
// source and the change marker, each through the database's Dialect.
import type { Repositories, Store } from '../core/ports.js';
import { createDb, type Db } from './create-db.js';
import type { Tx } from './prisma.js';
import type { AdapterOptions, Dialect } from './dialect.js';
import { promptRepository, type WrittenVersions } from './repositories/prompts-repo.js';
import { resourceRepository, templateRepository } from './repositories/resources-repo.js';
import { tokenRepository } from './repositories/tokens-repo.js';
import { eventRepository } from './repositories/events-repo.js';
import { labelRepository } from './repositories/labels-repo.js';
import { webhookRepository } from './repositories/webhooks-repo.js';
import { usageRepository } from './repositories/usage-repo.js';
import { servedSource } from './repositories/served-repo.js';
import { readOrCreateSetting } from './repositories/settings-repo.js';
import { loadImportHashes, promptRevisions, saveImportHashes } from './repositories/import-hashes-repo.js';
import { createGroupWriter, type WriteTxOptions } from './repositories/tx.js';
import { prismaSql, type RawSql } from './raw-sql.js';

/**
 * `sql`: how the raw SQL of writes runs; Store.write passes its transaction's (Db.writeSql).
 * `feedSql`: raw reads for the change feed outside a transaction (Db.feedSql), if any.
 */
export function repositories(tx: Tx, dialect: Dialect, sql: RawSql = prismaSql(tx), feedSql?: RawSql): Repositories {
  const written: WrittenVersions = new Map();
  return {
    prompts: promptRepository(tx, dialect, sql, written),
    resources: resourceRepository(tx),
    templates: templateRepository(tx),
    tokens: tokenRepository(tx),
    events: eventRepository(tx, sql, feedSql),
    labels: labelRepository(tx, sql, written),
    webhooks: webhookRepository(tx),
    usage: usageRepository(tx),
  };
}

export interface DbStore extends Store {
  /** The database behind the store: for the composition roots, tests and benchmarks, never the core. */
  readonly db: Db;
  /** Whether `serve` loads seed/ into an empty database unless told otherwise (SQLite, the local default). */
  readonly seedsByDefault: boolean;
}

export function createStore(db: Db, opts: WriteTxOptions & { readOnly?: boolean } = {}): DbStore {
  const writer = createGroupWriter(db, opts);
  const read = repositories(db.prisma, db.dialect, undefined, db.feedSql);
  return {
    db,
    seedsByDefault: db.dialect.seedsEmptyDatabase,
    kind: db.provider,
    displayUrl: db.dialect.displayUrl(db.url),
    readOnly: Boolean(opts.readOnly),
    read,
    write: (fn) => writer((tx) => fn(repositories(tx, db.dialect, db.writeSql(tx)))),
    served: servedSource(db.prisma, db.dialect),
    changeMarker: () => db.changeMarker(),
    pollMs: db.dialect.pollMs,
    listen: (onWake, onError) => db.dialect.listen(db.url, onWake, onError),
    async setting(key, make) {
      if (opts.readOnly) {
        const found = await db.prisma.setting.findUnique({ where: { key } });
        return found ? found.value : make(); // kept for this process only: nothing may be written
      }
      return readOrCreateSetting(db.prisma, db.dialect, key, make);
    },
    async readSetting(key) {
      return (await db.prisma.setting.findUnique({ where: { key } }))?.value;
    },
    async writeSetting(key, value) {
      await db.prisma.setting.upsert({ where: { key }, create: { key, value }, update: { value } });
    },
    loadImportHashes: (root) => loadImportHashes(db.prisma, root),
    promptRevisions: (names) => promptRevisions(db.prisma, names),
    async saveImportHashes(root, rows, drop) {
      if (opts.readOnly || (!rows.length && !drop.length)) return;
      await writer((tx) => saveImportHashes(db.writeSql(tx), root, rows, drop));
    },
    async ping() {
      await db.prisma.$queryRawUnsafe('SELECT 1');
    },
    poolStats: () => db.poolStats(),
    close: () => db.close(),
  };
}

/** Opens the database at `url` (already migrated) as a store. */
export async function openStore(url?: string, opts: AdapterOptions & WriteTxOptions = {}): Promise<DbStore> {
  const { backoffMs, queueMaxWaitMs, ...adapter } = opts;
  const readOnly = Boolean(adapter.sqlite?.readOnly || adapter.sqlite?.immutable);
  return createStore(await createDb(url, adapter), { backoffMs, queueMaxWaitMs, readOnly });
}
