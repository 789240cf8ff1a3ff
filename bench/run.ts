// `npm run bench`: builds the server, runs every benchmark, prints the targets met or
// missed and writes docs/benchmarks.md. BENCH_QUICK=1 shortens every run;
// BENCH_PROMPTS overrides the 100,000-prompt catalog size; BENCH_NO_BUILD=1 skips
// `npm run build:server`; BENCH_ONLY=get,paging,latency,writes,footprint,usage picks sections;
// BENCH_OUT sets the report path (default docs/benchmarks.md).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describeMachine } from './lib/machine.js';
import { populate } from './lib/fixture.js';
import { buildServer, removeTempDirs, ROOT, startServe, tempDir, type Served } from './lib/proc.js';
import { createTempPg } from './lib/pg.js';
import { runGetThroughput } from './get-throughput.js';
import { runPaging } from './paging.js';
import { httpListener, measureListChanged, stdioListener, type Listener } from './list-changed.js';
import { measureWrites } from './writes.js';
import { runFootprint } from './footprint.js';
import { runUsageOverhead } from './usage-overhead.js';
import { consoleSummary, markdown, type Outcome, type Results } from './report.js';

const quick = process.env.BENCH_QUICK === '1';
const prompts = Number(process.env.BENCH_PROMPTS ?? 100_000);
const only = process.env.BENCH_ONLY?.split(',');
const want = (s: string) => !only || only.includes(s);
const log = (s: string) => process.stderr.write(`${s}\n`);
const t0 = Date.now();

async function attempt<T>(label: string, fn: () => Promise<T>): Promise<Outcome<T>> {
  log(`\n▶ ${label}`);
  try {
    return { ok: await fn() };
  } catch (e) {
    const msg = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim().slice(0, 300);
    log(`  failed: ${msg}`);
    return { error: msg };
  }
}

const machine = describeMachine();
log(`promptd benchmarks${quick ? ' (quick)' : ''}: ${machine.nproc} CPUs, ${machine.cpu}, ${machine.memory}, Node ${machine.node}`);
if (process.env.BENCH_NO_BUILD !== '1') {
  log('▶ npm run build:server');
  buildServer();
}

const results: Results = { startedAt: new Date().toISOString(), quick, minutes: 0, machine, prompts, latency: {}, writes: {} };

if (want('get')) results.get = await attempt('1. prompts/get over Streamable HTTP, promptd vs SDK McpServer', () => runGetThroughput({ quick, log }));

const fullDb = path.join(tempDir(), 'full.db');
if (want('paging') || want('footprint')) {
  log(`\n▶ fixture: ${prompts.toLocaleString('en-US')} prompts`);
  const t = performance.now();
  await populate(`file:${fullDb}`, prompts);
  log(`  populated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
if (want('paging')) results.paging = await attempt('2. prompts/list deep paging', () => runPaging(`file:${fullDb}`, prompts, { quick, log }));

const latencyWrites = quick ? 60 : 200;
const writeMs = quick ? 2_000 : 5_000;

async function writesOn(base: string, tag: string) {
  const out = [];
  for (const c of [1, 8]) {
    const w = await measureWrites(base, tag, c, writeMs);
    log(`  ${tag}, ${c} writer(s): ${w.perSecond.toFixed(0)} versions/s, p50 ${w.p50.toFixed(1)} ms, p99 ${w.p99.toFixed(1)} ms, ${w.errors} errors`);
    out.push(w);
  }
  return out;
}

async function withListener<T>(make: () => Promise<Listener>, fn: (l: Listener) => Promise<T>): Promise<T> {
  const l = await make();
  try {
    return await fn(l);
  } finally {
    await l.close();
  }
}

const logLatency = (label: string) => <T extends { p50: number; p99: number; missed: number }>(v: T) => {
  log(`  ${label}: p50 ${v.p50.toFixed(1)} ms, p99 ${v.p99.toFixed(1)} ms, ${v.missed} missed`);
  return v;
};

if (want('latency') || want('writes')) {
  const dbUrl = `file:${path.join(tempDir(), 'rw.db')}`;
  let server: Served | undefined;
  const started = await attempt('3/4. SQLite server for list_changed and writes', async () => (server = await startServe(dbUrl)));
  if (server) {
    const s = server;
    if (want('latency')) {
      results.latency.sameProcess = await attempt(`3. list_changed, same process, ${latencyWrites} writes`, () =>
        withListener(() => httpListener(`${s.base}/mcp`), (l) => measureListChanged(s.base, l, 'lc-same', latencyWrites)).then(logLatency('same process')));
      results.latency.crossProcess = await attempt(`3. list_changed, across processes (stdio), ${latencyWrites} writes`, () =>
        withListener(() => stdioListener(dbUrl), (l) => measureListChanged(s.base, l, 'lc-stdio', latencyWrites)).then(logLatency('across processes')));
    }
    if (want('writes')) results.writes.sqlite = await attempt('4. writes, SQLite', () => writesOn(s.base, 'sqlite'));
    await s.stop();
  } else {
    results.latency.sameProcess = results.latency.crossProcess = results.writes.sqlite = started as Outcome<never>;
  }

  const pg = await createTempPg();
  if (!pg) {
    const skipped = { skipped: 'no PostgreSQL at PROMPTD_BENCH_PG_URL' };
    results.latency.crossPg = skipped;
    results.writes.postgresql = skipped;
  } else {
    const servers: Served[] = [];
    try {
      const up = await attempt('3/4. two promptd serve on one PostgreSQL database', async () => {
        for (let i = 0; i < 2; i++) servers.push(await startServe(pg.url));
      });
      const [a, b] = servers;
      if (a && b) {
        if (want('latency')) {
          results.latency.crossPg = await attempt(`3. list_changed across PostgreSQL instances, ${latencyWrites} writes`, () =>
            withListener(() => httpListener(`${b.base}/mcp`), (l) => measureListChanged(a.base, l, 'lc-pg', latencyWrites)).then(logLatency('across PostgreSQL instances')));
        }
        if (want('writes')) results.writes.postgresql = await attempt('4. writes, PostgreSQL', () => writesOn(a.base, 'pg'));
      } else {
        results.latency.crossPg = results.writes.postgresql = up as Outcome<never>;
      }
    } finally {
      for (const s of servers) await s.stop();
      await pg.drop().catch((e) => log(`  could not drop ${pg.url}: ${String(e)}`));
    }
  }
}

if (want('usage')) results.usage = await attempt('6. prompts/get with usage recording on vs off', () => runUsageOverhead({ quick, log }));

if (want('footprint')) results.footprint = await attempt('5. footprint', () => runFootprint(fullDb, prompts, { quick, log }));

results.minutes = (Date.now() - t0) / 60_000;
const historyFile = path.join(ROOT, 'bench', 'history.md');
const history = existsSync(historyFile) ? readFileSync(historyFile, 'utf8') : '';
const out = path.resolve(ROOT, process.env.BENCH_OUT ?? path.join('docs', 'benchmarks.md'));
const byHandFile = path.join(ROOT, 'bench', 'targets-by-hand.md');
const byHand = existsSync(byHandFile) ? readFileSync(byHandFile, 'utf8') : '';
if (!only) writeFileSync(out, markdown(results, history, byHand));
removeTempDirs();
log(`\n${consoleSummary(results)}\n\n${only ? '(BENCH_ONLY set: docs/benchmarks.md not written)' : `written to ${path.relative(ROOT, out)}`} in ${results.minutes.toFixed(1)} min`);
process.exit(0);
