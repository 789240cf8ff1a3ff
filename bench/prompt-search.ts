// The admin prompt list at 100,000 prompts (issue 22.3): one page (limit 50) plus the
// total count with the same filter, through core.prompts.list, on SQLite and PostgreSQL
// (a q= total stops at 1,000: "1,000+"; a q= that no index serves reads at most
// SEARCH_SCAN_LIMIT prompts a request: "stopped after …"). Median and slowest of RUNS.
// Not part of `npm run bench`; run by hand: `npx tsx bench/prompt-search.ts [n] [runs] [sqlite]`.
import { migrateDatabase } from '../src/db/create-db.js';
import { openStore } from '../src/db/store.js';
import { createCore } from '../src/core/index.js';
import { populate } from './lib/fixture.js';
import { BACKFILL_SQLITE, populatePg } from './lib/search-fixture.js';
import { createTempPg } from './lib/pg.js';
import { tempDir, removeTempDirs } from './lib/proc.js';
import { median } from './lib/stats.js';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { connectMcpServer, createMcpServer } from '../src/mcp/server.js';
import { percentile } from './lib/stats.js';
import { LIST_CASES, caseOptions } from './lib/list-cases.mjs';

const N = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 7);

async function measure(kind: string, url: string) {
  const store = await openStore(url);
  const core = await createCore({ store, purgeIntervalMs: 0 });
  // The served catalog loads 100,000 documents in the background at start; the first
  // cases measured that load too (a "no filter" page at 20-25 ms of CPU instead of 8-9).
  await core.catalog.ready();
  const rows: string[] = [];
  for (const [what, given] of LIST_CASES) {
    const opts = await caseOptions(core, given);
    await core.prompts.list({ ...opts, limit: 50 }); // warm
    const times: number[] = [];
    let total = '';
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      const page = await core.prompts.list({ ...opts, limit: 50 });
      times.push(performance.now() - t0);
      total = `${page.total.toLocaleString('en')}${(page as { totalIsLowerBound?: boolean }).totalIsLowerBound ? '+' : ''}`;
      // A search that read its scan limit of prompts and stopped (searchIncomplete).
      const through = (page as { searchedThrough?: string | null }).searchedThrough;
      if (through) total += `, stopped after ${through}`;
    }
    rows.push(`| ${kind} | ${what} | ${total} | ${median(times).toFixed(1)} ms | ${Math.max(...times).toFixed(1)} ms |`);
  }
  await core.close();
  return rows;
}

/** The MCP list_prompts tool (the served catalog in memory), through the SDK's Client in memory. */
async function measureTool(url: string) {
  const store = await openStore(url);
  const core = await createCore({ store, purgeIntervalMs: 0 });
  await core.catalog.ready();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ core, log: () => {} });
  await connectMcpServer(server, serverSide, core);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(clientSide);
  const rows: string[] = [];
  for (const query of ['zq', 'Z', 'review', 'number 4242', 'p-0999']) {
    for (let w = 0; w < 5; w++) await client.callTool({ name: 'list_prompts', arguments: { query } });
    const times: number[] = [];
    let hits = 0;
    for (let r = 0; r < 100; r++) {
      const t0 = performance.now();
      const res = await client.callTool({ name: 'list_prompts', arguments: { query } });
      times.push(performance.now() - t0);
      hits = (res.structuredContent as { prompts: unknown[] }).prompts.length;
    }
    rows.push(`| MCP list_prompts (served catalog) | query=${query} | ${hits} on the page | ${median(times).toFixed(2)} ms | p99 ${percentile(times, 99).toFixed(2)} ms |`);
  }
  await client.close();
  await core.close();
  return rows;
}

const out = [`| database | query (page of 50 + total) | total | median of ${RUNS} | slowest |`, '|---|---|---|---|---|'];
const dir = tempDir();
const sqliteUrl = `file:${path.join(dir, 'search.db')}`;
await populate(sqliteUrl, N);
{
  const store = await openStore(sqliteUrl);
  await store.db.prisma.$executeRawUnsafe(BACKFILL_SQLITE);
  // every 10th prompt inactive, as on PostgreSQL
  await store.db.prisma.$executeRawUnsafe(`DELETE FROM "PromptLabel" WHERE "promptId" % 10 = 0`);
  await store.db.prisma.$executeRawUnsafe(`UPDATE "Prompt" SET "activeVersionId" = NULL, "updatedAt" = "createdAt" WHERE "id" % 10 = 0`);
  // No ANALYZE: the planner gets the statistics the store keeps by itself (PRAGMA
  // optimize at close and open, src/db/sqlite-connections.ts), as a user's database does.
  await store.close();
}
if (!process.env.SEARCH_ONLY_TOOL) out.push(...(await measure('SQLite', sqliteUrl)));
out.push(...(await measureTool(sqliteUrl)));
const pg = process.argv[4] === 'sqlite' ? undefined : await createTempPg();
if (pg) {
  try {
    await populatePg(pg.url, N, { migrateDatabase, openStore });
    out.push(...(await measure('PostgreSQL', pg.url)));
  } finally {
    await pg.drop();
  }
}
removeTempDirs();
console.log(`${N.toLocaleString('en')} prompts\n${out.join('\n')}`);
process.exit(0);
