// prompts/get CPU per request and RSS for variants of one build (node flags, env),
// interleaved in 1 s slices by bench/get-load-ab.ts, with an optional other build as
// the base. Each variant is `label:--node-flag,...;K=V,...` (either part may be empty).
//   npx tsx bench/variants-get-ab.ts <db file, 100k> [--other=<other build's bin/promptd.js>] [--rounds=12] [--sessions=16] [--count=100000] 'default:' 'semi4:--max-semi-space-size=4' ...
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN, freePort, rssOf, spawnTs, startServe, tempDir } from './lib/proc.js';
import { summarize } from './lib/stats.js';

const args = process.argv.slice(2);
const opt = (k: string, d: string) => args.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3) ?? d;
const file = args[0]!;
const db = `file:${file}`;
const rounds = Number(opt('rounds', '12'));
const sessions = Number(opt('sessions', '16'));
const count = Number(opt('count', '100000'));
const otherBin = opt('other', '');
const variants = args.slice(1).filter((a) => !a.startsWith('--')).map((v) => {
  const [label, spec = ''] = v.split(/:(.*)/s) as [string, string?];
  const [flags = '', env = ''] = spec.split(';');
  return { label, nodeArgs: flags ? flags.split(',') : [], env: Object.fromEntries(env ? env.split(',').map((kv) => kv.split('=') as [string, string]) : []) };
});

async function startOther(bin: string): Promise<{ base: string; pid: number; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'serve', '--port', String(port), '--host', '127.0.0.1', '--no-seed'], {
    cwd: path.dirname(path.dirname(bin)),
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

const rows: { label: string; url: string; pid: number; stop(): unknown }[] = [];
if (otherBin) {
  const o = await startOther(otherBin);
  rows.push({ label: `other build (${otherBin})`, url: `${o.base}/mcp`, pid: o.pid, stop: o.stop });
}
for (const v of variants) {
  const s = await startServe(db, { readyTimeoutMs: 600_000, nodeArgs: v.nodeArgs, env: v.env });
  rows.push({ label: v.label, url: `${s.base}/mcp`, pid: s.pid, stop: () => s.stop() });
}
const out = path.join(tempDir(), 'out.json');
const c = spawnTs('get-load-ab.ts', [out, String(sessions), '1000', String(rounds), '2', String(count), ...rows.flatMap((r) => [r.url, String(r.pid)])]);
const code = await c.exited;
const rss = rows.map((r) => rssOf(r.pid));
for (const r of rows) await r.stop();
if (code !== 0) throw new Error(c.stderr());
const r = JSON.parse(readFileSync(out, 'utf8')) as { sides: { requests: number; seconds: number; cpuMs: number; errors: number; latencies: number[] }[][] };
console.log(`| server | req/s | p50 | p99 | server CPU per request | errors | RSS after (peak) |\n|---|---|---|---|---|---|---|`);
r.sides.forEach((slices, i) => {
  const req = slices.reduce((a, s) => a + s.requests, 0);
  const sec = slices.reduce((a, s) => a + s.seconds, 0);
  const cpu = slices.reduce((a, s) => a + s.cpuMs, 0);
  const lat = summarize(slices.flatMap((s) => s.latencies));
  console.log(
    `| ${rows[i]!.label} | ${(req / sec).toFixed(0)} | ${lat.p50.toFixed(1)} ms | ${lat.p99.toFixed(1)} ms | ${((1000 * cpu) / req).toFixed(0)} µs | ${slices.reduce((a, s) => a + s.errors, 0)} | ${rss[i]!.rss.toFixed(0)} (${rss[i]!.peak.toFixed(0)}) MiB |`,
  );
});
process.exit(0);
