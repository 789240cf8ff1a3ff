// Where one version write goes (issue 21): `startServer` from dist/ in this process,
// POST /admin/v1/prompts/{name}/versions over loopback HTTP, and for the measured
// writes (after a warm-up): SQL statements per write (better-sqlite3 prepare / pg
// Client.query counted here, in bench code only), CPU per write, and the CPU profile's
// self time grouped by layer. One write's statements are printed in order.
//
//   npx tsx bench/writes-profile.ts [sqlite|pg] [writes=300] [writers=1]
// WPROF_ROOT=<another checkout, built> runs that checkout's dist/ instead (an A/B in one run).
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, tempDir, ADMIN_TOKEN } from './lib/proc.js';
import { createTempPg } from './lib/pg.js';
import { versionBody } from './lib/prompts-api.js';

const kind = process.argv[2] ?? 'sqlite';
const writes = Number(process.argv[3] ?? 300);
const writers = Number(process.argv[4] ?? 1);

// Statement counting, patched into the drivers the adapters use.
let counting = false;
let trace: string[] | null = null;
let statements = 0;
let polls = 0;
const note = (sql: unknown) => {
  if (!counting) return;
  // The change marker's poll runs on a timer, not per write.
  if (String(sql).startsWith('PRAGMA data_version')) return void polls++;
  statements++;
  if (trace) trace.push(String(typeof sql === 'object' && sql ? ((sql as { text?: string }).text ?? '') : sql).replace(/\s+/g, ' ').slice(0, 160));
};
const require = createRequire(path.join(ROOT, 'package.json'));
// Executions, not prepares: promptd keeps compiled SQLite statements (src/db/sqlite-statement-cache.ts).
type Runs = Record<'run' | 'all' | 'get', (this: { source: string }, ...a: unknown[]) => unknown>;
const Sqlite = require('better-sqlite3') as new (f: string) => { prepare(sql: string): object; close(): void };
const probe = new Sqlite(':memory:');
const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Runs;
probe.close();
for (const m of ['run', 'all', 'get'] as const) {
  const original = statementProto[m];
  statementProto[m] = function (this: { source: string }, ...a: unknown[]) {
    note(this.source);
    return original.apply(this, a);
  };
}
const pg = require('pg') as { Client: { prototype: { query(...a: unknown[]): unknown } } };
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: unknown, ...a: unknown[]) {
  note(a[0]);
  return query.apply(this, a);
};

const temp = kind === 'pg' ? await createTempPg() : null;
if (kind === 'pg' && !temp) throw new Error('no PostgreSQL');
const databaseUrl = temp?.url ?? `file:${path.join(tempDir('promptd-wprof-'), 'w.db')}`;
const dist = path.join(process.env.WPROF_ROOT ?? ROOT, 'dist');
const { startServer } = (await import(pathToFileURL(path.join(dist, 'server.js')).href)) as typeof import('../src/server.js');
const { createLogger } = (await import(pathToFileURL(path.join(dist, 'logger.js')).href)) as typeof import('../src/logger.js');
const server = await startServer({ databaseUrl, adminToken: ADMIN_TOKEN, port: 0, seed: false, logger: createLogger('warn') });
const base = server.url.replace(/\/$/, '');
const post = async (p: string, body: unknown) => {
  const r = await fetch(`${base}/admin/v1${p}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await r.arrayBuffer();
  if (r.status !== 201) throw new Error(`${p}: ${r.status}`);
};
const names = Array.from({ length: writers }, (_, k) => `prof-${k}`);
for (const n of names) await post('/prompts', { name: n, ...versionBody(1), activate: true });
let i = 10;
const run = (per: number) => Promise.all(names.map(async (n) => { for (let k = 0; k < per; k++) await post(`/prompts/${n}/versions`, versionBody(i++)); }));
await run(Math.ceil(100 / writers)); // warm-up: JIT, Prisma's query plans

// One write, traced (post-commit work included: wait for it to settle).
counting = true;
trace = [];
await post(`/prompts/${names[0]}/versions`, versionBody(i++));
await new Promise((r) => setTimeout(r, 200));
const one = trace;
trace = null;
statements = 0;

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await run(Math.ceil(writes / writers));
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const { profile } = await session.post('Profiler.stop');
if (process.env.WPROF_SAVE) (await import("node:fs")).writeFileSync(process.env.WPROF_SAVE, JSON.stringify(profile));
counting = false;
const done = Math.ceil(writes / writers) * writers;

interface Node { id: number; callFrame: { functionName: string; url: string }; hitCount?: number }
function layer(n: Node): string {
  const { url, functionName } = n.callFrame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)' || functionName === '(program)') return functionName;
  if (url.includes('@prisma/adapter')) return 'Prisma driver adapter';
  if (url.includes('@prisma/client') || url.includes('/generated/')) return 'Prisma client (query compiler, interpreter)';
  if (url.includes('better-sqlite3')) return 'better-sqlite3 (JS side)';
  if (url.includes('node_modules/pg')) return 'pg driver';
  if (url.includes('@hono/node-server')) return '@hono/node-server';
  if (url.includes('/hono/') || url.includes('zod-openapi')) return 'Hono + zod-openapi';
  if (url.includes('/zod/')) return 'zod';
  if (url.includes('/dist/rest/') || url.includes('/dist/http/')) return 'promptd REST/HTTP';
  if (url.includes('/dist/core/services/')) return 'promptd core services';
  if (url.includes('/dist/core/')) return 'promptd core other (catalog, feed, checks)';
  if (url.includes('/dist/db/')) return 'promptd db (repositories)';
  if (url.includes('/dist/mcp/')) return 'promptd MCP (notifier)';
  if (url.includes('/dist/')) return 'promptd other';
  if (url.includes('node_modules')) return `pkg ${url.split('node_modules/').at(-1)!.split('/')[0]}`;
  if (url.startsWith('node:internal/http') || url.startsWith('node:_http') || url.startsWith('node:http')) return 'node:http';
  if (url.startsWith('node:internal/deps/undici') || url.includes('undici')) return 'undici (bench client fetch)';
  if (url.startsWith('node:')) return `node ${url.replace('node:internal/', '').split('/')[0]}`;
  if (url === '') return `native (${functionName || 'anonymous'})`;
  return 'other';
}
const p = profile as unknown as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
p.samples.forEach((id, k) => {
  const l = layer(byId.get(id)!);
  self.set(l, (self.get(l) ?? 0) + (p.timeDeltas[k] ?? 0) / 1000);
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fnSelf = new Map<string, number>();
p.samples.forEach((id, k) => {
  const n = byId.get(id)!;
  const f = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}`;
  fnSelf.set(f, (fnSelf.get(f) ?? 0) + (p.timeDeltas[k] ?? 0) / 1000);
});

console.log(`\n${kind}, ${writers} writer(s), ${done} writes: ${((done / wall) * 1000).toFixed(0)} writes/s in this process (client included)`);
console.log(`statements per write (post-commit work included): ${(statements / done).toFixed(1)} (+ ${polls} change-marker polls in ${(wall / 1000).toFixed(1)} s)`);
console.log(`CPU per write (server + bench client, one process): ${((cpu.user + cpu.system) / 1000 / done).toFixed(2)} ms (user ${(cpu.user / 1000 / done).toFixed(2)}, system ${(cpu.system / 1000 / done).toFixed(2)})`);
console.log(`RESULT ${JSON.stringify({ root: process.env.WPROF_ROOT ?? 'this', kind, writers, writesPerSecond: Math.round((done / wall) * 1000), statementsPerWrite: +(statements / done).toFixed(1), cpuMsPerWrite: +((cpu.user + cpu.system) / 1000 / done).toFixed(2) })}`);
console.log(`\nprofile self time per write by layer (ms; idle = waiting):`);
for (const [l, ms] of [...self].sort((a, b) => b[1] - a[1])) if (ms / total > 0.005) console.log(`  ${(ms / done).toFixed(3).padStart(7)}  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${l}`);
console.log(`\ntop functions (self ms per write):`);
for (const [f, ms] of [...fnSelf].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(ms / done).toFixed(3).padStart(7)}  ${f}`);
console.log(`\none traced write, ${one.length} statements:`);
for (const s of one) console.log(`  ${s}`);
await server.close();
await temp?.drop();
