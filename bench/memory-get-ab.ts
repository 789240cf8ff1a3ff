// prompts/get over 100,000 prompts (names spread over all of them, so most miss the
// parsed-prompt cache and decode from the stored document), servers interleaved in
// 1 s slices by bench/get-load-ab.ts: this build against another build's bin/promptd.js
// and against this build with the smaller heaps (PROMPTD_HEAP=small / smallest, bin/promptd.js).
// Prints req/s, server CPU per request and each server's RSS after the run.
//   npx tsx bench/memory-get-ab.ts <db file (bench/lib/fixture.ts, 100k)> <other build's bin/promptd.js> [rounds=10] [sessions=16] [prompts asked for=100000]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN, BIN, freePort, rssOf, spawnTs, startServe, tempDir } from './lib/proc.js';
import { summarize } from './lib/stats.js';

const [file, otherBin, roundsArg, sessionsArg, countArg] = process.argv.slice(2) as [string, string, string?, string?, string?];
const count = Number(countArg ?? 100_000);
const rounds = Number(roundsArg ?? 10);
const sessions = Number(sessionsArg ?? 16);
const db = `file:${file}`;

async function startOther(): Promise<{ base: string; pid: number; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [otherBin, 'serve', '--port', String(port), '--host', '127.0.0.1', '--no-seed'], {
    cwd: path.dirname(path.dirname(otherBin)),
    env: { ...process.env, DATABASE_URL: db, PROMPTD_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'warn', PROMPTD_RATE_LIMITS: 'off', PROMPTD_MCP_SESSIONS_PER_CLIENT: '1000' },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 6000; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { base, pid: child.pid!, stop: () => child.kill('SIGTERM') };
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('other build did not start');
}

const other = await startOther();
const cur = await startServe(db, { readyTimeoutMs: 600_000 });
const defYoung = await startServe(db, { readyTimeoutMs: 600_000, env: { PROMPTD_HEAP: 'small' } });
const small = await startServe(db, { readyTimeoutMs: 600_000, env: { PROMPTD_HEAP: 'smallest' } });
const rows: [string, string, number][] = [
  [`other build (${otherBin})`, `${other.base}/mcp`, other.pid],
  [`this build (${BIN})`, `${cur.base}/mcp`, cur.pid],
  ['this build, PROMPTD_HEAP=small', `${defYoung.base}/mcp`, defYoung.pid],
  ['this build, PROMPTD_HEAP=smallest', `${small.base}/mcp`, small.pid],
];
const out = path.join(tempDir(), 'out.json');
const c = spawnTs('get-load-ab.ts', [out, String(sessions), '1000', String(rounds), '2', String(count), ...rows.flatMap(([, u, p]) => [u, String(p)])]);
const code = await c.exited;
const rss = rows.map(([, , pid]) => rssOf(pid));
other.stop();
await cur.stop();
await defYoung.stop();
await small.stop();
if (code !== 0) throw new Error(c.stderr());
const r = JSON.parse(readFileSync(out, 'utf8')) as { sides: { requests: number; seconds: number; cpuMs: number; errors: number; latencies: number[] }[][] };
console.log(`| server | req/s | p50 | p99 | server CPU per request | errors | RSS after (peak) |\n|---|---|---|---|---|---|---|`);
r.sides.forEach((slices, i) => {
  const req = slices.reduce((a, s) => a + s.requests, 0);
  const sec = slices.reduce((a, s) => a + s.seconds, 0);
  const cpu = slices.reduce((a, s) => a + s.cpuMs, 0);
  const lat = summarize(slices.flatMap((s) => s.latencies));
  console.log(
    `| ${rows[i]![0]} | ${(req / sec).toFixed(0)} | ${lat.p50.toFixed(1)} ms | ${lat.p99.toFixed(1)} ms | ${((1000 * cpu) / req).toFixed(0)} µs | ${slices.reduce((a, s) => a + s.errors, 0)} | ${rss[i]!.rss.toFixed(0)} (${rss[i]!.peak.toFixed(0)}) MiB |`,
  );
});
process.exit(0);
