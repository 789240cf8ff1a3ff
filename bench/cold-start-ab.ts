// Cold start of `promptd serve` (spawn to the first 200 from /readyz) for two or more
// builds on one database, alternated, with the RSS at ready.
//   npx tsx bench/cold-start-ab.ts <db file (bench/lib/fixture.ts)> <rounds> <bin/promptd.js> [<bin/promptd.js> …]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ADMIN_TOKEN, cpuMsOf, freePort, rssOf } from './lib/proc.js';

const [file, roundsArg, ...bins] = process.argv.slice(2) as [string, string, ...string[]];
const times = bins.map(() => [] as number[]);
const rss = bins.map(() => [] as number[]);
// CPU time (user + system) of the server at ready: survives a shared machine better than the wall time.
const cpu = bins.map(() => [] as number[]);
for (let r = 0; r < Number(roundsArg); r++) {
  for (let i = 0; i < bins.length; i++) {
    const port = await freePort();
    const t0 = performance.now();
    const child = spawn(process.execPath, [bins[i]!, 'serve', '--port', String(port), '--host', '127.0.0.1', '--no-seed'], {
      cwd: path.dirname(path.dirname(bins[i]!)),
      env: { ...process.env, DATABASE_URL: `file:${file}`, PROMPTD_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
      } catch {
        /* not yet */
      }
      if (performance.now() - t0 > 120_000) throw new Error(`${bins[i]} not ready`);
      await new Promise((res) => setTimeout(res, 5));
    }
    times[i]!.push(performance.now() - t0);
    rss[i]!.push(rssOf(child.pid!).rss);
    cpu[i]!.push(cpuMsOf(child.pid!));
    child.kill('SIGTERM');
    await new Promise((res) => child.once('exit', res));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
bins.forEach((b, i) => console.log(`${b}: ready median ${median(times[i]!).toFixed(0)} ms (${times[i]!.map((t) => t.toFixed(0)).join(', ')}), RSS at ready median ${median(rss[i]!).toFixed(1)} MiB, CPU at ready median ${median(cpu[i]!).toFixed(0)} ms (${cpu[i]!.map((t) => t.toFixed(0)).join(', ')})`));
