// Version writes, this checkout against another built one, alternated in one run
// (issue 21): `promptd serve` processes of each side in turn (A, B, B, A, …), the
// measureWrites load of bench/writes.ts, and the server's CPU per write from /proc
// (the figure that survives a shared, noisy machine better than writes/s). On PostgreSQL
// also the CPU of the database's own backends serving the bench database (local server
// only: their pids from pg_stat_activity, CPU from /proc), which shares the machine's CPUs.
//
//   npx tsx bench/writes-ab.ts <other root, built> [rounds=2] [ms=3000] [cases=sqlite1,sqlite8,pg8]
import os from 'node:os';
import path from 'node:path';
import { ROOT, cpuMsOf, startServe, tempDir } from './lib/proc.js';
import pg from 'pg';
import { backendsCpuMs, createTempPg } from './lib/pg.js';
import { measureWrites } from './writes.js';

const other = path.resolve(process.argv[2] ?? '/work/wt/base');
const rounds = Number(process.argv[3] ?? 2);
const ms = Number(process.argv[4] ?? 3000);
const cases = (process.argv[5] ?? 'sqlite1,sqlite8,pg8').split(',');
const sides = [{ name: 'base', root: other }, { name: 'this', root: ROOT }];

type Row = { side: string; kase: string; perSecond: number; p50: number; cpuMs: number; dbCpuMs: number; errors: number; load: number };

/** CPU (ms) used so far by the PostgreSQL backends connected to the database of `url`; NaN when not readable. */
async function backendsCpuMsOf(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await backendsCpuMs(client);
  } catch {
    return NaN;
  } finally {
    await client.end();
  }
}
const rows: Row[] = [];

async function once(side: { name: string; root: string }, kase: string, round: number) {
  const pg = kase.startsWith('pg');
  const temp = pg ? await createTempPg() : null;
  if (pg && !temp) throw new Error('no PostgreSQL');
  const url = temp?.url ?? `file:${path.join(tempDir('promptd-wab-'), 'w.db')}`;
  const s = await startServe(url, { root: side.root });
  try {
    const writers = Number(kase.replace(/^\D+/, ''));
    await measureWrites(s.base, `warm${round}`, writers, 500);
    const db0 = temp ? await backendsCpuMsOf(temp.url) : NaN;
    const cpu0 = cpuMsOf(s.pid);
    const load = os.loadavg()[0]!;
    const client0 = process.cpuUsage();
    const w = await measureWrites(s.base, `r${round}`, writers, ms);
    const cpuMs = (cpuMsOf(s.pid) - cpu0) / Math.max(1, w.versions);
    const client = process.cpuUsage(client0);
    // The bench's own HTTP client (fetch) shares the machine's two CPUs: with one writer it runs between the server's turns.
    const clientMs = (client.user + client.system) / 1000 / Math.max(1, w.versions);
    // The pool's connections outlive the run (30 s idle timeout), so the same backends are read twice.
    const dbCpuMs = temp ? ((await backendsCpuMsOf(temp.url)) - db0) / Math.max(1, w.versions) : NaN;
    rows.push({ side: side.name, kase, perSecond: w.perSecond, p50: w.p50, cpuMs, dbCpuMs, errors: w.errors, load });
    const db = temp ? `, PostgreSQL backends ${dbCpuMs.toFixed(2)} ms/write` : '';
    console.log(`${new Date().toISOString().slice(11, 19)} load ${load.toFixed(1)} ${kase} ${side.name}: ${w.perSecond.toFixed(0)}/s p50 ${w.p50.toFixed(2)} ms, server CPU ${cpuMs.toFixed(2)} ms/write${db}, bench client CPU ${clientMs.toFixed(2)} ms/write, ${w.errors} errors`);
  } finally {
    await s.stop();
    await temp?.drop();
  }
}

for (let r = 0; r < rounds; r++) {
  for (const kase of cases) {
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) await once(side, kase, r);
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
console.log('\ncase     side  writes/s median [min–max]   server CPU ms/write median [min–max]   PostgreSQL backends ms/write median');
for (const kase of cases) {
  for (const side of sides) {
    const rs = rows.filter((x) => x.kase === kase && x.side === side.name);
    const ps = rs.map((x) => x.perSecond);
    const cs = rs.map((x) => x.cpuMs);
    const ds = rs.map((x) => x.dbCpuMs);
    const db = ds.some((d) => !Number.isNaN(d)) ? `   ${med(ds).toFixed(2)}` : '';
    console.log(`${kase.padEnd(8)} ${side.name.padEnd(5)} ${med(ps).toFixed(0).padStart(5)} [${Math.min(...ps).toFixed(0)}–${Math.max(...ps).toFixed(0)}]   ${med(cs).toFixed(2)} [${Math.min(...cs).toFixed(2)}–${Math.max(...cs).toFixed(2)}]${db}`);
  }
}
