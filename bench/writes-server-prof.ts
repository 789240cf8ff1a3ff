// CPU profile of a `promptd serve` process (node --cpu-prof) under the version-write
// load of bench/writes.ts: the server alone, without the bench client in the profile.
//   npx tsx bench/writes-server-prof.ts <out dir> [writers=8] [ms=4000] [sqlite|pg] [root]
import path from 'node:path';
import { startServe, tempDir } from './lib/proc.js';
import { createTempPg } from './lib/pg.js';
import { measureWrites } from './writes.js';

const out = path.resolve(process.argv[2] ?? '/tmp/wprof');
const writers = Number(process.argv[3] ?? 8);
const ms = Number(process.argv[4] ?? 4000);
const pg = process.argv[5] === 'pg';
const temp = pg ? await createTempPg() : null;
const url = temp?.url ?? `file:${path.join(tempDir('promptd-wsp-'), 'w.db')}`;
const s = await startServe(url, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${out}`, '--cpu-prof-interval=250'], root: process.argv[6] });
try {
  await measureWrites(s.base, 'warm', writers, 2000);
  const from = process.hrtime.bigint() / 1000n;
  const w = await measureWrites(s.base, 'p', writers, ms);
  const to = process.hrtime.bigint() / 1000n;
  // The profile's timestamps are the same monotonic clock, in µs: the window of the measured writes.
  console.log(`${w.perSecond.toFixed(0)}/s p50 ${w.p50.toFixed(2)} ms, ${w.versions} writes; window ${from} ${to}`);
} finally {
  await s.stop();
  await temp?.drop();
}
