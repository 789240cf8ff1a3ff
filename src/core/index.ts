// The domain core: no Hono, no MCP SDK. Faces get everything from createCore().
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/create-db.js';
import { createCursorCodec } from './cursor.js';
import { createChangeFeed } from './change-feed.js';
import { createResourceResolver } from './resource-resolver.js';
import { createPromptService } from './services/prompt-service.js';
import { createResourceService } from './services/resource-service.js';
import { createTokenService } from './services/token-service.js';
import { createServedCatalog } from './catalog.js';

export interface CoreOptions {
  db: Db;
  /** PROMPTD_ADMIN_TOKEN */
  adminToken?: string;
  /** How often to look for other processes' writes. */
  pollMs?: number;
  onError?: (e: unknown) => void;
}

async function setting(db: Db, key: string, make: () => string): Promise<string> {
  const found = await db.prisma.setting.findUnique({ where: { key } });
  if (found) return found.value;
  await db.prisma.setting.upsert({ where: { key }, create: { key, value: make() }, update: {} });
  return (await db.prisma.setting.findUnique({ where: { key } }))!.value;
}

export async function createCore(opts: CoreOptions) {
  const { db } = opts;
  await setting(db, 'write_lock', () => '0');
  const cursorSecret = process.env.PROMPTD_CURSOR_SECRET || (await setting(db, 'cursor_secret', () => randomBytes(32).toString('hex')));
  const cursors = createCursorCodec(cursorSecret);
  const feed = createChangeFeed(db, { pollMs: opts.pollMs, onError: opts.onError });
  const resolver = createResourceResolver(db);
  feed.subscribe((events) => resolver.invalidate(events));
  const catalog = createServedCatalog({ db, feed, resolver, cursors });
  await feed.start();
  return {
    db,
    cursors,
    feed,
    resolver,
    catalog,
    prompts: createPromptService({ db, cursors, feed, resolver }),
    resources: createResourceService({ db, cursors, feed }),
    tokens: createTokenService({ db, envToken: opts.adminToken }),
    async close() {
      await feed.stop();
      await db.close();
    },
  };
}

export type Core = Awaited<ReturnType<typeof createCore>>;
export * from './errors.js';
export * from './types.js';
export * from './schemas.js';
