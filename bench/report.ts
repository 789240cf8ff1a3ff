// Turns the measurements into the summary of targets (console) and docs/benchmarks.md.
import type { Machine } from './lib/machine.js';
import { ms, num, ratio } from './lib/stats.js';
import type { GetResult } from './get-throughput.js';
import type { UsageOverheadResult } from './usage-overhead.js';
import { METHODS, PAGES, type Method, type PagingResult } from './paging.js';
import type { LatencyResult } from './list-changed.js';
import type { WriteResult } from './writes.js';
import { coldMedian, type FootprintResult } from './footprint.js';

export type Outcome<T> = { ok: T } | { error: string } | { skipped: string };

export interface Results {
  startedAt: string;
  quick: boolean;
  minutes: number;
  machine: Machine;
  prompts: number;
  get?: Outcome<GetResult>;
  paging?: Outcome<PagingResult>;
  latency: Partial<Record<'sameProcess' | 'crossProcess' | 'crossPg', Outcome<LatencyResult>>>;
  writes: Partial<Record<'sqlite' | 'postgresql', Outcome<WriteResult[]>>>;
  footprint?: Outcome<FootprintResult>;
  usage?: Outcome<UsageOverheadResult>;
}

export interface Target {
  what: string;
  result: string;
  target: string;
  met: boolean | null;
}

const failed = <T>(o: Outcome<T> | undefined) => (!o ? 'not run' : 'error' in o ? `failed: ${o.error}` : 'skipped' in o ? `skipped: ${o.skipped}` : '');
const val = <T>(o: Outcome<T> | undefined): T | undefined => (o && 'ok' in o ? o.ok : undefined);

export function targets(r: Results): Target[] {
  const out: Target[] = [];
  const add = (what: string, target: string, o: Outcome<unknown> | undefined, f: () => [string, boolean]) => {
    if (!val(o)) return out.push({ what, result: failed(o), target, met: !o || 'skipped' in o ? null : false });
    const [result, met] = f();
    out.push({ what, result, target, met });
  };
  add('prompts/get throughput, promptd ÷ SDK McpServer (JSON responses)', '≥ 2.50×', r.get, () => [ratio(val(r.get)!.ratio), val(r.get)!.ratio >= 2.5]);
  // The p99 bound is read at a stated offered rate below capacity (open loop); the
  // saturated closed loop's p99 (section 1's table) is sessions ÷ throughput plus queueing.
  add('prompts/get p99 at 32 connections, 1,000 req/s offered (open loop)', '≤ 5 ms', r.get, () => {
    const at = val(r.get)!.paced.find((x) => x.rate === 1_000)!;
    return [ms(at.promptd.p99), at.promptd.p99 <= 5];
  });
  add('prompts/get throughput, usage recording on ÷ off', '≥ 0.95×', r.usage, () => [ratio(val(r.usage)!.ratio), val(r.usage)!.ratio >= 0.95]);
  for (const m of ['mcp', 'rest'] as const) {
    add(`deep paging, page 1,000 ÷ page 1, ${METHODS[m]}`, '≤ 1.50×', r.paging, () => [ratio(val(r.paging)!.ratio[m]), val(r.paging)!.ratio[m] <= 1.5]);
  }
  const lat: [keyof Results['latency'], string, number][] = [
    ['sameProcess', 'list_changed p99, same process (HTTP session)', 50],
    ['crossProcess', 'list_changed p99, across processes (stdio, same SQLite file)', 300],
    ['crossPg', 'list_changed p99, across PostgreSQL instances', 300],
  ];
  for (const [k, what, limit] of lat) {
    const o = r.latency[k];
    add(what, `≤ ${limit} ms`, o, () => {
      const v = val(o)!;
      return [`${ms(v.p99)}${v.missed ? ` (${v.missed} missed)` : ''}`, v.p99 <= limit && v.missed === 0];
    });
  }
  const writesAt = (k: 'sqlite' | 'postgresql', c: number) => val(r.writes[k])?.find((w) => w.concurrency === c);
  for (const [k, c, limit, label] of [['sqlite', 1, 500, 'SQLite, 1 writer'], ['sqlite', 8, 1000, 'SQLite, 8 writers'], ['postgresql', 8, 250, 'PostgreSQL, 8 writers']] as const) {
    add(`REST version writes, ${label}`, `≥ ${num(limit)}/s`, r.writes[k], () => {
      const w = writesAt(k, c);
      return w ? [`${num(w.perSecond)}/s`, w.perSecond >= limit] : ['not run', false];
    });
  }
  add(`RSS serving ${num(r.prompts)} prompts`, '≤ 250 MiB', r.footprint, () => [`${num(val(r.footprint)!.rssServing)} MiB`, val(r.footprint)!.rssServing <= 250]);
  add('cold start to /readyz, empty database (median)', '≤ 2 s', r.footprint, () => [ms(coldMedian(val(r.footprint)!.coldEmptyMs)), coldMedian(val(r.footprint)!.coldEmptyMs) <= 2000]);
  add(`cold start to /readyz, ${num(r.prompts)} prompts (median)`, '≤ 2 s', r.footprint, () => [ms(coldMedian(val(r.footprint)!.coldFullMs)), coldMedian(val(r.footprint)!.coldFullMs) <= 2000]);
  return out;
}

const mark = (m: boolean | null) => (m === null ? '—' : m ? 'met' : 'MISSED');

export function consoleSummary(r: Results): string {
  const rows = targets(r);
  const w = Math.max(...rows.map((t) => t.what.length));
  return rows.map((t) => `${t.what.padEnd(w)}  ${t.result.padEnd(14)} target ${t.target.padEnd(9)} ${mark(t.met)}`).join('\n');
}

const table = (head: string[], rows: string[][]) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

/**
 * `byHand`: rows of the targets table measured by hand with the scripts they name
 * (bench/targets-by-hand.md), appended under the generated rows so that a new run
 * keeps them.
 */
export function markdown(r: Results, history: string, byHand = ''): string {
  const m = r.machine;
  const parts: string[] = [
    '# Benchmarks',
    '',
    `Generated by \`npm run bench\`${r.quick ? ' (BENCH_QUICK=1: shorter runs)' : ''} on ${r.startedAt}, in ${r.minutes.toFixed(1)} min. All traffic is on 127.0.0.1.`,
    `Machine: ${m.nproc} CPUs (nproc), ${m.cpu}, ${m.memory} memory, Node ${m.node}, ${m.platform}.`,
    'These machines are shared and their speed drifts, so the figures that carry a target are ratios against a baseline measured in the same run, or bounds far from the measured value.',
    'The targets rows marked "by hand" come from bench/targets-by-hand.md: measured separately with the script each names, at the time and load it gives.',
    '',
    '## Targets',
    '',
    table(['measure', 'result', 'target', ''], targets(r).map((t) => [t.what, t.result, t.target, mark(t.met)])),
    ...(byHand.trim() ? byHand.trim().split('\n').filter((l) => l.startsWith('| ')) : []),
  ];
  const g = val(r.get);
  parts.push('', '## 1. prompts/get over Streamable HTTP', '');
  if (g) {
    parts.push(
      `${g.sessions} MCP sessions per server (one keep-alive connection each) from one separate load-generator process, ${g.prompts} prompts. The machine's speed drifts by tens of percent within seconds, so the load goes to each server in turn in ${g.sliceMs / 1000} s slices, each round starting one server later: ${g.pairs} measured rounds after ${g.warmupPairs} unmeasured warm-up rounds. promptd: \`promptd serve\` on SQLite, usage recording on (the default). SDK: \`McpServer\` with the same prompts (registerPrompt, same rendered text${g.sameAnswer ? ', answers checked identical' : ', ANSWERS DIFFER'}) on \`StreamableHTTPServerTransport\` (stateful) and node:http, once with \`enableJsonResponse: true\` (its best case, the baseline of the target) and once with the default SSE answers. Bare node:http: the same bytes promptd answers, precomputed, behind \`JSON.parse\` of the request (bench/bare-server.ts): the ceiling.`,
      '',
      table(['server', 'req/s', 'p50', 'p99', 'server CPU per request', 'errors', 'slowest / fastest slice'], ([['promptd', g.promptd], ['SDK McpServer, JSON responses', g.sdk], ['SDK McpServer, SSE responses (default)', g.sdkSse], ['bare node:http, same bytes (ceiling)', g.bare]] as const).map(([n, x]) =>
        [n, num(x.rps), ms(x.p50), ms(x.p99), `${num(x.cpuUs)} µs`, String(x.errors), `${num(Math.min(...x.runs))} / ${num(Math.max(...x.runs))} req/s`])),
      '',
      `Throughput ratio promptd ÷ SDK (JSON): **${ratio(g.ratio)}** (total requests ÷ total time of each side; the median of the per-round ratios is ${ratio(g.medianPairRatio)}, per round: ${g.pairRatios.map(ratio).join(', ')}); promptd ÷ SDK (SSE): ${ratio(g.ratioSse)}; promptd ÷ bare node:http: ${ratio(g.ratioBare)}. CPU efficiency (SDK JSON CPU per request ÷ promptd CPU per request, from /proc): ${ratio(g.cpuRatio)}; it drifts less than req/s when other work shares the machine. Latencies include the load generator's own queueing on the same 2 CPUs.`,
      '',
      `Latency at a fixed offered rate (open loop: the same ${g.sessions} sessions, each sending on its own schedule; latency counts from the scheduled send time, so time spent behind a slow answer counts; 2 s slices per server in rotating order):`,
      '',
      table(['offered', 'promptd p50 / p99', 'SDK JSON p50 / p99', 'SDK SSE p50 / p99', 'bare node:http p50 / p99'], g.paced.map((x) => [
        `${num(x.rate)} req/s`, ...[x.promptd, x.sdk, x.sdkSse, x.bare].map((y) => `${ms(y.p50)} / ${ms(y.p99)} (${num(y.n)})`),
      ])),
    );
  } else parts.push(failed(r.get));
  const p = val(r.paging);
  parts.push('', `## 2. prompts/list deep paging, ${num(r.prompts)} prompts, page size 100`, '');
  if (p) {
    parts.push(
      `Median (p99) of ${p.reps} requests per page; the cursor of each page comes from walking the pages before it. MCP and REST over HTTP to promptd's app (MCP page size set to 100); the SQL rows are the REST listing query run through Prisma in the bench process. Catalog load at start: ${ms(p.catalogLoadMs)}.`,
      '',
      table(['method', ...PAGES.map((n) => `page ${num(n)}`), 'page 1,000 ÷ page 1'], (Object.keys(METHODS) as Method[]).map((k) => [METHODS[k], ...PAGES.map((n) => `${ms(p.p50[k][n]!)} (${ms(p.p99[k][n]!)})`), ratio(p.ratio[k])])),
    );
  } else parts.push(failed(r.paging));
  parts.push('', '## 3. list_changed latency', '', 'From the HTTP response of an activating write (`PUT /admin/v1/prompts/{name}/active`) to the notification at an MCP client; writes spaced ≥ 260 ms apart so coalescing never merges two. A notification that arrives before the response counts as 0 ms.', '');
  const lrows = (['sameProcess', 'crossProcess', 'crossPg'] as const).map((k) => {
    const label = { sameProcess: 'same process (HTTP session on the writing server)', crossProcess: 'across processes (`promptd mcp` stdio child, same SQLite file)', crossPg: 'across instances (two `promptd serve` on one PostgreSQL database)' }[k];
    const v = val(r.latency[k]);
    return v ? [label, String(v.writes), ms(v.p50), ms(v.p99), ms(v.max), String(v.missed), String(v.beforeResponse)] : [label, failed(r.latency[k]), '', '', '', '', ''];
  });
  parts.push(table(['path', 'writes', 'p50', 'p99', 'max', 'missed', 'before response'], lrows));
  parts.push('', '## 4. Writes through the REST API', '', 'POST /admin/v1/prompts/{name}/versions, each writer on its own prompt, over its own keep-alive node:http connection (bench/lib/admin-http.ts; until 2026-11-27 the fetch client, which cost as much CPU per write as the server).', '');
  const wrows: string[][] = [];
  for (const k of ['sqlite', 'postgresql'] as const) {
    const v = val(r.writes[k]);
    if (!v) wrows.push([k, failed(r.writes[k]), '', '', '', '']);
    else for (const w of v) wrows.push([k, String(w.concurrency), num(w.perSecond), ms(w.p50), ms(w.p99), String(w.errors)]);
  }
  parts.push(table(['database', 'writers', 'versions/s', 'p50', 'p99', 'errors'], wrows));
  const f = val(r.footprint);
  parts.push('', '## 5. Footprint', '');
  if (f) {
    parts.push(
      table(['measure', 'value'], [
        ['cold start to /readyz, empty SQLite database (migrations applied, --no-seed)', f.coldEmptyMs.map((t) => ms(t)).join(', ')],
        [`cold start to /readyz, ${num(r.prompts)} prompts`, f.coldFullMs.map((t) => ms(t)).join(', ')],
        [`RSS after start, ${num(r.prompts)} prompts`, `${num(f.rssReady)} MiB`],
        [`RSS after ${f.listedPages} prompts/list pages and 1,000 prompts/get`, `${num(f.rssServing)} MiB (peak ${num(f.peak)} MiB)`],
      ]),
    );
  } else parts.push(failed(r.footprint));
  const u = val(r.usage);
  parts.push('', '## 6. Usage recording on the hot path', '');
  if (u) {
    parts.push(
      `prompts/get over Streamable HTTP, ${u.sessions} sessions per server, ${u.prompts} prompts: ${u.procs ?? 1} \`promptd serve\` on SQLite recording usage (default) and ${u.procs ?? 1} with PROMPTD_USAGE=off (started on, off, off, on: two identical servers differ by up to ~10% in CPU per request), each in turn for ${u.sliceMs / 1000} s slices (${u.pairs} measured rounds after ${u.warmupPairs} warm-up rounds). The recording servers wrote ${num(u.fetchesRecorded)} fetches.`,
      '',
      table(['server', 'req/s', 'p50', 'p99', 'server CPU per request', 'errors'], [
        ['recording on', num(u.on.rps), ms(u.on.p50), ms(u.on.p99), `${num(u.on.cpuUs)} µs`, String(u.on.errors)],
        ['recording off', num(u.off.rps), ms(u.off.p50), ms(u.off.p99), `${num(u.off.cpuUs)} µs`, String(u.off.errors)],
      ]),
      '',
      `Throughput on ÷ off: **${ratio(u.ratio)}** (median of the per-round ratios ${ratio(u.medianPairRatio)}; per round: ${u.pairRatios.map(ratio).join(', ')}). In process, one \`record()\` call (the whole hot-path cost: a Map increment) takes ${num(u.recordNs)} ns, against ${num(u.on.cpuUs)} µs of server CPU per request.`,
    );
  } else if (r.usage) parts.push(failed(r.usage));
  parts.push('', history.trim(), '');
  return parts.join('\n');
}
