// CPU per served read, two catalog implementations side by side in one process
// (bench/history.md, memory): `npx tsx bench/catalog-get-ab.ts <db file> <old catalog module> [rounds]`.
// Each round runs, for both catalogs in turn: find + render of 20,000 prompts spread over
// the 100k (most miss the parsed LRU: decode from the stored document), 200 list pages
// of 50, and 20 searches examining 5,000 prompts each. Prints the median µs per operation.
import { createCursorCodec } from '../src/core/cursor.js';
import { createChangeFeed } from '../src/core/change-feed.js';
import { createResourceResolver } from '../src/core/resource-resolver.js';
import { createServedCatalog } from '../src/core/catalog.js';
import { openStore } from '../src/db/store.js';

const [file, oldModule, roundsArg] = process.argv.slice(2) as [string, string, string?];
const rounds = Number(roundsArg ?? 7);
const store = await openStore(`file:${file}`);
const make = (create: typeof createServedCatalog) => {
  const feed = createChangeFeed(store, { pollMs: 60_000 });
  return create({ source: store.served, feed, resolver: createResourceResolver(store.read), cursors: createCursorCodec('x'.repeat(32)) });
};
const old = make(((await import(oldModule)) as { createServedCatalog: typeof createServedCatalog }).createServedCatalog);
const cur = make(createServedCatalog);
await old.ready();
await cur.ready();
const n = cur.size();
const names = cur.list({ limit: n }).prompts.map((p) => p.name);
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
async function run(c: typeof cur) {
  const out: Record<string, number> = {};
  let t = cpu();
  for (let k = 0; k < 20_000; k++) await c.render(names[(k * 7919) % n]!, { who: 'bench-user' });
  out.get = (cpu() - t) / 20_000;
  t = cpu();
  let cursor: string | undefined;
  for (let k = 0; k < 200; k++) cursor = c.list({ limit: 50, cursor }).nextCursor;
  out.listPage = (cpu() - t) / 200;
  t = cpu();
  const view = c.view('production');
  for (let k = 0; k < 20; k++) view.search({ query: 'zq', limit: 50, scan: 5_000, cursor: undefined });
  out.search = (cpu() - t) / 20;
  return out;
}
const res: Record<string, Record<string, number[]>> = { old: {}, new: {} };
for (let r = 0; r < rounds; r++) {
  for (const [k, c] of r % 2 ? ([['new', cur], ['old', old]] as const) : ([['old', old], ['new', cur]] as const)) {
    const o = await run(c);
    for (const [m, v] of Object.entries(o)) (res[k]![m] ??= []).push(v);
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
for (const m of ['get', 'listPage', 'search']) console.log(`${m}: old ${med(res.old![m]!).toFixed(1)} µs, new ${med(res.new![m]!).toFixed(1)} µs CPU per call (median of ${rounds})`);
await store.close();
process.exit(0);
