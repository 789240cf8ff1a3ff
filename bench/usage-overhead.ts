// 6. The cost of usage recording on the hot path: prompts/get over Streamable HTTP on
// two `promptd serve` children with the same 100 prompts, one recording usage (the
// default) and one with PROMPTD_USAGE=off, loaded in alternating slices by the same
// load generator as section 1 (bench/get-load-ab.ts). The figure is on ÷ off.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { populate } from './lib/fixture.js';
import { spawnTs, startServe, tempDir } from './lib/proc.js';
import { createUsageRecorder } from '../src/core/usage/recorder.js';
import { midMedian as median, side, type SideResult, type Slice } from './lib/slices.js';

export type UsageSide = SideResult;

export interface UsageOverheadResult {
  prompts: number;
  sessions: number;
  sliceMs: number;
  pairs: number;
  warmupPairs: number;
  /** server processes per side */
  procs: number;
  on: UsageSide;
  off: UsageSide;
  /** throughput with recording ÷ without */
  ratio: number;
  pairRatios: number[];
  medianPairRatio: number;
  /** usage rows the recording server wrote (checked after it stopped: the counts are real) */
  fetchesRecorded: number;
  /** in-process cost of one record() call (100 prompts × 2 clients × 2 outcomes), in ns */
  recordNs: number;
}

export async function runUsageOverhead(opts: { quick: boolean; log: (s: string) => void }): Promise<UsageOverheadResult> {
  const prompts = 100;
  const sessions = 32;
  const sliceMs = 1_000;
  const pairs = Number(process.env.BENCH_USAGE_PAIRS ?? (opts.quick ? 4 : 12));
  const warmupPairs = 2;
  // Several server processes per side, started A B B A …: two identical servers differ
  // by up to ~10% in CPU per request (JIT luck, the A/A run below), so one of each
  // compares processes as much as recording on and off.
  const procs = Math.max(1, Number(process.env.BENCH_USAGE_PROCS ?? 2));
  const dir = tempDir();
  // BENCH_USAGE_AA=1: every server with recording off, an A/A run that shows the noise of the setup itself.
  const roles: ('on' | 'off')[] = Array.from({ length: procs * 2 }, (_, i) => ((i % 4 === 0 || i % 4 === 3) ? 'on' : 'off'));
  const urls = roles.map((r, i) => `file:${path.join(dir, `usage-${r}-${i}.db`)}`);
  for (const u of urls) await populate(u, prompts);
  // All sessions come from one address: lift the per-client session cap (default 20).
  const common = { PROMPTD_MCP_SESSIONS_PER_CLIENT: String(sessions * 2) };
  const servers: Awaited<ReturnType<typeof startServe>>[] = [];
  let stopped = false;
  const stopAll = () => Promise.all(servers.map((x) => x.stop()));
  try {
    for (const [i, role] of roles.entries()) {
      servers.push(await startServe(urls[i]!, { env: { ...common, PROMPTD_USAGE: role === 'on' && process.env.BENCH_USAGE_AA !== '1' ? 'on' : 'off' } }));
    }
    const out = path.join(dir, 'usage-ab.json');
    const c = spawnTs('get-load-ab.ts', [out, String(sessions), String(sliceMs), String(pairs), String(warmupPairs), String(prompts), ...servers.flatMap((x) => [`${x.base}/mcp`, String(x.pid)])]);
    const timer = setTimeout(() => void c.stop(), (pairs + warmupPairs) * servers.length * sliceMs + 120_000);
    const code = await c.exited;
    clearTimeout(timer);
    if (code !== 0) throw new Error(`get-load-ab exited with ${code}: ${c.stderr().slice(-2000)}`);
    const r = JSON.parse(readFileSync(out, 'utf8')) as { sides: Slice[][]; firstError: string };
    if (r.firstError) opts.log(`  first error: ${r.firstError.slice(0, 300)}`);
    const of = (role: 'on' | 'off') => roles.flatMap((x, i) => (x === role ? [r.sides[i]!] : []));
    const a = side(of('on').flat());
    const b = side(of('off').flat());
    // Per round: the requests of each side's slices over their time.
    const roundRate = (sides: Slice[][], k: number) => sides.reduce((n, s) => n + s[k]!.requests, 0) / sides.reduce((t, s) => t + s[k]!.seconds, 0);
    const pairRatios = Array.from({ length: pairs }, (_, k) => roundRate(of('on'), k) / roundRate(of('off'), k));
    // Stopping flushes; the rows prove the recording servers really counted.
    await stopAll();
    stopped = true;
    let fetchesRecorded = 0;
    for (const [i, role] of roles.entries()) if (role === 'on') fetchesRecorded += await recordedFetches(urls[i]!);
    opts.log(`  recording on  ${a.rps.toFixed(0)} req/s, server CPU ${a.cpuUs.toFixed(0)} µs/request (${a.errors} errors)`);
    opts.log(`  recording off ${b.rps.toFixed(0)} req/s, server CPU ${b.cpuUs.toFixed(0)} µs/request (${b.errors} errors)`);
    opts.log(`  per-round ratios: ${pairRatios.map((x) => x.toFixed(2)).join(' ')}; ${fetchesRecorded} fetches recorded`);
    const recordNs = measureRecord();
    opts.log(`  record(): ${recordNs.toFixed(0)} ns per call in process`);
    return { prompts, sessions, sliceMs, pairs, warmupPairs, procs, on: a, off: b, ratio: a.rps / b.rps, pairRatios, medianPairRatio: median(pairRatios), fetchesRecorded, recordNs };
  } finally {
    if (!stopped) await stopAll();
  }
}

/** The hot path alone: record() on a recorder that never flushes, median of 5 runs of 1M calls. */
function measureRecord(): number {
  const r = createUsageRecorder({ store: undefined as never, instance: 'bench', retentionDays: 90, flushMs: 0 });
  const hits = Array.from({ length: 400 }, (_, i) => ({
    prompt: `prompt-${i % 100}`, version: 1, label: 'production', client: i % 2 ? 'claude-desktop' : 'cursor', clientVersion: i % 2 ? '1.2.0' : '0.42', token: null,
    transport: 'http' as const, outcome: i % 4 === 3 ? ('invalid_arguments' as const) : ('ok' as const), latencyMs: 0.4,
  }));
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const n = 1_000_000;
    const t = performance.now();
    for (let i = 0; i < n; i++) r.record(hits[i % 400]!);
    runs.push(((performance.now() - t) * 1e6) / n);
  }
  return median(runs);
}

async function recordedFetches(url: string): Promise<number> {
  const { openStore } = await import('../src/db/store.js');
  const store = await openStore(url);
  try {
    return (await store.db.prisma.usageBucket.aggregate({ _sum: { fetches: true } }))._sum.fetches ?? 0;
  } finally {
    await store.close();
  }
}
