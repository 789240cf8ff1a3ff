// 1. prompts/get over Streamable HTTP: promptd (SQLite, `promptd serve` child) vs the
// SDK's in-memory McpServer (child), 32 sessions per server from one load-generator
// child that alternates 1 s slices A/B, B/A, … (bench/get-load-ab.ts). The figure
// that matters is the throughput ratio.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { populate, ARG, ARG_VALUE, promptName } from './lib/fixture.js';
import { RawSession } from './lib/mcp-raw.js';
import { spawnTs, startServe, tempDir, type Child } from './lib/proc.js';
import { summarize, type Summary } from './lib/stats.js';

export interface SideResult extends Summary {
  rps: number;
  /** server CPU time (user + system) per answered request, in µs */
  cpuUs: number;
  errors: number;
  /** req/s of each measured slice */
  runs: number[];
}

export interface GetResult {
  prompts: number;
  sessions: number;
  sliceMs: number;
  pairs: number;
  warmupPairs: number;
  sameAnswer: boolean;
  promptd: SideResult;
  sdk: SideResult;
  ratio: number;
  /** promptd ÷ SDK throughput of each measured pair of slices */
  pairRatios: number[];
  medianPairRatio: number;
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

interface Slice {
  requests: number;
  errors: number;
  seconds: number;
  cpuMs: number;
  latencies: number[];
}

function side(slices: Slice[]): SideResult {
  const requests = slices.reduce((a, r) => a + r.requests, 0);
  const seconds = slices.reduce((a, r) => a + r.seconds, 0);
  return {
    ...summarize(slices.flatMap((r) => r.latencies)),
    rps: requests / seconds,
    cpuUs: (1000 * slices.reduce((a, r) => a + r.cpuMs, 0)) / requests,
    errors: slices.reduce((a, r) => a + r.errors, 0),
    runs: slices.map((r) => r.requests / r.seconds),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function runGetThroughput(opts: { quick: boolean; log: (s: string) => void }): Promise<GetResult> {
  const prompts = 100;
  const sessions = 32;
  const sliceMs = 1_000;
  const pairs = opts.quick ? 4 : 12;
  const warmupPairs = 2;
  const dir = tempDir();
  const dbUrl = `file:${path.join(dir, 'get.db')}`;
  await populate(dbUrl, prompts);
  const promptd = await startServe(dbUrl);
  const sdk = await startSdk(prompts).catch(async (e) => {
    await promptd.stop();
    throw e;
  });
  try {
    const a = await sample(`${promptd.base}/mcp`, promptName(7));
    const b = await sample(sdk.url, promptName(7));
    const sameAnswer = isDeepStrictEqual(a, b);
    if (!sameAnswer) opts.log(`  note: answers differ\n    promptd: ${JSON.stringify(a)}\n    sdk:     ${JSON.stringify(b)}`);
    const out = path.join(dir, 'get-ab.json');
    const c = spawnTs('get-load-ab.ts', [out, String(sessions), String(sliceMs), String(pairs), String(warmupPairs), String(prompts), `${promptd.base}/mcp`, String(promptd.pid), sdk.url, String(sdk.proc.pid)]);
    const timer = setTimeout(() => void c.stop(), (pairs + warmupPairs) * 2 * sliceMs + 120_000);
    const code = await c.exited;
    clearTimeout(timer);
    if (code !== 0) throw new Error(`get-load-ab exited with ${code}: ${c.stderr().slice(-2000)}`);
    const r = JSON.parse(readFileSync(out, 'utf8')) as { a: Slice[]; b: Slice[]; firstError: string };
    if (r.firstError) opts.log(`  first error: ${r.firstError.slice(0, 300)}`);
    const p = side(r.a);
    const s = side(r.b);
    const pairRatios = p.runs.map((v, i) => v / s.runs[i]!);
    opts.log(`  promptd ${p.rps.toFixed(0)} req/s, server CPU ${p.cpuUs.toFixed(0)} µs/request (${p.errors} errors)`);
    opts.log(`  sdk     ${s.rps.toFixed(0)} req/s, server CPU ${s.cpuUs.toFixed(0)} µs/request (${s.errors} errors)`);
    opts.log(`  per-pair ratios: ${pairRatios.map((x) => x.toFixed(2)).join(' ')}`);
    return {
      prompts,
      sessions,
      sliceMs,
      pairs,
      warmupPairs,
      sameAnswer,
      promptd: p,
      sdk: s,
      ratio: p.rps / s.rps,
      pairRatios,
      medianPairRatio: median(pairRatios),
      cpuRatio: s.cpuUs / p.cpuUs,
    };
  } finally {
    await promptd.stop();
    await sdk.proc.stop();
  }
}
