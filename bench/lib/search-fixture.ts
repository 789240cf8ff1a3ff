// The 100,000-prompt search fixtures of bench/prompt-search.ts and bench/search-fixture.ts.
// The store functions come from the caller, so bench/search-fixture.ts can build a
// fixture with another checkout's code.
interface StoreLike { db: { prisma: { $executeRawUnsafe(sql: string): Promise<unknown> } }; close(): Promise<void> }
export interface FixtureDeps {
  migrateDatabase(url: string): Promise<unknown>;
  openStore(url: string): Promise<StoreLike>;
}

// Same layout as the migrations' backfill (name, title, description, message text, lowercased).
export const BACKFILL_SQLITE = `UPDATE "Prompt" SET "searchText" = lower("name" || char(10) || COALESCE((SELECT COALESCE(v."title", '') || char(10) || COALESCE(v."description", '') || char(10) || COALESCE((SELECT group_concat(m."text", char(10)) FROM "PromptMessage" m WHERE m."versionId" = v."id"), '') FROM "PromptVersion" v WHERE v."promptId" = "Prompt"."id" AND v."number" = "Prompt"."latestVersion"), ''))`;

export async function populatePg(url: string, n: number, { migrateDatabase, openStore }: FixtureDeps) {
  await migrateDatabase(url);
  const store = await openStore(url);
  const q = (sql: string) => store.db.prisma.$executeRawUnsafe(sql);
  const template = `'You are reviewing change request #' || i || ' on behalf of {{who}}. Read the description, list the risks you see in order of severity, say which tests would catch each one, and end with a short verdict (approve, approve with comments, or request changes) and one sentence of reasoning. Keep the tone factual and address {{who}} directly; do not repeat the description back.'`;
  await q(`INSERT INTO "Prompt" ("id","name","archived","latestVersion","revision","createdAt","updatedAt","searchText")
    SELECT i, 'p-' || lpad((i-1)::text, 6, '0'), false, 1, 1, now(), now() - (i || ' seconds')::interval, '' FROM generate_series(1, ${n}) i`);
  await q(`INSERT INTO "PromptVersion" ("id","promptId","number","description","author","note","createdAt") SELECT i, i, 1, 'Review checklist number ' || (i-1), 'bench', 'fixture', now() FROM generate_series(1, ${n}) i`);
  await q(`INSERT INTO "PromptMessage" ("id","versionId","position","role","type","text") SELECT i, i, 0, 'user', 'text', ${template} FROM generate_series(1, ${n}) i`);
  await q(`UPDATE "Prompt" SET "activeVersionId" = "id" WHERE "id" % 10 <> 0`); // every 10th inactive
  await q(`INSERT INTO "PromptLabel" ("promptId","name","versionId","updatedAt") SELECT i, 'production', i, now() FROM generate_series(1, ${n}) i WHERE i % 10 <> 0`);
  await q(`UPDATE "Prompt" p SET "searchText" = lower(p."name" || chr(10) || chr(10) || v."description" || chr(10) || m."text") FROM "PromptVersion" v JOIN "PromptMessage" m ON m."versionId" = v."id" WHERE v."promptId" = p."id"`);
  for (const t of ['Prompt', 'PromptVersion', 'PromptMessage', 'PromptLabel']) await q(`SELECT setval(pg_get_serial_sequence('"${t}"', 'id'), (SELECT max("id") FROM "${t}"))`);
  // The fixture's bulk UPDATEs leave a dead row version behind for every prompt. A
  // PostgreSQL with autovacuum on (its default) has vacuumed those away long before
  // anyone searches; this test server runs with autovacuum off, and an index walk
  // over 190,000 dead versions measured the fixture, not the query (bench/history.md
  // section 22).
  await q('VACUUM ANALYZE');
  await store.close();
}
