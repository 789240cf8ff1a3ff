// How much Prisma's query plan cache holds (issue 21.2): each distinct query shape
// (an `in` list or `OR` of another length is another shape) is compiled once and kept
// in an LRU of queryPlanCacheMaxSize entries (Prisma's default 1,000, single and batch
// each). Runs `shapes` distinct shapes of the kind the admin list and the catalog load
// issue, and prints the heap after a full GC before and after.
// `node --expose-gc --import tsx bench/plan-cache.ts [shapes]`
import path from 'node:path';
import { populate } from './lib/fixture.js';
import { openStore } from '../src/db/store.js';
import { Prisma } from '../src/db/prisma.js';
import { removeTempDirs, tempDir } from './lib/proc.js';

const SHAPES = Number(process.argv[2] ?? 400);
const url = `file:${path.join(tempDir(), 'plans.db')}`;
await populate(url, 500);
const store = await openStore(url);
const p = store.db.prisma as unknown as { promptVersion: { findMany(a: unknown): Promise<unknown[]> } };
const gc = (globalThis as { gc?: () => void }).gc!;
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};
// warm: one shape of each kind
await p.promptVersion.findMany({ where: { OR: [{ promptId: 1, number: 1 }] }, select: { promptId: true, title: true, description: true } });
const before = heap();
for (let k = 1; k <= SHAPES; k++) {
  await p.promptVersion.findMany({ where: { OR: Array.from({ length: k }, (_, i) => ({ promptId: i + 1, number: 1 })) }, select: { promptId: true, title: true, description: true } });
}
const after = heap();
for (let k = 1; k <= SHAPES; k++) {
  await p.promptVersion.findMany({ where: { promptId: { in: Array.from({ length: k }, (_, i) => i + 1) } }, select: { promptId: true, title: true, description: true } });
}
const afterIn = heap();
console.log(`\`in\` lists of ${SHAPES} lengths: heap ${after.toFixed(1)} → ${afterIn.toFixed(1)} MiB`);
const raw = store.db.prisma as unknown as { $queryRaw(q: Prisma.Sql): Promise<unknown[]> };
for (let k = 1; k <= SHAPES; k++) {
  await raw.$queryRaw(Prisma.sql`SELECT "id" FROM "PromptVersion" WHERE "promptId" IN (${Prisma.join(Array.from({ length: k }, (_, i) => i + 1))})`);
}
const afterRaw = heap();
console.log(`raw IN (…) of ${SHAPES} lengths: heap ${afterIn.toFixed(1)} → ${afterRaw.toFixed(1)} MiB`);
console.log(`${SHAPES} distinct shapes: heap ${before.toFixed(1)} → ${after.toFixed(1)} MiB (${(((after - before) * 1024) / SHAPES).toFixed(1)} KiB per cached plan)`);
await store.close();
removeTempDirs();
process.exit(0);
