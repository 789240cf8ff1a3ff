// Small statistics and formatting helpers for the benchmark tables.

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentile of an unsorted sample (copied, not mutated). */
export function percentile(sample: readonly number[], p: number): number {
  if (!sample.length) return NaN;
  const s = [...sample].sort((a, b) => a - b);
  const rank = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[rank]!;
}

// max by reduce, not Math.max(...sample): spreading a quiet machine's ~200,000
// latencies overflows the call stack.
export function summarize(sample: readonly number[]): Summary {
  const n = sample.length;
  const mean = n ? sample.reduce((a, b) => a + b, 0) / n : NaN;
  return { n, p50: percentile(sample, 50), p99: percentile(sample, 99), mean, max: n ? sample.reduce((a, b) => (b > a ? b : a), -Infinity) : NaN };
}

export const median = (xs: readonly number[]) => percentile(xs, 50);

/** Milliseconds with a sensible number of decimals. */
export function ms(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  return v < 1 ? `${v.toFixed(2)} ms` : v < 10 ? `${v.toFixed(1)} ms` : `${Math.round(v)} ms`;
}

export const num = (v: number, digits = 0) => (Number.isFinite(v) ? v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a');

export const ratio = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a');

export const sleep = (msec: number) => new Promise<void>((r) => setTimeout(r, msec));
