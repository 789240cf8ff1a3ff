// What each layer of promptd's prompts/get path costs (issue 21), by ablation: the
// same load (bench/get-load-ab.ts, rotating 1 s slices) on
//   - a bare node:http server answering the same bytes (bench/bare-server.ts),
//   - promptd serve with the fast path (default),
//   - promptd serve with the fast path and usage recording off (PROMPTD_USAGE=off),
//   - promptd serve without the fast path (PROMPTD_MCP_FAST_PATH=off: Hono, the
//     @hono/node-server bridge and the SDK transport's SSE answers),
//   - the SDK McpServer in JSON mode (bench/sdk-server.ts json),
// and the server CPU per request of each from /proc: the differences are the layers.
//
//   npx tsx bench/get-layers.ts [rounds=8] [sessions=32]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { populate } from './lib/fixture.js';
import { spawnTs, startServe, tempDir, type Child } from './lib/proc.js';
import { summarize } from './lib/stats.js';

const rounds = Number(process.argv[2] ?? 8);
const sessions = Number(process.argv[3] ?? 32);
const dir = tempDir('promptd-layers-');
const db = `file:${path.join(dir, 'get.db')}`;
await populate(db, 100);

async function child(script: string, args: string[]): Promise<{ url: string; proc: Child }> {
  const proc = spawnTs(script, args);
  for (let i = 0; i < 1200; i++) {
    const line = proc.stdout().split('\n').find((l) => l.startsWith('{'));
    if (line) return { url: (JSON.parse(line) as { url: string }).url, proc };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${script} did not start: ${proc.stderr()}`);
}

const fast = await startServe(db);
const noUsage = await startServe(db, { env: { PROMPTD_USAGE: 'off' } });
const slow = await startServe(db, { env: { PROMPTD_MCP_FAST_PATH: 'off' } });
const bare = await child('bare-server.ts', [`${fast.base}/mcp`, '100']);
const sdk = await child('sdk-server.ts', ['100', 'json']);
const rows: [string, string, number][] = [
  ['bare node:http, same bytes', bare.url, bare.proc.pid],
  ['promptd, fast path, usage off', `${noUsage.base}/mcp`, noUsage.pid],
  ['promptd, fast path (default)', `${fast.base}/mcp`, fast.pid],
  ['promptd, no fast path (Hono + SDK transport, SSE)', `${slow.base}/mcp`, slow.pid],
  ['SDK McpServer, JSON responses', sdk.url, sdk.proc.pid],
];
const out = path.join(dir, 'out.json');
const c = spawnTs('get-load-ab.ts', [out, String(sessions), '1000', String(rounds), '2', '100', ...rows.flatMap(([, u, p]) => [u, String(p)])]);
const code = await c.exited;
for (const s of [fast, noUsage, slow]) await s.stop();
for (const s of [bare, sdk]) await s.proc.stop();
if (code !== 0) throw new Error(c.stderr());
const r = JSON.parse(readFileSync(out, 'utf8')) as { sides: { requests: number; seconds: number; cpuMs: number; errors: number; latencies: number[] }[][] };
console.log(`| server | req/s | p50 | p99 | server CPU per request | errors |\n|---|---|---|---|---|---|`);
r.sides.forEach((slices, i) => {
  const req = slices.reduce((a, s) => a + s.requests, 0);
  const sec = slices.reduce((a, s) => a + s.seconds, 0);
  const cpu = slices.reduce((a, s) => a + s.cpuMs, 0);
  const lat = summarize(slices.flatMap((s) => s.latencies));
  console.log(`| ${rows[i]![0]} | ${(req / sec).toFixed(0)} | ${lat.p50.toFixed(1)} ms | ${lat.p99.toFixed(1)} ms | ${((1000 * cpu) / req).toFixed(0)} µs | ${slices.reduce((a, s) => a + s.errors, 0)} |`);
});
