// POST /__bench/stats, mounted only when promptd runs with PROMPTD_BENCH_STATS=1
// (bench/soak-memory.ts): a full garbage collection, then the process's memory and
// the sizes of every table that grows with clients (sessions, notifier fan-out,
// change-feed and catalog subscribers). A leak shows as one of these not going back
// to its baseline once the clients leave, or as RSS after GC creeping up.
// `?snapshot=1` also writes a V8 heap snapshot to the temp directory (its path is returned).
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { Hono } from 'hono';
import { compactHeapOnce } from '../heap.js';

export type BenchCounts = () => Record<string, number>;

export const benchStatsEnabled = () => process.env.PROMPTD_BENCH_STATS === '1';

export function benchStatsApp(counts: BenchCounts): Hono {
  const app = new Hono();
  app.post('/stats', (c) => {
    compactHeapOnce();
    const m = process.memoryUsage();
    const snapshot = c.req.query('snapshot') === '1' ? v8.writeHeapSnapshot(path.join(os.tmpdir(), `promptd-${process.pid}-${Date.now()}.heapsnapshot`)) : undefined;
    // Per V8 space, committed vs used: where the heap's committed-but-unused pages are.
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((x) => [x.space_name, { size: x.space_size, used: x.space_used_size }]));
    return c.json({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, spaces, ...counts(), ...(snapshot ? { snapshot } : {}) });
  });
  return app;
}
