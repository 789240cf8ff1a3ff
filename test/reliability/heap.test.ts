import { expect, it } from 'vitest';
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
