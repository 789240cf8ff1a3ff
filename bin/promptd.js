#!/usr/bin/env node
import v8 from 'node:v8';

// Prisma's query compiler is a large WebAssembly module. With V8's default dynamic
// tiering its hot functions are recompiled by the optimizing compiler, which kept
// ~45 MB more resident while serving 100,000 prompts (bench/footprint.ts); with the
// baseline compiler only, REST writes measured the same within run-to-run noise
// (bench/history.md). Set before any module compiles WebAssembly.
// PROMPTD_WASM_TIER_UP=1 keeps V8's default.
if (process.env.PROMPTD_WASM_TIER_UP !== '1') v8.setFlagsFromString('--liftoff-only');

// Heap sizing for a long-running server that holds its data (bench/history.md, memory;
// 100,000 served prompts: RSS serving 234 → 213 MiB, ready 223 → 199 MiB):
// - V8 grows its young generation from 2 MiB to 32 MiB (two 16 MiB semi-spaces) under
//   allocation pressure and keeps it committed. A growth factor of 1 keeps the initial
//   1 MiB semi-spaces; it is read when the young generation would grow, so it can be
//   set here (--max-semi-space-size could not: it is read when the heap is created).
// - --optimize-for-size lowers how far the old generation may grow past what is live
//   before the next full collection, and frees unused pages sooner: after a full GC
//   the old space kept 62.5 MiB committed for 37.6 used, with it 41.0 for 36.8.
// PROMPTD_HEAP=default keeps V8's defaults.
if (process.env.PROMPTD_HEAP !== 'default') v8.setFlagsFromString('--semi-space-growth-factor=1 --optimize-for-size');

// URI file names let a read-only command open a WAL database in a directory it may
// not write (file:…?immutable=1, src/db/dialect-sqlite.ts); read before SQLite loads.
process.env.SQLITE_USE_URI ??= '1';

await import('../dist/cli/main.js');
