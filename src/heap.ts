// One full, compacting garbage collection after the start-up load. Loading the
// served catalog (100k prompts: 50 batches of database rows) leaves the V8 heap
// committed at about 1.6 times what stays live (measured: 129 MB for 83 MB), and
// V8 hands pages back only after it sees the process idle, which a server under
// traffic never is.
import v8 from 'node:v8';
import vm from 'node:vm';
import { PerformanceObserver } from 'node:perf_hooks';

let gc: (() => void) | undefined;

export function compactHeapOnce(): void {
  if (!gc) {
    // A context created after --expose-gc is set gets a `gc` function; the flag is
    // needed only for that moment.
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
    v8.setFlagsFromString('--no-expose-gc');
  }
  gc();
}

/**
 * Stops V8's young generation from growing past `bytes` (both semi-spaces; V8 starts
 * at 2 MiB and doubles up to 32 MiB when enough survives its collections). Sets
 * --semi-space-growth-factor=1 once the young generation has reached `bytes`: V8 reads
 * that flag whenever it would grow, whereas --max-semi-space-size is read only when the
 * heap is created. A growth needs as many surviving bytes as the young generation
 * holds, several collections, and gc entries reach observers a tick after each, so the
 * flag is set before the next growth. Called by bin/promptd.js before anything loads.
 */
export function capYoungGeneration(bytes: number): void {
  const reached = () => {
    const size = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
    if (size < bytes) return false;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    return true;
  };
  if (reached()) return;
  const gcs = new PerformanceObserver(() => {
    if (reached()) gcs.disconnect();
  });
  gcs.observe({ entryTypes: ['gc'] });
}
