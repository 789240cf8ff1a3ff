// 4. Writes: versions created per second through the admin REST API
// (POST /admin/v1/prompts/{name}/versions), with 1 and with 8 concurrent writers,
// each writer on its own prompt. Bounded by time and by a count per writer.
import { admin } from './lib/proc.js';
import { adminConnection } from './lib/admin-http.js';
import { createToggle, versionBody } from './lib/prompts-api.js';
import { summarize, type Summary } from './lib/stats.js';

export interface WriteResult extends Summary {
  concurrency: number;
  versions: number;
  errors: number;
  perSecond: number;
}

const MAX_PER_WRITER = 100_000;

/**
 * `client`: `http` (default), node:http with one keep-alive connection per writer, the
 * light client the prompts/get load uses too; `fetch`, the fetch client of earlier runs
 * (about as much CPU per write as the server: bench/lib/admin-http.ts).
 */
export async function measureWrites(base: string, tag: string, concurrency: number, durationMs: number, client: 'http' | 'fetch' = (process.env.BENCH_WRITE_CLIENT as 'fetch' | undefined) ?? 'http'): Promise<WriteResult> {
  const names = Array.from({ length: concurrency }, (_, k) => `w-${tag}-${concurrency}-${k}`);
  for (const n of names) await createToggle(base, n);
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const until = start + durationMs;
  await Promise.all(
    names.map(async (name) => {
      const conn = client === 'http' ? adminConnection(base) : undefined;
      const post = async (p: string, body: unknown) => {
        if (conn) return (await conn.post(p, body)).status;
        const r = await admin(base, 'POST', p, body);
        await r.arrayBuffer();
        return r.status;
      };
      try {
        for (let i = 0; i < MAX_PER_WRITER && performance.now() < until; i++) {
          const t0 = performance.now();
          const status = await post(`/prompts/${name}/versions`, versionBody(i + 3));
          if (status === 201) latencies.push(performance.now() - t0);
          else errors++;
        }
      } finally {
        conn?.close();
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { ...summarize(latencies), concurrency, versions: latencies.length, errors, perSecond: latencies.length / elapsed };
}
