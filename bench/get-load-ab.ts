// Load generator for the prompts/get comparison, in its own process so that it
// shares no event loop with the servers under test:
//
//   node --import tsx bench/get-load-ab.ts <out.json> <sessions> <slice-ms> <rounds> <warm-up-rounds> <prompt-count> <url1> <pid1> <url2> <pid2> [<url3> <pid3> …]
//
// The shared machine's speed drifts by ±30% within seconds, so two long runs (or
// even 5 s rounds) compare the machine as much as the servers. Here the same
// <sessions> clients load each server for one short slice in turn; each round
// starts one server later than the one before (A B C, B C A, C A B, …), so every
// server sees the same drift and the same neighbours. Each slice ends by letting
// in-flight requests finish, so slices do not overlap. The first <warm-up-rounds>
// rounds warm every server's JIT and are not counted.
import { readFileSync, writeFileSync } from 'node:fs';
import { RawSession } from './lib/mcp-raw.js';
import { ARG, ARG_VALUE, promptName } from './lib/fixture.js';

const [out, sessionsArg, sliceArg, pairsArg, warmArg, countArg, ...targets] = process.argv.slice(2);
const sessions = Number(sessionsArg);
const sliceMs = Number(sliceArg);
const pairs = Number(pairsArg);
const warmPairs = Number(warmArg);
const count = Number(countArg);

/** CPU time (user + system) of a process so far, in ms (clock ticks of 10 ms). */
function cpuMs(pid: string): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Slice {
  requests: number;
  errors: number;
  seconds: number;
  cpuMs: number;
  latencies: number[];
}

const servers: { url: string; pid: string; clients: RawSession[] }[] = [];
for (let i = 0; i + 1 < targets.length; i += 2) {
  const url = targets[i]!;
  servers.push({ url, pid: targets[i + 1]!, clients: Array.from({ length: sessions }, () => new RawSession(new URL(url))) });
}
for (const s of servers) await Promise.all(s.clients.map((c) => c.open()));

let firstError = '';
let seq = 0;

async function slice(k: number): Promise<Slice> {
  const s = servers[k]!;
  const latencies: number[] = [];
  let requests = 0;
  let errors = 0;
  const cpu0 = cpuMs(s.pid);
  const t0 = performance.now();
  const until = t0 + sliceMs;
  await Promise.all(
    s.clients.map(async (c, i) => {
      while (performance.now() < until) {
        const a = performance.now();
        try {
          const r = await c.request('prompts/get', { name: promptName((i * 7919 + seq++) % count), arguments: { [ARG]: ARG_VALUE } });
          if (r.result === undefined) {
            errors++;
            firstError ||= JSON.stringify(r.error);
            continue;
          }
        } catch (e) {
          errors++;
          firstError ||= String(e);
          continue;
        }
        requests++;
        latencies.push(Math.round((performance.now() - a) * 1000) / 1000);
      }
    }),
  );
  return { requests, errors, seconds: (performance.now() - t0) / 1000, cpuMs: cpuMs(s.pid) - cpu0, latencies };
}

const slices: Slice[][] = servers.map(() => []);
// CLOCK_MONOTONIC (ns), comparable with a server's --cpu-prof sample times (bench/profile-get.ts).
let measuredFrom = 0n;
for (let p = 0; p < warmPairs + pairs; p++) {
  if (p === warmPairs) measuredFrom = process.hrtime.bigint();
  for (let j = 0; j < servers.length; j++) {
    const k = (p + j) % servers.length;
    const r = await slice(k);
    if (p >= warmPairs) slices[k]!.push(r);
  }
}
const measured = [String(measuredFrom), String(process.hrtime.bigint())];

// Latency at a fixed offered rate (open loop). At saturation a closed loop's latency
// is just sessions ÷ throughput (32 ÷ 4,000 req/s = 8 ms), so a p99 bound needs a
// stated rate below capacity. Each session sends on its own schedule (rate ÷ sessions
// per second, start times staggered); a late answer delays the next send, and latency
// counts from the scheduled time, so waiting behind a slow answer is measured too
// (no coordinated omission).
async function paced(k: number, rate: number, ms: number): Promise<number[]> {
  const s = servers[k]!;
  const latencies: number[] = [];
  const interval = (1000 * sessions) / rate;
  const t0 = performance.now();
  await Promise.all(
    s.clients.map(async (c, i) => {
      for (let n = 0; ; n++) {
        const due = t0 + (i / sessions) * interval + n * interval;
        if (due >= t0 + ms) break;
        const wait = due - performance.now();
        // Timers count whole milliseconds from the loop's cached clock and can fire a little
        // early: wait out the rest, so no request leaves before its time.
        if (wait > 0) await new Promise((r) => setTimeout(r, Math.ceil(wait)));
        while (performance.now() < due) await new Promise((r) => setImmediate(r));
        try {
          const r = await c.request('prompts/get', { name: promptName((i * 7919 + seq++) % count), arguments: { [ARG]: ARG_VALUE } });
          if (r.result === undefined) {
            firstError ||= JSON.stringify(r.error);
            continue;
          }
        } catch (e) {
          firstError ||= String(e);
          continue;
        }
        latencies.push(Math.round((performance.now() - due) * 1000) / 1000);
      }
    }),
  );
  return latencies;
}

const pacedRounds = pairs >= 8 ? 4 : 2;
const paced_: { rate: number; sides: number[][] }[] = [];
for (const rate of [1_000, 2_000]) {
  const sides: number[][] = servers.map(() => []);
  for (let p = 0; p < pacedRounds; p++) {
    for (let j = 0; j < servers.length; j++) {
      const k = (p + j) % servers.length;
      const l = await paced(k, rate, 2 * sliceMs);
      for (const x of l) sides[k]!.push(x);
    }
  }
  paced_.push({ rate, sides });
}
for (const s of servers) await Promise.all(s.clients.map((c) => c.close()));
writeFileSync(out!, JSON.stringify({ sides: slices, paced: paced_, firstError, measured }));
process.exit(0);
