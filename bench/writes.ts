// 4. Writes: versions created per second through the admin REST API
// (POST /admin/v1/prompts/{name}/versions), with 1 and with 8 concurrent writers,
// each writer on its own prompt. Bounded by time and by a count per writer.
import { admin } from './lib/proc.js';
import { createToggle, versionBody } from './lib/prompts-api.js';
import { summarize, type Summary } from './lib/stats.js';

export interface WriteResult extends Summary {
  concurrency: number;
  versions: number;
  errors: number;
  perSecond: number;
}

const MAX_PER_WRITER = 100_000;

export async function measureWrites(base: string, tag: string, concurrency: number, durationMs: number): Promise<WriteResult> {
  const names = Array.from({ length: concurrency }, (_, k) => `w-${tag}-${concurrency}-${k}`);
  for (const n of names) await createToggle(base, n);
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const until = start + durationMs;
  await Promise.all(
    names.map(async (name) => {
      for (let i = 0; i < MAX_PER_WRITER && performance.now() < until; i++) {
        const t0 = performance.now();
        const r = await admin(base, 'POST', `/prompts/${name}/versions`, versionBody(i + 3));
        await r.arrayBuffer();
        if (r.status === 201) latencies.push(performance.now() - t0);
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { ...summarize(latencies), concurrency, versions: latencies.length, errors, perSecond: latencies.length / elapsed };
}
