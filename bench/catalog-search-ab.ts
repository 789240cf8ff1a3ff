// list_prompts `query` over the served catalog, before/after (issue 21.1), alternated in
// one process so both see the same machine load: "parse" walks list() pages and matches
// every parsed prompt (the tool before), "raw" is CatalogView.search (documents checked
// raw, only candidates parsed). `npx tsx bench/catalog-search-ab.ts [prompts] [rounds]`.
import path from 'node:path';
import { openStore } from '../src/db/store.js';
import { createCore } from '../src/core/index.js';
import type { CatalogView } from '../src/core/catalog.js';
import { populate } from './lib/fixture.js';
import { tempDir, removeTempDirs } from './lib/proc.js';
import { median, percentile } from './lib/stats.js';

const N = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 40);
const SCAN = 5_000;
const url = `file:${path.join(tempDir(), 'ab.db')}`;
await populate(url, N);
const store = await openStore(url);
const core = await createCore({ store, purgeIntervalMs: 0 });
const view = core.catalog.view('production');
await view.ready();

function parseEach(v: CatalogView, query: string, limit: number) {
  const needle = query.toLowerCase();
  const hits = [];
  let next: string | undefined;
  let scanned = 0;
  while (hits.length < limit && scanned < SCAN) {
    const page = v.list({ cursor: next, limit: Math.min(500, SCAN - scanned) });
    for (const p of page.prompts) {
      scanned++;
      if ([p.name, p.title ?? '', p.description ?? ''].some((s) => s.toLowerCase().includes(needle))) hits.push(p);
      if (hits.length === limit) return hits;
    }
    next = page.nextCursor;
    if (!next) break;
  }
  return hits;
}

console.log(`${N} prompts, ${ROUNDS} alternated rounds, scan bound ${SCAN}`);
console.log('| query | before: parse every prompt, median (p99) | after: raw documents first, median (p99) | ratio of medians |');
console.log('|---|---|---|---|');
for (const q of ['zq', 'Z', 'number 4242', 'review']) {
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let t = performance.now();
    const x = parseEach(view, q, 50);
    a.push(performance.now() - t);
    t = performance.now();
    const y = view.search({ query: q, limit: 50, scan: SCAN });
    b.push(performance.now() - t);
    if (x.length !== y.prompts.length) throw new Error(`different hits for ${q}: ${x.length} vs ${y.prompts.length}`);
  }
  console.log(`| ${q} | ${median(a).toFixed(2)} ms (${percentile(a, 99).toFixed(1)}) | ${median(b).toFixed(2)} ms (${percentile(b, 99).toFixed(1)}) | ${(median(a) / median(b)).toFixed(1)}× |`);
}
await core.close();
removeTempDirs();
process.exit(0);
