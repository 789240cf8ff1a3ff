#!/usr/bin/env node
import v8 from 'node:v8';

// Prisma's query compiler is a large WebAssembly module. With V8's default dynamic
// tiering its hot functions are recompiled by the optimizing compiler, which kept
// ~45 MB more resident while serving 100,000 prompts (bench/footprint.ts); with the
// baseline compiler only, REST writes measured the same within run-to-run noise
// (bench/history.md). Set before any module compiles WebAssembly.
// PROMPTD_WASM_TIER_UP=1 keeps V8's default.
if (process.env.PROMPTD_WASM_TIER_UP !== '1') v8.setFlagsFromString('--liftoff-only');

// Heap sizing (bench/history.md, sections 10 and 17; 100,000 served
// prompts). V8 grows its young generation from 2 MiB to 32 MiB under allocation
// pressure and keeps it committed. By default it stops at 8 MiB (two 4 MiB
// semi-spaces, src/heap.ts): 24 MiB less resident, and server CPU per prompts/get
// measured the same as with 32 MiB (bench/variants-get-ab.ts; at 4 MiB, two 2 MiB semi-spaces, +13%).
// - PROMPTD_HEAP=v8: V8's defaults (young generation up to 32 MiB).
// - PROMPTD_HEAP=small: the young generation stays at 2 MiB (RSS ~20 MiB lower under
//   many concurrent sessions; server CPU per get +10–25%).
// - PROMPTD_HEAP=smallest also sets --optimize-for-size: the old generation grows less
//   past what is live and frees unused pages sooner, server CPU per get +40–80%.
const heap = process.env.PROMPTD_HEAP;
if (heap === 'small' || heap === 'smallest') v8.setFlagsFromString('--semi-space-growth-factor=1');
else if (heap !== 'v8') (await import('../dist/heap.js')).capYoungGeneration(8 << 20);
if (heap === 'smallest') v8.setFlagsFromString('--optimize-for-size');

// URI file names let a read-only command open a WAL database in a directory it may
// not write (file:…?immutable=1, src/db/dialect-sqlite.ts); read before SQLite loads.
process.env.SQLITE_USE_URI ??= '1';

await import('../dist/cli/main.js');
