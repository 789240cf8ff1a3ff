// Where the RSS of `promptd serve` with N prompts is, by kind of mapping, at /readyz and
// after the footprint walk (every prompts/list page, 1,000 prompts/get; the walk of
// bench/footprint-heap.ts), for this build and others alternated (A/B in one run).
// `npx tsx bench/footprint-maps.ts [n] --db file [--rounds=3] [--other=/path/to/checkout]...`
// after `npm run build:server` in each checkout. Kinds (from /proc/PID/smaps):
// file = file-backed (node, .so); docs = the largest anonymous mapping (the served
// documents' WebAssembly.Memory, catalog-docs.ts); brk = malloc's main arena ([heap]);
// arenas = malloc's thread arenas (64 MiB-aligned heaps of V8's worker threads);
// rwx = JIT and wasm code; other = the rest (V8's heap pages, wasm memories, stacks).
import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { ARG, ARG_VALUE, populate, promptName } from './lib/fixture.js';
import { RawSession } from './lib/mcp-raw.js';
import { ROOT, cpuMsOf, rssOf, startServe } from './lib/proc.js';

const N = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100_000);
const db = process.argv[process.argv.indexOf('--db') + 1]!;
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 3);
const roots = [ROOT, ...process.argv.filter((a) => a.startsWith('--other=')).map((a) => path.resolve(a.slice(8)))];
if (!existsSync(db)) await populate(`file:${db}`, N);

type Kinds = Record<'rss' | 'file' | 'docs' | 'brk' | 'arenas' | 'rwx' | 'other', number>;
function kinds(pid: number): Kinds {
  const k: Kinds = { rss: 0, file: 0, docs: 0, brk: 0, arenas: 0, rwx: 0, other: 0 };
  const maps: { head: string; rss: number }[] = [];
  let head = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) head = line;
    else if (line.startsWith('Rss:')) maps.push({ head, rss: Number(/(\d+)/.exec(line)![1]) / 1024 });
  }
  const anon = maps.filter((m) => / 0 +$|\[heap\]|\[stack\]| 0$/.test(m.head) || m.head.trim().split(/\s+/).length === 5);
  const biggest = Math.max(...anon.map((m) => m.rss));
  for (const m of maps) {
    k.rss += m.rss;
    const [range, perms] = m.head.split(/\s+/) as [string, string];
    const start = BigInt(`0x${range.split('-')[0]}`);
    const size = BigInt(`0x${range.split('-')[1]}`) - start;
    const isAnon = anon.includes(m);
    if (!isAnon) k.file += m.rss;
    else if (m.rss === biggest) k.docs += m.rss;
    else if (m.head.includes('[heap]')) k.brk += m.rss;
    else if (perms.includes('x')) k.rwx += m.rss;
    else if (start % (64n << 20n) === 0n && size <= 64n << 20n && perms === 'rw-p') k.arenas += m.rss;
    else k.other += m.rss;
  }
  return k;
}
const fmt = (k: Kinds) => Object.entries(k).map(([n, v]) => `${n} ${v.toFixed(1)}`).join(', ');

const results = new Map<string, { ready: Kinds[]; serving: Kinds[]; listCpu: number[] }>(roots.map((r) => [r, { ready: [], serving: [], listCpu: [] }]));
for (let round = 0; round < rounds; round++) {
  for (const root of round % 2 ? [...roots].reverse() : roots) {
    const s = await startServe(`file:${db}`, { root, readyTimeoutMs: 600_000 });
    const ready = kinds(s.pid);
    const session = new RawSession(new URL(`${s.base}/mcp`));
    await session.open();
    let cursor: string | undefined;
    let pages = 0;
    const cpu0 = cpuMsOf(s.pid);
    do {
      pages++;
      const r = (await session.request('prompts/list', cursor ? { cursor } : {})).result as { nextCursor?: string };
      cursor = r.nextCursor;
    } while (cursor);
    const listCpuUs = ((cpuMsOf(s.pid) - cpu0) * 1000) / pages;
    for (let k = 0; k < 1000; k++) await session.request('prompts/get', { name: promptName((k * 97) % Math.max(N, 1)), arguments: { [ARG]: ARG_VALUE } });
    await session.close();
    const serving = kinds(s.pid);
    const status = rssOf(s.pid);
    await s.stop();
    results.get(root)!.ready.push(ready);
    results.get(root)!.serving.push(serving);
    results.get(root)!.listCpu.push(listCpuUs);
    console.log(`${new Date().toISOString().slice(11, 19)} load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]} ${root}\n  ready:   ${fmt(ready)}\n  serving: ${fmt(serving)} (VmRSS ${status.rss.toFixed(1)}); server CPU per prompts/list page ${listCpuUs.toFixed(0)} µs`);
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [root, r] of results) {
  const line = (ks: Kinds[]) => (Object.keys(ks[0]!) as (keyof Kinds)[]).map((n) => `${n} ${med(ks.map((k) => k[n])).toFixed(1)}`).join(', ');
  const rss = r.serving.map((k) => k.rss);
  console.log(`${root}: medians\n  ready:   ${line(r.ready)}\n  serving: ${line(r.serving)} (serving RSS ${Math.min(...rss).toFixed(1)}–${Math.max(...rss).toFixed(1)}); CPU per list page ${med(r.listCpu).toFixed(0)} µs`);
}
process.exit(0);
