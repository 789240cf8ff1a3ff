// 1. prompts/get over Streamable HTTP: promptd (SQLite, `promptd serve` child) vs the
// SDK's in-memory McpServer (child), 32 sessions from a load-generator child,
// alternated A/B/A/B. The figure that matters is the throughput ratio.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { populate, ARG, ARG_VALUE, promptName } from './lib/fixture.js';
import { RawSession } from './lib/mcp-raw.js';
import { cpuMsOf, spawnTs, startServe, tempDir, type Child } from './lib/proc.js';
import { summarize, type Summary } from './lib/stats.js';

export interface SideResult extends Summary {
  rps: number;
  /** server CPU time (user + system) per answered request, in µs */
  cpuUs: number;
  errors: number;
  runs: number[];
}

export interface GetResult {
  prompts: number;
  sessions: number;
  secondsPerRun: number;
  sameAnswer: boolean;
  promptd: SideResult;
  sdk: SideResult;
  ratio: number;
  roundRatios: number[];
  /** SDK CPU per request ÷ promptd CPU per request: > 1 when promptd needs less CPU */
  cpuRatio: number;
}

async function startSdk(count: number): Promise<{ url: string; proc: Child }> {
  const proc = spawnTs('sdk-server.ts', [String(count)]);
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const line = proc.stdout().split('\n').find((l) => l.startsWith('{'));
    if (line) return { url: (JSON.parse(line) as { url: string }).url, proc };
    if (proc.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await proc.stop();
  throw new Error(`sdk-server did not start: ${proc.stderr().slice(-2000)}`);
}

async function sample(url: string, name: string): Promise<unknown> {
  const s = new RawSession(new URL(url));
  await s.open();
  try {
    const r = await s.request('prompts/get', { name, arguments: { [ARG]: ARG_VALUE } });
    if (!r.result) throw new Error(`prompts/get on ${url}: ${JSON.stringify(r.error)}`);
    return r.result;
  } finally {
    await s.close();
  }
}

interface Run {
  requests: number;
  total: number;
  cpuMs: number;
  errors: number;
  firstError: string;
  seconds: number;
  latencies: number[];
}

async function load(url: string, serverPid: number, opts: { sessions: number; warmupMs: number; measureMs: number; prompts: number }, dir: string, tag: string): Promise<Run> {
  const out = path.join(dir, `${tag}.json`);
  const cpu0 = cpuMsOf(serverPid);
  const c = spawnTs('get-load.ts', [url, String(opts.sessions), String(opts.warmupMs), String(opts.measureMs), String(opts.prompts), out]);
  const timer = setTimeout(() => void c.stop(), opts.warmupMs + opts.measureMs + 60_000);
  const code = await c.exited;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`get-load exited with ${code}: ${c.stderr().slice(-2000)}`);
  const run = { ...(JSON.parse(readFileSync(out, 'utf8')) as Run), cpuMs: cpuMsOf(serverPid) - cpu0 };
  if (run.firstError) process.stderr.write(`  ${tag}: first error: ${run.firstError.slice(0, 300)}\n`);
  return run;
}

function side(runs: Run[]): SideResult {
  const requests = runs.reduce((a, r) => a + r.requests, 0);
  const seconds = runs.reduce((a, r) => a + r.seconds, 0);
  return {
    ...summarize(runs.flatMap((r) => r.latencies)),
    rps: requests / seconds,
    cpuUs: (1000 * runs.reduce((a, r) => a + r.cpuMs, 0)) / runs.reduce((a, r) => a + r.total, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    runs: runs.map((r) => r.requests / r.seconds),
  };
}

export async function runGetThroughput(opts: { quick: boolean; log: (s: string) => void }): Promise<GetResult> {
  const prompts = 100;
  const sessions = 32;
  // Short alternating rounds: the shared machine's speed drifts within seconds, so
  // many A/B pairs compare better than two long runs. ≥ 10 s measured per side.
  const rounds = opts.quick ? 2 : 4;
  const measureMs = 5_000;
  const warmupMs = 1_000;
  const dir = tempDir();
  const dbUrl = `file:${path.join(dir, 'get.db')}`;
  await populate(dbUrl, prompts);
  const promptd = await startServe(dbUrl);
  const sdk = await startSdk(prompts).catch(async (e) => {
    await promptd.stop();
    throw e;
  });
  try {
    const urls = { promptd: `${promptd.base}/mcp`, sdk: sdk.url };
    const pids = { promptd: promptd.pid, sdk: sdk.proc.pid };
    const a = await sample(urls.promptd, promptName(7));
    const b = await sample(urls.sdk, promptName(7));
    const sameAnswer = isDeepStrictEqual(a, b);
    if (!sameAnswer) opts.log(`  note: answers differ\n    promptd: ${JSON.stringify(a)}\n    sdk:     ${JSON.stringify(b)}`);
    const runs: Record<'promptd' | 'sdk', Run[]> = { promptd: [], sdk: [] };
    for (let r = 0; r < rounds; r++) {
      for (const k of ['promptd', 'sdk'] as const) {
        const run = await load(urls[k], pids[k], { sessions, warmupMs, measureMs, prompts }, dir, `${k}-${r}`);
        runs[k].push(run);
        opts.log(`  round ${r + 1} ${k.padEnd(7)} ${(run.requests / run.seconds).toFixed(0)} req/s, server CPU ${((1000 * run.cpuMs) / run.total).toFixed(0)} µs/request (${run.errors} errors)`);
      }
    }
    const p = side(runs.promptd);
    const s = side(runs.sdk);
    return {
      prompts,
      sessions,
      secondsPerRun: measureMs / 1000,
      sameAnswer,
      promptd: p,
      sdk: s,
      ratio: p.rps / s.rps,
      roundRatios: p.runs.map((v, i) => v / s.runs[i]!),
      cpuRatio: s.cpuUs / p.cpuUs,
    };
  } finally {
    await promptd.stop();
    await sdk.proc.stop();
  }
}
