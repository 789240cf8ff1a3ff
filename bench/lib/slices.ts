// Throughput measured in alternating time slices (get-throughput.ts, usage-overhead.ts):
// what one slice counted, and one side's totals over its slices.
import { summarize, type Summary } from './stats.js';

export interface Slice {
  requests: number;
  errors: number;
  seconds: number;
  cpuMs: number;
  latencies: number[];
}

export interface SideResult extends Summary {
  rps: number;
  /** server CPU time (user + system) per answered request, in µs */
  cpuUs: number;
  errors: number;
  /** req/s of each measured slice */
  runs: number[];
}

export function side(slices: Slice[]): SideResult {
  const requests = slices.reduce((a, r) => a + r.requests, 0);
  const seconds = slices.reduce((a, r) => a + r.seconds, 0);
  return {
    ...summarize(slices.flatMap((r) => r.latencies)),
    rps: requests / seconds,
    cpuUs: (1000 * slices.reduce((a, r) => a + r.cpuMs, 0)) / requests,
    errors: slices.reduce((a, r) => a + r.errors, 0),
    runs: slices.map((r) => r.requests / r.seconds),
  };
}

/** The median of a few pair ratios, the mean of the middle two for an even count. */
export const midMedian = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
