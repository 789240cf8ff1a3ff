// Builds and keeps bench/prompt-search.ts's 100k fixtures (a SQLite file and a PostgreSQL
// database) with the code of the checkout at ROOT, for EXPLAIN and bench/list-cpu-ab.mjs:
// npx tsx bench/search-fixture.ts <root> <sqlite file> <pg db name> [n]
// (the same rows as prompt-search.ts: populate + backfill, and populatePg of bench/lib/search-fixture.ts).
const [root, file, pgName, nArg] = process.argv.slice(2);
const N = Number(nArg ?? 100000);
const { migrateDatabase } = await import(`${root}/src/db/create-db.ts`);
const { openStore } = await import(`${root}/src/db/store.ts`);
const { populate } = await import(`${root}/bench/lib/fixture.ts`);
import pg from 'pg';
import { BACKFILL_SQLITE, populatePg } from './lib/search-fixture.js';
await populate(`file:${file}`, N);
{
  const store = await openStore(`file:${file}`);
  await store.db.prisma.$executeRawUnsafe(BACKFILL_SQLITE);
  await store.db.prisma.$executeRawUnsafe(`DELETE FROM "PromptLabel" WHERE "promptId" % 10 = 0`);
  await store.db.prisma.$executeRawUnsafe(`UPDATE "Prompt" SET "activeVersionId" = NULL, "updatedAt" = "createdAt" WHERE "id" % 10 = 0`);
  // No ANALYZE: the planner gets the statistics the store keeps by itself (PRAGMA
  // optimize at close and open, src/db/sqlite-connections.ts), as a user's database does.
  await store.close();
}
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
await admin.query(`CREATE DATABASE "${pgName}"`);
await admin.end();
await populatePg(`postgres://postgres@127.0.0.1:5432/${pgName}`, N, { migrateDatabase, openStore });
console.log('done');
process.exit(0);
