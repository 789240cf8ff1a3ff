// prompts/get A/B between this checkout and another built one (issue 21): both
// `promptd serve` (SQLite, usage on, the same 100 prompts) and the SDK McpServer in
// JSON mode, loaded in rotating 1 s slices by bench/get-load-ab.ts, so each side's
// throughput and server CPU per request can be compared in one run on a busy machine.
//
//   npm run build:server && npx tsx bench/get-ab.ts <other checkout, built> [rounds=12]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { populate } from './lib/fixture.js';
import { spawnTs, startServe, tempDir } from './lib/proc.js';
import { startChild } from './get-throughput.js';

const other = process.argv[2];
if (!other) throw new Error('usage: bench/get-ab.ts <other checkout> [rounds]');
const rounds = Number(process.argv[3] ?? 12);
const prompts = 100;
const sessions = 32;
const dir = tempDir('promptd-get-ab-');
const urls = ['this', 'other'].map((n) => `file:${path.join(dir, `${n}.db`)}`);
for (const u of urls) await populate(u, prompts);
const env = { PROMPTD_MCP_SESSIONS_PER_CLIENT: String(sessions * 2) };
const mine = await startServe(urls[0]!, { env });
const theirs = await startServe(urls[1]!, { env, root: path.resolve(other) });
const sdk = await startChild('sdk-server.ts', [String(prompts), 'json']);
try {
  const out = path.join(dir, 'ab.json');
  const c = spawnTs('get-load-ab.ts', [out, String(sessions), '1000', String(rounds), '2', String(prompts), `${mine.base}/mcp`, String(mine.pid), `${theirs.base}/mcp`, String(theirs.pid), sdk.url, String(sdk.proc.child.pid)]);
  if ((await c.exited) !== 0) throw new Error(c.stderr().slice(-2000));
  const r = JSON.parse(readFileSync(out, 'utf8')) as { sides: { requests: number; seconds: number; cpuMs: number; errors: number }[][] };
  const side = (k: number) => {
    const s = r.sides[k]!;
    const requests = s.reduce((a, x) => a + x.requests, 0);
    return { rps: requests / s.reduce((a, x) => a + x.seconds, 0), cpuUs: (1000 * s.reduce((a, x) => a + x.cpuMs, 0)) / requests, errors: s.reduce((a, x) => a + x.errors, 0) };
  };
  const [a, b, s] = [side(0), side(1), side(2)];
  const line = (n: string, x: typeof a) => `${n.padEnd(14)} ${x.rps.toFixed(0).padStart(6)} req/s  ${x.cpuUs.toFixed(1).padStart(6)} µs CPU/request  ${x.errors} errors`;
  console.log([line('this', a), line('other', b), line('SDK JSON', s)].join('\n'));
  console.log(`this ÷ SDK ${(a.rps / s.rps).toFixed(2)}× (CPU ${(s.cpuUs / a.cpuUs).toFixed(2)}×); other ÷ SDK ${(b.rps / s.rps).toFixed(2)}× (CPU ${(s.cpuUs / b.cpuUs).toFixed(2)}×); this ÷ other ${(a.rps / b.rps).toFixed(2)}× (CPU ${(b.cpuUs / a.cpuUs).toFixed(2)}×)`);
} finally {
  await Promise.all([mine.stop(), theirs.stop(), sdk.proc.stop()]);
}
