// 2. prompts/list deep paging over 100,000 prompts, page size 100: latency of pages
// 1, 100 and 1,000 through MCP prompts/list (served catalog), the admin REST list
// (keyset SQL), and the same listing query in SQL, keyset vs OFFSET (Prisma skip).
import { createDb } from '../src/db/create-db.js';
import { RawSession } from './lib/mcp-raw.js';
import { promptName } from './lib/fixture.js';
import { ADMIN_TOKEN, freePort, spawnTs, type Child } from './lib/proc.js';
import { median, percentile } from './lib/stats.js';

export const PAGES = [1, 100, 1000] as const;
export type Method = 'mcp' | 'rest' | 'sqlKeyset' | 'sqlOffset';
export const METHODS: Record<Method, string> = {
  mcp: 'MCP prompts/list (catalog keyset)',
  rest: 'REST GET /admin/v1/prompts (keyset SQL)',
  sqlKeyset: 'SQL keyset (name > cursor)',
  sqlOffset: 'SQL OFFSET (Prisma skip)',
};

export interface PagingResult {
  prompts: number;
  reps: number;
  catalogLoadMs: number;
  /** p50 latency in ms, by method and page */
  p50: Record<Method, Record<number, number>>;
  p99: Record<Method, Record<number, number>>;
  ratio: Record<Method, number>;
}

type Fetcher = (page: number) => Promise<number>;

async function startPagingServer(dbUrl: string): Promise<{ url: string; loadMs: number; proc: Child }> {
  const port = await freePort();
  const proc = spawnTs('paging-server.ts', [dbUrl, String(port), ADMIN_TOKEN]);
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    const line = proc.stdout().split('\n').find((l) => l.startsWith('{'));
    if (line) return { ...(JSON.parse(line) as { url: string; loadMs: number }), proc };
    if (proc.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await proc.stop();
  throw new Error(`paging-server did not start: ${proc.stderr().slice(-1500)}`);
}

/** Walks pages 1..maxPage once, keeping the cursor that fetches each page we measure. */
async function walk(next: (cursor: string | undefined) => Promise<{ count: number; next?: string | null }>, maxPage: number): Promise<Map<number, string | undefined>> {
  const cursors = new Map<number, string | undefined>([[1, undefined]]);
  let cursor: string | undefined;
  for (let page = 1; page < maxPage; page++) {
    const r = await next(cursor);
    if (r.count !== 100 || !r.next) throw new Error(`page ${page} had ${r.count} items and no next cursor`);
    cursor = r.next;
    if ((PAGES as readonly number[]).includes(page + 1)) cursors.set(page + 1, cursor);
  }
  return cursors;
}

const timed = async (fn: () => Promise<number>): Promise<number> => {
  const t0 = performance.now();
  const n = await fn();
  if (n !== 100) throw new Error(`expected 100 items, got ${n}`);
  return performance.now() - t0;
};

export async function runPaging(dbUrl: string, prompts: number, opts: { quick: boolean; log: (s: string) => void }): Promise<PagingResult> {
  const reps = opts.quick ? 15 : 40;
  const server = await startPagingServer(dbUrl);
  const db = await createDb(dbUrl);
  const session = new RawSession(new URL(`${server.url}/mcp`));
  try {
    await session.open();
    const mcpPage = async (cursor: string | undefined) => {
      const r = await session.request('prompts/list', cursor ? { cursor } : {});
      const res = r.result as { prompts: unknown[]; nextCursor?: string };
      return { count: res.prompts.length, next: res.nextCursor };
    };
    const restPage = async (cursor: string | undefined) => {
      const r = await fetch(`${server.url}/admin/v1/prompts?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      if (!r.ok) throw new Error(`REST list: ${r.status} ${await r.text()}`);
      const body = (await r.json()) as { items: unknown[]; nextCursor: string | null };
      return { count: body.items.length, next: body.nextCursor };
    };
    const maxPage = Math.max(...PAGES);
    const mcpCursors = await walk(mcpPage, maxPage);
    const restCursors = await walk(restPage, maxPage);
    // The same query the REST list runs for its page, keyset vs OFFSET.
    const listQuery = { orderBy: { name: 'asc' as const }, take: 100, include: { activeVersion: { select: { number: true } } } };
    const fetchers: Record<Method, Fetcher> = {
      mcp: async (p) => (await mcpPage(mcpCursors.get(p))).count,
      rest: async (p) => (await restPage(restCursors.get(p))).count,
      sqlKeyset: async (p) => (await db.prisma.prompt.findMany({ ...listQuery, ...(p > 1 ? { where: { name: { gt: promptName((p - 1) * 100 - 1) } } } : {}) })).length,
      sqlOffset: async (p) => (await db.prisma.prompt.findMany({ ...listQuery, skip: (p - 1) * 100 })).length,
    };
    const samples = Object.fromEntries(Object.keys(METHODS).map((m) => [m, Object.fromEntries(PAGES.map((p) => [p, [] as number[]]))])) as Record<Method, Record<number, number[]>>;
    for (const m of Object.keys(METHODS) as Method[]) for (const p of PAGES) await fetchers[m](p); // warm-up
    // The page order rotates every repetition, so no page always follows the same request.
    for (let i = 0; i < reps; i++) {
      const order = PAGES.map((_, k) => PAGES[(k + i) % PAGES.length]!);
      for (const m of Object.keys(METHODS) as Method[]) for (const p of order) samples[m][p]!.push(await timed(() => fetchers[m](p)));
    }
    const pick = (f: (xs: number[]) => number) =>
      Object.fromEntries(Object.entries(samples).map(([m, byPage]) => [m, Object.fromEntries(PAGES.map((p) => [p, f(byPage[p]!)]))])) as Record<Method, Record<number, number>>;
    const p50 = pick(median);
    const p99 = pick((xs) => percentile(xs, 99));
    const ratio = Object.fromEntries(Object.entries(p50).map(([m, v]) => [m, v[1000]! / v[1]!])) as Record<Method, number>;
    for (const m of Object.keys(METHODS) as Method[]) opts.log(`  ${METHODS[m].padEnd(42)} ${PAGES.map((p) => `p${p}=${p50[m][p]!.toFixed(2)}ms`).join(' ')}  ratio ${ratio[m].toFixed(2)}`);
    return { prompts, reps, catalogLoadMs: server.loadMs, p50, p99, ratio };
  } finally {
    await session.close();
    await db.close();
    await server.proc.stop();
  }
}
