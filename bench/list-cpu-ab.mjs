// CPU per core.prompts.list call (node's process CPU, and for PostgreSQL the backends'
// utime+stime from /proc) on a kept 100k fixture (bench/search-fixture.ts), for A/B runs
// of two builds on a shared machine: node bench/list-cpu-ab.mjs <dist dir> <url> <runs> [case names of bench/lib/list-cases.mjs separated by ;]
// Columns: case | node CPU ms per call | backend CPU ms per call | median wall | slowest | page signature.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { caseOptions, pickCases } from './lib/list-cases.mjs';
const [dist, url, runsArg, only] = process.argv.slice(2);
const RUNS = Number(runsArg ?? 20);
const { openStore } = await import(`${dist}/db/store.js`);
const { createCore } = await import(`${dist}/core/index.js`);

const CASES = pickCases(only);

const isPg = url.startsWith('postgres');
let admin;
if (isPg) {
  admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
  await admin.connect();
}
const db = isPg ? new URL(url).pathname.slice(1) : '';
async function backendCpu() {
  if (!isPg) return 0;
  const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [db]);
  let t = 0;
  for (const { pid } of rows) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      t += Number(f[11]) + Number(f[12]);
    } catch {}
  }
  return t * 10; // ms (100 Hz)
}

const store = await openStore(url);
const core = await createCore({ store, purgeIntervalMs: 0 });
await core.catalog.ready();
const out = [];
for (const [name, given] of CASES) {
  const opts = await caseOptions(core, given);
  let sig = '';
  for (let w = 0; w < 3; w++) {
    const p = await core.prompts.list({ ...opts, limit: 50 });
    sig = `${p.items?.length ?? p.rows?.length} ${p.total}${p.totalIsLowerBound ? '+' : ''} ${p.searchedThrough ?? ''} ${(p.items ?? []).map((i) => i.name ?? i.summary?.name).slice(0, 1)}`;
  }
  const walls = [];
  const b0 = await backendCpu();
  const c0 = process.cpuUsage();
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    await core.prompts.list({ ...opts, limit: 50 });
    walls.push(performance.now() - t0);
  }
  const c = process.cpuUsage(c0);
  const b = (await backendCpu()) - b0;
  walls.sort((a, b) => a - b);
  out.push(`| ${name} | ${((c.user + c.system) / 1000 / RUNS).toFixed(2)} | ${isPg ? (b / RUNS).toFixed(2) : '-'} | ${walls[Math.floor(RUNS / 2)].toFixed(1)} | ${walls.at(-1).toFixed(1)} | ${sig} |`);
}
await core.close();
if (admin) await admin.end();
console.log(out.join('\n'));
process.exit(0);
