import { expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compactHeapOnce } from '../../src/heap.js';

it('compacts the heap after a bulk load without leaving gc exposed to the program', () => {
  const hadGc = 'gc' in globalThis;
  let garbage: string[] | undefined = Array.from({ length: 200_000 }, (_, i) => `garbage ${i} `.repeat(4));
  expect(garbage.length).toBe(200_000);
  garbage = undefined;
  const before = process.memoryUsage().heapUsed;
  compactHeapOnce();
  compactHeapOnce();
  // a full collection ran: the 200k dropped strings are gone
  expect(process.memoryUsage().heapUsed).toBeLessThan(before - 10 * 1024 * 1024);
  expect('gc' in globalThis).toBe(hadGc);
});

// capYoungGeneration changes a process-wide V8 flag: each case runs in a child process.
function youngGenerationAfterLoad(cap: boolean): number {
  const heapModule = pathToFileURL(path.resolve('src/heap.ts')).href;
  const script = `
    import v8 from 'node:v8';
    import { capYoungGeneration } from ${JSON.stringify(heapModule)};
    if (${cap}) capYoungGeneration(4 << 20);
    // Objects that live a while (a ring of 200k), so enough survives each scavenge for V8 to grow the young generation.
    const ring = new Array(200_000);
    for (let i = 0; i < 6_000_000; i++) {
      ring[i % ring.length] = { i };
      if (i % 20_000 === 0) await new Promise((r) => setImmediate(r));
    }
    console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  return Number(out.trim());
}

it('caps the young generation where asked; V8 alone grows it past that under the same load', () => {
  expect(youngGenerationAfterLoad(false)).toBeGreaterThan(4 << 20);
  expect(youngGenerationAfterLoad(true)).toBe(4 << 20);
}, 60_000);
