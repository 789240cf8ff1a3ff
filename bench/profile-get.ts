// Where promptd's time goes on the prompts/get hot path (issue 21): `promptd serve`
// under --cpu-prof, loaded by the section-1 load generator alone, then the profile's
// self time grouped by layer (node:http, @hono/node-server, Hono, the SDK transport,
// the SDK protocol and its zod schemas, promptd's MCP face, core, GC) and the top
// functions.
//
//   npx tsx bench/profile-get.ts [seconds=8] [sessions=32]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { populate } from './lib/fixture.js';
import { spawnTs, startServe, tempDir } from './lib/proc.js';

const seconds = Number(process.argv[2] ?? 8);
const sessions = Number(process.argv[3] ?? 32);
const dir = tempDir('promptd-prof-');
const db = `file:${path.join(dir, 'get.db')}`;
await populate(db, 100);
const profDir = path.join(dir, 'prof');
// PROF_ENV=K=V,K2=V2: environment of the profiled server (e.g. PROMPTD_USAGE=off).
const env = Object.fromEntries((process.env.PROF_ENV ?? '').split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]));
const server = await startServe(db, { env, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`] });
const c = spawnTs('get-load-ab.ts', [path.join(dir, 'out.json'), String(sessions), '1000', String(seconds), '2', '100', `${server.base}/mcp`, String(server.pid)]);
if ((await c.exited) !== 0) throw new Error(c.stderr());
const out = JSON.parse(readFileSync(path.join(dir, 'out.json'), 'utf8')) as { sides: { requests: number; seconds: number }[][]; measured: [string, string] };
const requests = out.sides[0]!.reduce((a, s) => a + s.requests, 0);
await server.stop();

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[]; positionTicks?: { line: number; ticks: number }[] }
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile written');
const prof = JSON.parse(readFileSync(path.join(profDir, file), 'utf8')) as { nodes: Node[]; startTime: number; samples: number[]; timeDeltas: number[] };
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
// Only the samples of the measured slices: start-up, loading and warm-up are left out.
const [from, to] = out.measured.map((ns) => Number(BigInt(ns) / 1000n)) as [number, number];
const self = new Map<number, number>();
let at = prof.startTime;
prof.samples.forEach((id, i) => {
  at += prof.timeDeltas[i] ?? 0;
  const d = prof.timeDeltas[i + 1] ?? 0;
  if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + d);
});

function layer(n: Node): string {
  const { url, functionName } = n.callFrame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)' || functionName === '(program)') return functionName;
  if (url.includes('@hono/node-server')) return '@hono/node-server (Request/Response bridge)';
  if (url.includes('/hono/')) return 'Hono (router, Context)';
  if (url.includes('/server/webStandardStreamableHttp')) return 'SDK Streamable HTTP transport';
  if (url.includes('@modelcontextprotocol/sdk') && url.includes('/shared/protocol')) return 'SDK protocol dispatch';
  if (url.includes('@modelcontextprotocol/sdk')) return 'SDK other (server, types)';
  if (url.includes('/zod/')) return 'zod (SDK schema validation)';
  if (url.includes('/dist/mcp/')) return 'promptd MCP face (src/mcp)';
  if (url.includes('/dist/core/')) return 'promptd core (catalog, usage)';
  if (url.includes('/dist/')) return 'promptd other';
  if (url.includes('node_modules')) return `other package ${url.split('node_modules/').at(-1)!.split('/')[0]}`;
  if (url.includes('/dist/http/') || url.includes('/dist/metrics/')) return 'promptd HTTP app (middleware, metrics)';
  if (url.startsWith('node:internal/http') || url.startsWith('node:_http') || url.startsWith('node:http')) return 'node:http';
  if (url.startsWith('node:internal/webstreams') || url.includes('undici')) return 'web streams / undici (Request, Response)';
  if (url.startsWith('node:')) return `node other (${url.replace('node:internal/', '').split('/')[0]})`;
  if (url === '') return 'native / builtins';
  return 'other';
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const busy = [...self.entries()].filter(([id]) => !['(idle)'].includes(byId.get(id)!.callFrame.functionName)).reduce((a, [, t]) => a + t, 0);
const layers = new Map<string, number>();
const fns = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id)!;
  const l = layer(n);
  layers.set(l, (layers.get(l) ?? 0) + t);
  const f = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
  fns.set(f, (fns.get(f) ?? 0) + t);
}
const us = (t: number) => (t / requests).toFixed(1);
console.log(`${requests} requests in the measured slices; profile of them ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s = ${us(busy)} µs of CPU per request`);
console.log('\nself time by layer (µs per request, share of busy time):');
for (const [l, t] of [...layers].sort((a, b) => b[1] - a[1])) if (l !== '(idle)') console.log(`  ${l.padEnd(48)} ${us(t).padStart(7)}  ${((100 * t) / busy).toFixed(1)}%`);
console.log('\ntop functions (self, µs per request):');
for (const [f, t] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(`  ${us(t).padStart(6)}  ${f}`);

// PROF_LINES=<function name>: its self samples by source line (the whole profile, warm-up included).
const linesOf = process.env.PROF_LINES;
if (linesOf) {
  const ticks = new Map<string, number>();
  for (const n of prof.nodes) {
    if (n.callFrame.functionName !== linesOf) continue;
    for (const p of n.positionTicks ?? []) {
      const k = `${n.callFrame.url.split('/').slice(-2).join('/')}:${p.line}`;
      ticks.set(k, (ticks.get(k) ?? 0) + p.ticks);
    }
  }
  console.log(`\n${linesOf}: self samples by line (dist/ line numbers)`);
  for (const [k, t] of [...ticks].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${String(t).padStart(6)}  ${k}`);
}

// PROF_TOTAL=<path part>: inclusive time (self + callees) of the functions in files whose URL contains it.
const totalOf = process.env.PROF_TOTAL;
if (totalOf) {
  const inclusive = new Map<number, number>();
  const visit = (id: number): number => {
    const n = byId.get(id)!;
    let t = self.get(id) ?? 0;
    for (const c of n.children ?? []) t += visit(c);
    inclusive.set(id, t);
    return t;
  };
  visit(prof.nodes[0]!.id);
  const byFn = new Map<string, number>();
  // Count each function once per stack: skip a node whose ancestor is the same function.
  const walk = (id: number, open: Set<string>) => {
    const n = byId.get(id)!;
    const f = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
    const mine = n.callFrame.url.includes(totalOf) && !open.has(f);
    if (mine) byFn.set(f, (byFn.get(f) ?? 0) + inclusive.get(id)!);
    const next = mine ? new Set(open).add(f) : open;
    for (const c of n.children ?? []) walk(c, next);
  };
  walk(prof.nodes[0]!.id, new Set());
  console.log(`\ninclusive time of functions in ${totalOf} (µs per request, measured slices)`);
  for (const [f, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${us(t).padStart(6)}  ${f}`);
}
