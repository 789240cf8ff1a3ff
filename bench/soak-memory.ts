// Memory soak (issue 21.2): `npm run bench:soak -- --minutes 30 [--prompts 2000] [--clients 8]`.
// Not part of `npm run bench` or the test suite. Runs `promptd serve` (dist/, SQLite,
// PROMPTD_BENCH_STATS=1) under a mixed load for --minutes: MCP sessions that open, do
// prompts/get, prompts/list and list_prompts calls, sometimes hold a GET stream, and
// then either DELETE the session or just leave (the idle timeout reaps those); REST
// list pages with and without q=; a writer adding versions and moving the production
// label (catalog changes and list_changed fan-out). Every --sample seconds it asks the
// server for a full GC and its memory and table sizes (POST /__bench/stats). At the
// end the clients stop, the idle sessions expire, and the tables must be back at their
// baseline. The RSS trend is the least-squares slope of RSS-after-GC over the samples
// after the first --warmup minutes, in MiB per 10 minutes.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ARG, ARG_VALUE, populate, promptName } from './lib/fixture.js';
import { RawSession } from './lib/mcp-raw.js';
import { ADMIN_TOKEN, admin, adminOk, removeTempDirs, startServe, tempDir } from './lib/proc.js';
import { createToggle, versionBody } from './lib/prompts-api.js';
import { sleep } from './lib/stats.js';

const { values: flags } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    prompts: { type: 'string', default: '2000' },
    clients: { type: 'string', default: '8' },
    sample: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '2' },
    snapshot: { type: 'boolean', default: false },
  },
});
const MINUTES = Number(flags.minutes);
const PROMPTS = Number(flags.prompts);
const CLIENTS = Number(flags.clients);
const SAMPLE_MS = Number(flags.sample) * 1000;
const WARMUP_MS = Number(flags.warmup) * 60_000;
const IDLE_S = 60; // PROMPTD_MCP_IDLE_TIMEOUT's minimum
const SESSION_MS = 3_000;

type Stats = { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; mcpSessions: number; notifierSessions: number; feedListeners: number; catalogListeners: number; snapshot?: string };
const MiB = (b: number) => b / 1024 / 1024;

const dir = tempDir();
const dbUrl = `file:${path.join(dir, 'soak.db')}`;
await populate(dbUrl, PROMPTS);
const s = await startServe(dbUrl, { env: { PROMPTD_BENCH_STATS: '1', PROMPTD_MCP_IDLE_TIMEOUT: String(IDLE_S) } });
const stats = async (snapshot = false): Promise<Stats> => {
  const r = await fetch(`${s.base}/__bench/stats${snapshot ? '?snapshot=1' : ''}`, { method: 'POST' });
  if (!r.ok) throw new Error(`/__bench/stats: ${r.status} (was the server built with the bench endpoint?)`);
  return (await r.json()) as Stats;
};
const log = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

const TOGGLES = 20;
for (let i = 0; i < TOGGLES; i++) await createToggle(s.base, `soak-${i}`);
const baseline = await stats(flags.snapshot);
log(`baseline: RSS ${MiB(baseline.rss).toFixed(1)} MiB, heap ${MiB(baseline.heapUsed).toFixed(1)} MiB, sessions ${baseline.mcpSessions}, notifier ${baseline.notifierSessions}, feed ${baseline.feedListeners}, catalog ${baseline.catalogListeners}`);

let stopping = false;
const counts = { gets: 0, lists: 0, tools: 0, streams: 0, restLists: 0, writes: 0, sessions: 0, abandoned: 0, errors: 0 };
const rand = (n: number) => Math.floor(Math.random() * n);

async function mcpClient(k: number): Promise<void> {
  while (!stopping) {
    const session = new RawSession(new URL(`${s.base}/mcp`));
    try {
      await session.open();
      counts.sessions++;
      let stream: AbortController | undefined;
      if (rand(4) === 0) {
        // A GET stream the client holds for a while (notifications) and then drops.
        stream = new AbortController();
        void fetch(`${s.base}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session.sessionId, 'mcp-protocol-version': '2025-06-18' }, signal: stream.signal })
          .then((r) => r.body?.cancel())
          .catch(() => {});
        counts.streams++;
      }
      let cursor: string | undefined;
      // Each session lives a fixed wall time, not a fixed number of calls: then sessions
      // open at a steady rate whatever the machine's speed, and the live-session count
      // (with the abandoned ones waiting for the idle timeout) stays level, so the RSS
      // slope measures memory kept, not a load that grows as the machine frees up.
      const closeAt = Date.now() + SESSION_MS;
      for (let op = 0; Date.now() < closeAt && !stopping; op++) {
        const roll = rand(10);
        if (roll < 6) {
          const r = await session.request('prompts/get', { name: promptName(rand(PROMPTS)), arguments: { [ARG]: ARG_VALUE } });
          if (r.error) counts.errors++;
          counts.gets++;
        } else if (roll < 8) {
          const r = (await session.request('prompts/list', cursor ? { cursor } : {})) as { result?: { nextCursor?: string }; error?: unknown };
          cursor = r.result?.nextCursor;
          if (r.error) counts.errors++;
          counts.lists++;
        } else {
          const r = await session.request('tools/call', { name: 'list_prompts', arguments: { query: ['review', 'p-0001', 'zq', 'soak'][rand(4)] } });
          if (r.error) counts.errors++;
          counts.tools++;
        }
        // Paced: the machine is shared; the soak is about time and churn, not throughput.
        await sleep(10);
      }
      stream?.abort();
    } catch (e) {
      counts.errors++;
      if (counts.errors < 5) log(`client ${k}: ${(e as Error).message}`);
    }
    // One session in five is left behind without DELETE: the idle timeout has to reap it.
    if (rand(5) === 0) counts.abandoned++;
    else await session.close();
  }
}

async function restClient(): Promise<void> {
  while (!stopping) {
    const q = ['', 'review', 'zq', 'p-00', 'e'][rand(5)];
    try {
      const r = await fetch(`${s.base}/admin/v1/prompts?limit=50${q ? `&q=${q}` : ''}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      await r.arrayBuffer();
      if (!r.ok) counts.errors++;
      counts.restLists++;
    } catch (e) {
      counts.errors++;
      if (counts.errors < 5) log(`rest: ${(e as Error).message}`);
    }
    await sleep(20);
  }
}

async function writer(): Promise<void> {
  let rev = 3;
  while (!stopping) {
    const name = `soak-${rand(TOGGLES)}`;
    try {
      const v = await adminOk<{ version: number }>(s.base, 'POST', `/prompts/${name}/versions`, versionBody(rev++));
      const moved = await admin(s.base, 'PUT', `/prompts/${name}/labels/production`, { version: v.version });
      if (!moved.ok) throw new Error(`label move: ${moved.status} ${await moved.text()}`);
      await moved.arrayBuffer();
      counts.writes++;
    } catch (e) {
      counts.errors++;
      if (counts.errors < 5) log(`writer: ${(e as Error).message}`);
    }
    await sleep(250);
  }
}

const t0 = Date.now();
const samples: { t: number; stats: Stats }[] = [];
const load = [...Array.from({ length: CLIENTS }, (_, k) => mcpClient(k)), restClient(), writer()];
while (Date.now() - t0 < MINUTES * 60_000) {
  await sleep(Math.min(SAMPLE_MS, MINUTES * 60_000 - (Date.now() - t0)));
  const st = await stats();
  samples.push({ t: Date.now() - t0, stats: st });
  log(`${((Date.now() - t0) / 60_000).toFixed(1)} min: RSS ${MiB(st.rss).toFixed(1)} MiB, heap ${MiB(st.heapUsed).toFixed(1)}, external ${MiB(st.external).toFixed(1)}, sessions ${st.mcpSessions}, notifier ${st.notifierSessions}, feed ${st.feedListeners}, catalog ${st.catalogListeners}; ${JSON.stringify(counts)}`);
}
stopping = true;
await Promise.all(load);
// Abandoned sessions expire after the idle timeout (the table sweeps at a fraction of it).
await sleep((IDLE_S + 20) * 1000);
const after = await stats(flags.snapshot);

/** Least-squares slope of y over t (ms), in units per 10 minutes. */
function slopePer10Min(points: { t: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const num = points.reduce((a, p) => a + (p.t - mt) * (p.y - my), 0);
  const den = points.reduce((a, p) => a + (p.t - mt) ** 2, 0);
  return (num / den) * 600_000;
}
const steady = samples.filter((p) => p.t >= WARMUP_MS);
const rssTrend = slopePer10Min(steady.map((p) => ({ t: p.t, y: MiB(p.stats.rss) })));
const heapTrend = slopePer10Min(steady.map((p) => ({ t: p.t, y: MiB(p.stats.heapUsed) })));
const back = (k: keyof Stats) => `${k} ${baseline[k]} → ${after[k]}`;
const tables = (['mcpSessions', 'notifierSessions', 'feedListeners', 'catalogListeners'] as const).every((k) => after[k] === baseline[k]);
const result = {
  minutes: MINUTES, prompts: PROMPTS, clients: CLIENTS, counts,
  rssMiB: { baseline: MiB(baseline.rss), first: MiB(steady[0]?.stats.rss ?? NaN), last: MiB(samples.at(-1)!.stats.rss), after: MiB(after.rss) },
  heapMiB: { baseline: MiB(baseline.heapUsed), last: MiB(samples.at(-1)!.stats.heapUsed), after: MiB(after.heapUsed) },
  rssTrendMiBPer10Min: rssTrend, heapTrendMiBPer10Min: heapTrend,
  tablesBackToBaseline: tables,
  // live sessions over the steady samples: level when the load is stationary
  sessionsDuringRun: { min: Math.min(...steady.map((p) => p.stats.mcpSessions)), max: Math.max(...steady.map((p) => p.stats.mcpSessions)) },
  ...(after.snapshot ? { snapshots: [baseline.snapshot, after.snapshot] } : {}),
};
log(`RSS trend after the first ${flags.warmup} min: ${rssTrend.toFixed(2)} MiB per 10 min (heap ${heapTrend.toFixed(2)}); tables: ${back('mcpSessions')}, ${back('notifierSessions')}, ${back('feedListeners')}, ${back('catalogListeners')}`);
await s.stop();
if (!flags.snapshot) removeTempDirs();
console.log(JSON.stringify(result));
process.exit(rssTrend <= 5 && tables ? 0 : 1);
