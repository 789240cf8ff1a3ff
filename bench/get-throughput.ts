// 1. prompts/get over Streamable HTTP: promptd (SQLite, `promptd serve` child) vs the
// SDK's in-memory McpServer in its best configuration (JSON responses) and in its
// default one (SSE), with a bare node:http server answering the same bytes as the
// ceiling; 32 sessions per server from one load-generator child that gives each
// server 1 s slices in rotating order (bench/get-load-ab.ts). The figures that
// matter are the throughput ratios.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { populate, ARG, ARG_VALUE, promptName } from './lib/fixture.js';
import { RawSession } from './lib/mcp-raw.js';
import { spawnTs, startServe, tempDir, type Child } from './lib/proc.js';
import { summarize, type Summary } from './lib/stats.js';
import { midMedian as median, side, type SideResult, type Slice } from './lib/slices.js';

export type { SideResult };

export interface GetResult {
  prompts: number;
  sessions: number;
  sliceMs: number;
  /** measured rounds (each: one slice per server) */
  pairs: number;
  warmupPairs: number;
  sameAnswer: boolean;
  promptd: SideResult;
  /** The SDK McpServer answering JSON bodies (enableJsonResponse: true): its best case, the target's baseline. */
  sdk: SideResult;
  /** The same SDK server with the transport's default, one-event SSE streams. */
  sdkSse: SideResult;
  /** A bare node:http server answering the same bytes (bench/bare-server.ts): the ceiling. */
  bare: SideResult;
  /** promptd ÷ SDK (JSON) throughput */
  ratio: number;
  ratioSse: number;
  /** promptd ÷ bare node:http */
  ratioBare: number;
  /** promptd ÷ SDK (JSON) throughput of each measured round */
  pairRatios: number[];
  medianPairRatio: number;
  /** SDK (JSON) CPU per request ÷ promptd CPU per request: > 1 when promptd needs less CPU */
  cpuRatio: number;
  /** latency at fixed offered rates (open loop, bench/get-load-ab.ts), per server */
  paced: PacedResult[];
}

export interface PacedResult {
  /** offered requests per second, over all sessions */
  rate: number;
  promptd: Summary;
  sdk: Summary;
  sdkSse: Summary;
  bare: Summary;
}

export async function startChild(script: string, args: string[]): Promise<{ url: string; proc: Child }> {
  const proc = spawnTs(script, args);
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const line = proc.stdout().split('\n').find((l) => l.startsWith('{'));
    if (line) return { url: (JSON.parse(line) as { url: string }).url, proc };
    if (proc.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await proc.stop();
  throw new Error(`${script} did not start: ${proc.stderr().slice(-2000)}`);
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
  const others: Child[] = [];
  try {
    const sdk = await startChild('sdk-server.ts', [String(prompts), 'json']);
    others.push(sdk.proc);
    const sdkSse = await startChild('sdk-server.ts', [String(prompts), 'sse']);
    others.push(sdkSse.proc);
    const bare = await startChild('bare-server.ts', [`${promptd.base}/mcp`, String(prompts)]);
    others.push(bare.proc);
    const a = await sample(`${promptd.base}/mcp`, promptName(7));
    const b = await sample(sdk.url, promptName(7));
    const sameAnswer = isDeepStrictEqual(a, b) && isDeepStrictEqual(a, await sample(sdkSse.url, promptName(7))) && isDeepStrictEqual(a, await sample(bare.url, promptName(7)));
    if (!sameAnswer) opts.log(`  note: answers differ\n    promptd: ${JSON.stringify(a)}\n    sdk:     ${JSON.stringify(b)}`);
    const out = path.join(dir, 'get-ab.json');
    const targets = [`${promptd.base}/mcp`, String(promptd.pid), sdk.url, String(sdk.proc.pid), sdkSse.url, String(sdkSse.proc.pid), bare.url, String(bare.proc.pid)];
    const c = spawnTs('get-load-ab.ts', [out, String(sessions), String(sliceMs), String(pairs), String(warmupPairs), String(prompts), ...targets]);
    const timer = setTimeout(() => void c.stop(), (pairs + warmupPairs) * 4 * sliceMs + 2 * 4 * 4 * 2 * sliceMs + 120_000);
    const code = await c.exited;
    clearTimeout(timer);
    if (code !== 0) throw new Error(`get-load-ab exited with ${code}: ${c.stderr().slice(-2000)}`);
    const r = JSON.parse(readFileSync(out, 'utf8')) as { sides: Slice[][]; paced: { rate: number; sides: number[][] }[]; firstError: string };
    if (r.firstError) opts.log(`  first error: ${r.firstError.slice(0, 300)}`);
    const [p, s, sse, bareSide] = r.sides.map(side) as [SideResult, SideResult, SideResult, SideResult];
    const pairRatios = p.runs.map((v, i) => v / s.runs[i]!);
    for (const [name, x] of [['promptd', p], ['sdk json', s], ['sdk sse', sse], ['bare http', bareSide]] as const) {
      opts.log(`  ${name.padEnd(9)} ${x.rps.toFixed(0)} req/s, p50 ${x.p50.toFixed(2)} ms, p99 ${x.p99.toFixed(2)} ms, server CPU ${x.cpuUs.toFixed(0)} µs/request (${x.errors} errors)`);
    }
    opts.log(`  promptd ÷ sdk json per round: ${pairRatios.map((x) => x.toFixed(2)).join(' ')}`);
    const paced = r.paced.map(({ rate, sides }) => {
      const [promptd, sdk, sdkSse, bare] = sides.map(summarize) as [Summary, Summary, Summary, Summary];
      opts.log(`  at ${rate} req/s offered: p99 promptd ${promptd.p99.toFixed(2)} ms, sdk json ${sdk.p99.toFixed(2)} ms, sdk sse ${sdkSse.p99.toFixed(2)} ms, bare ${bare.p99.toFixed(2)} ms`);
      return { rate, promptd, sdk, sdkSse, bare };
    });
    return {
      prompts,
      sessions,
      sliceMs,
      pairs,
      warmupPairs,
      sameAnswer,
      promptd: p,
      sdk: s,
      sdkSse: sse,
      bare: bareSide,
      ratio: p.rps / s.rps,
      ratioSse: p.rps / sse.rps,
      ratioBare: p.rps / bareSide.rps,
      pairRatios,
      medianPairRatio: median(pairRatios),
      cpuRatio: s.cpuUs / p.cpuUs,
      paced,
    };
  } finally {
    await promptd.stop();
    for (const o of others) await o.stop();
  }
}
