// Wall time of core.prompts.list for two builds on one kept 100k fixture (bench/search-fixture.ts),
// alternated call by call in one process, so both see the same machine load at each moment
// (runs of bench/prompt-search.ts minutes apart differed by 2x at load 4-13: history.md 32).
// node bench/list-interleave-ab.mjs <url> <runs> <base dist dir> <branch dist dir> [case names of bench/lib/list-cases.mjs separated by ;]
// Columns: case | base median · p90 · max ms | branch median · p90 · max ms.
import { caseOptions, pickCases } from './lib/list-cases.mjs';
const [url, runsArg, baseDist, branchDist, only] = process.argv.slice(2);
const R = Number(runsArg ?? 60);
const sides = {};
for (const [n, dist] of [['base', baseDist], ['branch', branchDist]]) {
  const { openStore } = await import(`${dist}/db/store.js`);
  const { createCore } = await import(`${dist}/core/index.js`);
  const store = await openStore(url);
  const core = await createCore({ store, purgeIntervalMs: 0 });
  await core.catalog.ready();
  sides[n] = core;
}
// The short and rare searches section 32 of bench/history.md worked on, unless named.
const CASES = pickCases(only ?? ['q=rare, sort=updated', 'q=absent, 2 chars', 'q=absent, 1 char', 'q=some (4%), 2 chars', 'q=rare, 2 chars, sort=updated', 'q=absent, 2 chars, sort=updated', 'q=absent, 1 char, label=production', 'q=absent, 2 chars, next page (cursor)'].join(';'));
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const pct = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))];
for (const [name, given] of CASES) {
  const opts = {};
  for (const [n, core] of Object.entries(sides)) {
    const o = await caseOptions(core, given);
    opts[n] = o;
    for (let w = 0; w < 3; w++) await core.prompts.list({ ...o, limit: 50 });
  }
  const t = { base: [], branch: [] };
  for (let r = 0; r < R; r++) {
    const order = r % 2 ? ['base', 'branch'] : ['branch', 'base'];
    for (const n of order) {
      const t0 = performance.now();
      await sides[n].prompts.list({ ...opts[n], limit: 50 });
      t[n].push(performance.now() - t0);
    }
  }
  console.log(`| ${name} | ${med(t.base).toFixed(1)} · p90 ${pct(t.base, 0.9).toFixed(1)} · max ${Math.max(...t.base).toFixed(1)} | ${med(t.branch).toFixed(1)} · p90 ${pct(t.branch, 0.9).toFixed(1)} · max ${Math.max(...t.branch).toFixed(1)} |`);
}
for (const c of Object.values(sides)) await c.close();
process.exit(0);
