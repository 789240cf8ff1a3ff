#!/usr/bin/env node
import v8 from 'node:v8';

// Prisma's query compiler is a large WebAssembly module. With V8's default dynamic
// tiering its hot functions are recompiled by the optimizing compiler, which kept
// ~45 MB more resident while serving 100,000 prompts (bench/footprint.ts); with the
// baseline compiler only, REST writes measured the same within run-to-run noise
// (bench/history.md). Set before any module compiles WebAssembly.
// PROMPTD_WASM_TIER_UP=1 keeps V8's default.
if (process.env.PROMPTD_WASM_TIER_UP !== '1') v8.setFlagsFromString('--liftoff-only');

// Heap sizing, for deployments short of memory (bench/history.md, memory; 100,000
// served prompts). V8's defaults stay: the smaller heaps cost prompts/get CPU.
// - PROMPTD_HEAP=small: V8 grows its young generation from 2 MiB to 32 MiB (two 16 MiB
//   semi-spaces) under allocation pressure and keeps it committed; a growth factor of 1
//   keeps the initial 1 MiB semi-spaces. RSS ~20 MiB lower after a walk of the catalog,
//   ~130 MiB lower under 32 sessions of prompts/get; server CPU per get +10–25%. It is
//   read when the young generation would grow, so it can be set here
//   (--max-semi-space-size could not: it is read when the heap is created).
// - PROMPTD_HEAP=smallest also sets --optimize-for-size: the old generation grows less
//   past what is live and frees unused pages sooner (serving RSS another ~20 MiB lower),
//   server CPU per get +40–80%.
const heap = process.env.PROMPTD_HEAP;
if (heap === 'small' || heap === 'smallest') v8.setFlagsFromString('--semi-space-growth-factor=1');
if (heap === 'smallest') v8.setFlagsFromString('--optimize-for-size');

// URI file names let a read-only command open a WAL database in a directory it may
// not write (file:…?immutable=1, src/db/dialect-sqlite.ts); read before SQLite loads.
process.env.SQLITE_USE_URI ??= '1';

await import('../dist/cli/main.js');
