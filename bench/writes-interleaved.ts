// Version writes, this checkout against another built one, with both `promptd serve`
// processes up at once and the load switched between them every batch (A B B A …): a
// noisy, shared machine changes between two batches far less than between two runs of
// bench/writes-ab.ts. Server CPU per write from /proc for each batch (the other server
// idles meanwhile: its change-marker poll only); medians and the per-pair ratio. On
// PostgreSQL also the CPU of the database's backends serving each side's database.
//
//   npx tsx bench/writes-interleaved.ts <other root, built> [sqlite|pg] [writers=1] [pairs=20] [writes per batch=200]
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ROOT, admin, cpuMsOf, startServe, tempDir } from './lib/proc.js';
import { backendsCpuMs, createTempPg } from './lib/pg.js';
import { createToggle, versionBody } from './lib/prompts-api.js';

const other = path.resolve(process.argv[2] ?? '/work/wt/base');
const kind = process.argv[3] ?? 'sqlite';
const writers = Number(process.argv[4] ?? 1);
const pairs = Number(process.argv[5] ?? 20);
const perBatch = Number(process.argv[6] ?? 200);


async function side(name: string, root: string) {
  const temp = kind === 'pg' ? await createTempPg() : null;
  if (kind === 'pg' && !temp) throw new Error('no PostgreSQL');
  const url = temp?.url ?? `file:${path.join(tempDir('promptd-wil-'), 'w.db')}`;
  const s = await startServe(url, { root });
  const probe = temp ? new pg.Client({ connectionString: temp.url }) : undefined;
  await probe?.connect();
  const names = Array.from({ length: writers }, (_, k) => `il-${writers}-${k}`);
  for (const n of names) await createToggle(s.base, n);
  let i = 10;
  let errors = 0;
  const per = Math.max(1, Math.round(perBatch / writers));
  const batch = async () => {
    const db0 = probe ? await backendsCpuMs(probe) : NaN;
    const cpu0 = cpuMsOf(s.pid);
    const t0 = performance.now();
    await Promise.all(names.map(async (n) => {
      for (let k = 0; k < per; k++) {
        const r = await admin(s.base, 'POST', `/prompts/${n}/versions`, versionBody(i++));
        await r.arrayBuffer();
        if (r.status !== 201) errors++;
      }
    }));
    const ms = performance.now() - t0;
    const cpuMs = (cpuMsOf(s.pid) - cpu0) / (per * writers);
    const dbCpuMs = probe ? ((await backendsCpuMs(probe)) - db0) / (per * writers) : NaN;
    return { cpuMs, dbCpuMs, perSecond: (per * writers * 1000) / ms };
  };
  return { name, batch, errors: () => errors, stop: async () => { await probe?.end(); await s.stop(); await temp?.drop(); } };
}

const a = await side('base', other);
const b = await side('this', ROOT);
try {
  for (const s of [a, b, a, b]) await s.batch(); // warm-up: JIT, statement caches
  const rows: Record<string, { cpuMs: number; dbCpuMs: number; perSecond: number }[]> = { base: [], this: [] };
  const load0 = os.loadavg()[0]!;
  for (let p = 0; p < pairs; p++) {
    for (const s of p % 2 ? [b, a] : [a, b]) rows[s.name]!.push(await s.batch());
  }
  const load1 = os.loadavg()[0]!;
  const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)]!;
  console.log(`${kind}, ${writers} writer(s), ${pairs} pairs of ${perBatch}-write batches, load ${load0.toFixed(1)} → ${load1.toFixed(1)}, ${new Date().toISOString().slice(11, 19)} UTC`);
  for (const n of ['base', 'this']) {
    const r = rows[n]!;
    const db = kind === 'pg' ? `, PostgreSQL backends ms/write median ${med(r.map((x) => x.dbCpuMs)).toFixed(2)}` : '';
    console.log(`  ${n.padEnd(4)} server CPU ms/write median ${med(r.map((x) => x.cpuMs)).toFixed(2)} [${Math.min(...r.map((x) => x.cpuMs)).toFixed(2)}–${Math.max(...r.map((x) => x.cpuMs)).toFixed(2)}]${db}, writes/s median ${med(r.map((x) => x.perSecond)).toFixed(0)}`);
  }
  const ratio = rows.this!.map((x, k) => x.cpuMs / rows.base![k]!.cpuMs);
  const rate = rows.this!.map((x, k) => x.perSecond / rows.base![k]!.perSecond);
  const dbRatio = rows.this!.map((x, k) => x.dbCpuMs / rows.base![k]!.dbCpuMs);
  if (kind === 'pg') console.log(`  this/base per pair: PostgreSQL backends CPU ${med(dbRatio).toFixed(3)} [${Math.min(...dbRatio).toFixed(3)}–${Math.max(...dbRatio).toFixed(3)}]`);
  console.log(`  this/base per pair: server CPU ${med(ratio).toFixed(3)} [${Math.min(...ratio).toFixed(3)}–${Math.max(...ratio).toFixed(3)}], writes/s ${med(rate).toFixed(3)}; errors ${a.errors()} / ${b.errors()}`);
} finally {
  await a.stop();
  await b.stop();
}
