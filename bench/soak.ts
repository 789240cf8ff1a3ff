// Soak: ≥ 10,000 random and hostile requests (the fuzz generators of test/fuzz)
// against a real `promptd serve` child process listening on 127.0.0.1, half to the
// admin REST API and half to /mcp, then a report: requests sent, 5xx, invariant
// violations, crashes, and whether the data written before the run is intact.
//
//   npm run build:server && npx tsx bench/soak.ts [--cases 12000] [--concurrency 16] [--seed 42] [--database-url URL]
//
// Exit code 0 when there were no 5xx, no violations and no crash.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { publicRequest, restCase, type RestCase } from '../test/fuzz/arbitraries.js';
import { mcpRequest } from '../test/fuzz/mcp-arbitraries.js';
import { checkMcpResponse, checkRestResponse, type McpStats } from '../test/fuzz/invariants.js';
import { seedSentinels, snapshotSentinels, touchesSentinel } from '../test/fuzz/sentinels.js';
import { startServe } from '../test/helpers/spawn.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const CASES = Number(arg('cases', '12000'));
const CONCURRENCY = Number(arg('concurrency', '16'));
const SEED = Number(arg('seed', String(Date.now() % 2 ** 31)));
const DB = arg('database-url', `file:${path.join(mkdtempSync(path.join(os.tmpdir(), 'promptd-soak-')), 'soak.db')}`);
const TOKEN = 'soak-admin-token';
const SESSIONS = 8;

const t0 = performance.now();
const srv = await startServe({ DATABASE_URL: DB, PROMPTD_ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'error' });
let crashed: string | null = null;
let stopping = false;
void srv.exited.then((code) => {
  if (!stopping) crashed ??= `server exited with code ${code}`;
});
const rss = () => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${srv.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};

const api = (method: string, p: string, body?: unknown) =>
  fetch(`${srv.base}/admin/v1${p}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
const sentinels = await seedSentinels(api);
const before = await snapshotSentinels(api, sentinels);

const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
async function initialize(): Promise<string> {
  const res = await fetch(`${srv.base}/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'soak', version: '1' } } }) });
  await res.text();
  const sid = res.headers.get('mcp-session-id')!;
  await (await fetch(`${srv.base}/mcp`, { method: 'POST', headers: { ...mcpHeaders, 'mcp-session-id': sid }, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();
  return sid;
}
const sessions = await Promise.all(Array.from({ length: SESSIONS }, initialize));

const stats = { sent: 0, rest: 0, mcp: 0, open: 0, byClass: {} as Record<string, number>, fiveXX: 0, violations: [] as string[], connectionErrors: 0, timeouts: 0, strayDeleted: 0 };
const mcpStats: McpStats = { sdkInvalidParams: 0 };
const note = (status: number) => {
  const k = `${Math.floor(status / 100)}xx`;
  stats.byClass[k] = (stats.byClass[k] ?? 0) + 1;
  if (status >= 500) stats.fiveXX++;
};
const violation = (what: string) => {
  if (stats.violations.length < 20) stats.violations.push(what.slice(0, 400));
  else stats.violations.length++;
};

async function sendRest(c: RestCase) {
  const res = await fetch(`${srv.base}/admin/v1${c.path}`, { method: c.method, headers: { authorization: `Bearer ${TOKEN}`, ...c.headers }, ...(c.body !== undefined ? { body: c.body } : {}), signal: AbortSignal.timeout(30_000) });
  note(res.status);
  const problem = await checkRestResponse(res, c.method);
  if (problem) violation(`REST ${c.method} ${c.path.slice(0, 120)}: ${problem}`);
}

async function sendMcp(c: ReturnType<typeof mcpRequest> extends fc.Arbitrary<infer T> ? T : never, i: number) {
  const sid = c.session === 'real' ? sessions[i % SESSIONS]! : c.session;
  const method = c.session === 'real' && c.method !== 'POST' ? 'POST' : c.method;
  const headers: Record<string, string> = { 'content-type': c.contentType, accept: c.accept, 'mcp-protocol-version': c.protocol };
  if (sid !== undefined) headers['mcp-session-id'] = sid;
  const res = await fetch(`${srv.base}/mcp`, { method, headers, ...(method === 'GET' || method === 'OPTIONS' ? {} : { body: c.body as BodyInit }), signal: AbortSignal.timeout(30_000) });
  note(res.status);
  const created = res.headers.get('mcp-session-id');
  const problem = await checkMcpResponse(res, mcpStats);
  if (problem) violation(`MCP ${method} ${typeof c.body === 'string' ? c.body.slice(0, 120) : '<bytes>'}: ${problem}`);
  if (created && !sessions.includes(created)) {
    await (await fetch(`${srv.base}/mcp`, { method: 'DELETE', headers: { ...mcpHeaders, 'mcp-session-id': created } })).text();
    stats.strayDeleted++;
  }
}

// Cursors issued by the admin API: foreign (and so invalid) on the MCP lists.
/** Unauthenticated, anywhere (UI files, API, /mcp, health): no 5xx, nothing outside the UI directory. */
async function sendPublic(c: { url: string; method: string }) {
  const res = await fetch(`${srv.base}${c.url}`, { method: c.method, signal: AbortSignal.timeout(30_000) });
  note(res.status);
  const body = c.method === 'HEAD' ? '' : await res.text();
  if (res.status >= 500) violation(`${c.method} ${c.url}: status ${res.status} ${body.slice(0, 200)}`);
  if (/"name":\s*"promptd"|DATABASE_URL/.test(body)) violation(`${c.method} ${c.url}: served a file outside the UI directory`);
}

const issued = [(await (await api('GET', '/prompts?limit=1')).json()).nextCursor, (await (await api('GET', '/resources?limit=1')).json()).nextCursor].filter(Boolean) as string[];
const open = Math.ceil(CASES / 10);
const half = Math.ceil((CASES - open) / 2);
const restCases = fc.sample(restCase.filter((c) => !touchesSentinel(c.path, sentinels)), { numRuns: half, seed: SEED });
const mcpCases = fc.sample(mcpRequest(issued), { numRuns: CASES - open - half, seed: SEED + 1 });
const openCases = fc.sample(publicRequest, { numRuns: open, seed: SEED + 2 });
const jobs: (() => Promise<void>)[] = [];
for (let i = 0; i < Math.max(restCases.length, mcpCases.length); i++) {
  if (restCases[i]) jobs.push(() => (stats.rest++, sendRest(restCases[i]!)));
  if (mcpCases[i]) jobs.push(() => (stats.mcp++, sendMcp(mcpCases[i]!, i)));
  if (openCases[i]) jobs.push(() => (stats.open++, sendPublic(openCases[i]!)));
}

const rssBefore = rss();
const tRun = performance.now();
let next = 0;
let lastReport = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < jobs.length && !crashed) {
      const job = jobs[next++]!;
      stats.sent++;
      try {
        await job();
      } catch (e) {
        const name = (e as Error).name;
        if (name === 'TimeoutError') {
          stats.timeouts++;
          violation(`timeout: ${String(e)}`);
        } else stats.connectionErrors++;
      }
      if (performance.now() - lastReport > 5_000) {
        lastReport = performance.now();
        process.stderr.write(`  ${stats.sent}/${jobs.length} sent, 5xx ${stats.fiveXX}, violations ${stats.violations.length}\n`);
      }
    }
  }),
);
const runSeconds = (performance.now() - tRun) / 1000;

// After the storm: still alive, still serving, data intact.
let alive = false;
let intact = false;
try {
  alive = (await fetch(`${srv.base}/readyz`)).ok;
  intact = JSON.stringify(await snapshotSentinels(api, sentinels)) === JSON.stringify(before);
} catch (e) {
  crashed ??= `server unreachable after the run: ${String(e)}`;
}
const rssAfter = rss();
stopping = true;
await srv.stop();

const ok = stats.fiveXX === 0 && stats.violations.length === 0 && !crashed && alive && intact;
const lines = [
  'promptd soak report',
  `  server            promptd serve (child process) on ${srv.base}, ${DB.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}`,
  `  seed              ${SEED} (replay: npx tsx bench/soak.ts --seed ${SEED} --cases ${CASES})`,
  `  requests sent     ${stats.sent} (admin REST ${stats.rest}, MCP ${stats.mcp}, unauthenticated anywhere ${stats.open}) in ${runSeconds.toFixed(1)} s, concurrency ${CONCURRENCY}`,
  `  statuses          ${Object.entries(stats.byClass).sort().map(([k, v]) => `${k} ${v}`).join(', ')}`,
  `  5xx               ${stats.fiveXX}`,
  `  violations        ${stats.violations.length} (non-problem+json errors, malformed JSON-RPC, internal errors, timeouts ${stats.timeouts})`,
  `  crashes           ${crashed ? 1 : 0}${crashed ? ` (${crashed})` : ''}`,
  `  connection errors ${stats.connectionErrors} (server closed a connection mid-request, e.g. an oversized body)`,
  `  SDK -32603 for invalid params (typescript-sdk#2284): ${mcpStats.sdkInvalidParams}; stray sessions closed: ${stats.strayDeleted}`,
  `  after the run     readyz ${alive ? 'ok' : 'FAILED'}, data written before the run ${intact ? 'intact' : 'CHANGED'}, RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB`,
  `  total time        ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  `  result            ${ok ? 'PASS' : 'FAIL'}`,
  ...stats.violations.slice(0, 20).map((v) => `    - ${v}`),
];
// What the server logged as unexpected (pino JSON on stderr): the first few distinct messages.
const logged = [...new Set(srv.stderr().split('\n').filter((l) => l.startsWith('{')).map((l) => {
  const e = JSON.parse(l) as { msg?: string; err?: { message?: string } };
  return `${e.msg ?? ''}: ${(e.err?.message ?? '').split('\n').filter(Boolean).slice(-2).join(' ')}`.slice(0, 300);
}))];
if (logged.length) lines.push(`  server errors logged (${logged.length} distinct):`, ...logged.slice(0, 5).map((m) => `    - ${m}`));
console.log(lines.join('\n'));
process.exit(ok ? 0 : 1);
