// list_prompts `query` over the served catalog (src/core/catalog-search.ts), alternated in
// one process so both sides see the same machine load:
//   "whole": each examined prompt's raw document is matched whole (messages included),
//            candidates parsed — the search of issue 21.1;
//   "head":  only the document's head (title, description; ServedSource.searchHead) is
//            matched — CatalogView.search now.
// Both run the same 5,000-prompt bounded scan from the start of the name order and must
// find the same prompts. Then CatalogView.search itself (the tool's work without MCP).
// `npx tsx bench/catalog-search-ab.ts [prompts] [rounds]`.
import path from 'node:path';
import { openStore } from '../src/db/store.js';
import { createCore } from '../src/core/index.js';
import { queryMatcher } from '../src/core/catalog-search.js';
import { populate } from './lib/fixture.js';
import { tempDir, removeTempDirs } from './lib/proc.js';
import { median, percentile } from './lib/stats.js';

const N = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 60);
const SCAN = 5_000;
const url = `file:${path.join(tempDir(), 'ab.db')}`;
await populate(url, N);
const store = await openStore(url);
const core = await createCore({ store, purgeIntervalMs: 0 });
const view = core.catalog.view('production');
await view.ready();
const rows = (await store.served.load('production')).slice(0, SCAN);
const source = store.served;

function scan(query: string, head: ((doc: string) => string) | undefined, limit: number) {
  const m = queryMatcher(query, head);
  const hits: string[] = [];
  for (const r of rows) {
    if (!m.mayMatch(r.name, r.doc)) continue;
    const v = source.decode(r.doc);
    if (m.matches({ name: r.name, title: v.title, description: v.description })) hits.push(r.name);
    if (hits.length === limit) break;
  }
  return hits;
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
console.log(`${N.toLocaleString('en')} prompts, ${ROUNDS} alternated rounds, scan bound ${SCAN}`);
console.log('| query | whole document, median (p99) | head only, median (p99) | ratio of medians | CatalogView.search, median (p99) | its CPU per call |');
console.log('|---|---|---|---|---|---|');
for (const q of ['zq', 'Z', 'number 4242', 'review', 'p-0999']) {
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  let cpuMs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    let t = performance.now();
    const x = scan(q, undefined, 50);
    a.push(performance.now() - t);
    t = performance.now();
    const y = scan(q, source.searchHead, 50);
    b.push(performance.now() - t);
    if (x.join() !== y.join()) throw new Error(`different hits for ${q}: ${x.length} vs ${y.length}`);
    const c0 = cpu();
    t = performance.now();
    view.search({ query: q, limit: 50, scan: SCAN });
    c.push(performance.now() - t);
    cpuMs += cpu() - c0;
  }
  const f = (xs: number[]) => `${median(xs).toFixed(2)} ms (${percentile(xs, 99).toFixed(1)})`;
  console.log(`| ${q} | ${f(a)} | ${f(b)} | ${(median(a) / median(b)).toFixed(1)}× | ${f(c)} | ${(cpuMs / ROUNDS).toFixed(2)} ms |`);
}
await core.close();
removeTempDirs();
process.exit(0);
