// Load generator for the prompts/get comparison, in its own process so that it
// shares no event loop with the server under test:
//
//   node --import tsx bench/get-load.ts <mcp-url> <sessions> <warmup-ms> <measure-ms> <prompt-count> <out.json>
//
// Opens <sessions> MCP sessions (one keep-alive connection each), each issuing
// prompts/get in a loop; records latencies only during the measured window. Bounded
// by time and by a request cap per session.
import { writeFileSync } from 'node:fs';
import { RawSession } from './lib/mcp-raw.js';
import { ARG, ARG_VALUE, promptName } from './lib/fixture.js';

const [url, sessionsArg, warmupArg, measureArg, countArg, out] = process.argv.slice(2);
const sessions = Number(sessionsArg);
const warmupMs = Number(warmupArg);
const measureMs = Number(measureArg);
const count = Number(countArg);
const MAX_PER_SESSION = 2_000_000;

const clients = Array.from({ length: sessions }, () => new RawSession(new URL(url!)));
await Promise.all(clients.map((c) => c.open()));

const start = performance.now();
const measureFrom = start + warmupMs;
const until = measureFrom + measureMs;
const latencies: number[] = [];
let requests = 0;
let total = 0;
let errors = 0;
let firstError = '';

async function loop(c: RawSession, k: number) {
  for (let i = 0; i < MAX_PER_SESSION; i++) {
    const t0 = performance.now();
    if (t0 >= until) return;
    let ok = false;
    try {
      const r = await c.request('prompts/get', { name: promptName((k * 7919 + i) % count), arguments: { [ARG]: ARG_VALUE } });
      ok = r.result !== undefined;
      if (!ok) firstError ||= JSON.stringify(r.error);
    } catch (e) {
      firstError ||= String(e);
    }
    const t1 = performance.now();
    if (ok) total++;
    if (t0 >= measureFrom && t1 <= until) {
      if (ok) {
        requests++;
        latencies.push(t1 - t0);
      } else errors++;
    }
  }
}

await Promise.all(clients.map(loop));
await Promise.all(clients.map((c) => c.close()));
writeFileSync(out!, JSON.stringify({ requests, total, errors, firstError, seconds: measureMs / 1000, latencies: latencies.map((l) => Math.round(l * 1000) / 1000) }));
process.exit(0);
