// What holds the memory of `promptd serve` with N prompts (issue 21.3): the footprint
// walk of bench/footprint.ts (start, every prompts/list page, 1,000 prompts/get), then
// /__bench/stats (PROMPTD_BENCH_STATS=1: full GC, memory) and, with --snapshot, a heap
// snapshot whose path is printed. `npx tsx bench/footprint-heap.ts [n] [--snapshot]
// [--db file] [--node-arg=X]... [--env=K=V]...` after `npm run build:server`. Prints RSS, the V8 heap,
// external memory, and RSS split into anonymous memory and mapped files (/proc smaps).
// `--db file`: an already populated database (bench/lib/fixture.ts) instead of a new one.
import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { ARG, ARG_VALUE, populate, promptName } from './lib/fixture.js';
import { RawSession } from './lib/mcp-raw.js';
import { removeTempDirs, rssOf, startServe, tempDir } from './lib/proc.js';

const N = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100_000);
const snapshot = process.argv.includes('--snapshot');
const dbArg = process.argv[process.argv.indexOf('--db') + 1];
const nodeArgs = process.argv.filter((a) => a.startsWith('--node-arg=')).map((a) => a.slice('--node-arg='.length));
const extraEnv = Object.fromEntries(process.argv.filter((a) => a.startsWith('--env=')).map((a) => a.slice('--env='.length).split('=') as [string, string]));
const MiB = (b: number) => (b / 1024 / 1024).toFixed(1);
/** RSS split by kind of mapping: anonymous (heap, malloc, wasm code) vs file-backed (node, .so, .wasm files). */
function smaps(pid: number) {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? NaN) / 1024;
  return `anon ${kb('Anonymous').toFixed(1)}, file ${(kb('Rss') - kb('Anonymous')).toFixed(1)}`;
}
/** The largest resident mappings (--maps): which of V8's heap, malloc's arenas, WebAssembly code hold the anonymous RSS. */
function topMaps(pid: number): string {
  const out: [number, string][] = [];
  let head = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) head = line;
    else if (line.startsWith('Rss:')) out.push([Number(/(\d+)/.exec(line)![1]) / 1024, head]);
  }
  return out
    .sort((a, b) => b[0] - a[0])
    .slice(0, 25)
    .map(([mb, h]) => `${mb.toFixed(1)} MiB ${h}`)
    .join('\n');
}
let dbUrl: string;
if (process.argv.includes('--db') && dbArg) {
  if (!existsSync(dbArg)) await populate(`file:${dbArg}`, N);
  dbUrl = `file:${dbArg}`;
} else {
  dbUrl = `file:${path.join(tempDir(), 'footprint.db')}`;
  await populate(dbUrl, N);
}
// A long wait for /readyz: on a loaded shared machine the 100k catalog load has taken over 2 min.
const s = await startServe(dbUrl, { env: { PROMPTD_BENCH_STATS: '1', ...extraEnv }, readyTimeoutMs: 600_000, nodeArgs });
const ready = rssOf(s.pid).rss;
const readySmaps = smaps(s.pid);
const session = new RawSession(new URL(`${s.base}/mcp`));
await session.open();
let cursor: string | undefined;
do {
  const r = (await session.request('prompts/list', cursor ? { cursor } : {})).result as { nextCursor?: string };
  cursor = r.nextCursor;
} while (cursor);
for (let k = 0; k < 1000; k++) await session.request('prompts/get', { name: promptName((k * 97) % Math.max(N, 1)), arguments: { [ARG]: ARG_VALUE } });
await session.close();
const serving = rssOf(s.pid);
const servingSmaps = smaps(s.pid);
if (process.argv.includes('--maps')) console.log(topMaps(s.pid));
const st = (await (await fetch(`${s.base}/__bench/stats${snapshot ? '?snapshot=1' : ''}`, { method: 'POST' })).json()) as Record<string, number | string> & { spaces?: Record<string, { size: number; used: number }> };
const spaces = Object.entries(st.spaces ?? {})
  .filter(([, x]) => x.size > 512 * 1024)
  .map(([k, x]) => `${k} ${MiB(x.used)}/${MiB(x.size)}`)
  .join(', ');
const afterGc = rssOf(s.pid).rss;
const afterSmaps = smaps(s.pid);
await s.stop();
removeTempDirs();
console.log(
  `${N} prompts: RSS ready ${ready.toFixed(1)} MiB (${readySmaps}), serving ${serving.rss.toFixed(1)} MiB (${servingSmaps}; peak ${serving.peak.toFixed(1)}), after a full GC ${afterGc.toFixed(1)} MiB (${afterSmaps}); heap used ${MiB(Number(st.heapUsed))} of ${MiB(Number(st.heapTotal))} MiB, external ${MiB(Number(st.external))} MiB (array buffers ${MiB(Number(st.arrayBuffers))}); V8 spaces used/committed after GC: ${spaces}${st.snapshot ? `; snapshot ${st.snapshot}` : ''}`,
);
process.exit(0);
