#!/usr/bin/env node
import v8 from 'node:v8';
import { PerformanceObserver } from 'node:perf_hooks';

// Prisma's query compiler is a large WebAssembly module. With V8's default dynamic
// tiering its hot functions are recompiled by the optimizing compiler, which kept
// ~45 MB more resident while serving 100,000 prompts (bench/footprint.ts); with the
// baseline compiler only, REST writes measured the same within run-to-run noise
// (bench/history.md). Set before any module compiles WebAssembly.
// PROMPTD_WASM_TIER_UP=1 keeps V8's default.
if (process.env.PROMPTD_WASM_TIER_UP !== '1') v8.setFlagsFromString('--liftoff-only');

// Heap sizing (bench/history.md and bench/history-memory.md, memory; 100,000 served
// prompts). V8 grows its young generation from 2 MiB (two 1 MiB semi-spaces) to
// 32 MiB under allocation pressure, doubling it each time enough has survived, and
// keeps it committed. By default we stop it at 8 MiB (two 4 MiB semi-spaces): 24 MiB
// less resident, and server CPU per prompts/get measured the same as at 32 MiB
// (bench/variants-get-ab.ts); at 2 MiB semi-spaces it was +13%, at 1 MiB +10–25%.
// The cap is --semi-space-growth-factor=1 set once the young generation has reached
// it: V8 reads that flag whenever it would grow (--max-semi-space-size is read when
// the heap is created, before this file runs). A growth takes as many surviving
// bytes as the young generation holds, so the check after each collection (gc
// entries reach observers a tick later) comes before the next one.
// - PROMPTD_HEAP=v8: V8's defaults (young generation up to 32 MiB).
// - PROMPTD_HEAP=small: the young generation stays at 2 MiB (RSS ~20 MiB lower after
//   a walk of the catalog, much lower under many concurrent sessions; server CPU per
//   get +10–25%).
// - PROMPTD_HEAP=smallest also sets --optimize-for-size: the old generation grows less
//   past what is live and frees unused pages sooner (serving RSS another ~20 MiB lower),
//   server CPU per get +40–80%.
const heap = process.env.PROMPTD_HEAP;
if (heap === 'small' || heap === 'smallest') v8.setFlagsFromString('--semi-space-growth-factor=1');
else if (heap !== 'v8') capYoungGeneration(8 << 20);
if (heap === 'smallest') v8.setFlagsFromString('--optimize-for-size');

function capYoungGeneration(bytes) {
  const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
  const reached = () => {
    if (newSpace() < bytes) return false;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    return true;
  };
  if (reached()) return;
  const gcs = new PerformanceObserver(() => {
    if (reached()) gcs.disconnect();
  });
  gcs.observe({ entryTypes: ['gc'] });
}

// URI file names let a read-only command open a WAL database in a directory it may
// not write (file:…?immutable=1, src/db/dialect-sqlite.ts); read before SQLite loads.
process.env.SQLITE_USE_URI ??= '1';

await import('../dist/cli/main.js');
