#!/usr/bin/env node
import v8 from 'node:v8';

// Prisma's query compiler is a large WebAssembly module. With V8's default dynamic
// tiering its hot functions are recompiled by the optimizing compiler, which kept
// ~45 MB more resident while serving 100,000 prompts (bench/footprint.ts); with the
// baseline compiler only, REST writes measured the same within run-to-run noise
// (bench/history.md). Set before any module compiles WebAssembly.
// PROMPTD_WASM_TIER_UP=1 keeps V8's default.
if (process.env.PROMPTD_WASM_TIER_UP !== '1') v8.setFlagsFromString('--liftoff-only');

// Heap sizing for a long-running server that holds its data (bench/history.md, memory).
// V8 grows its young generation from 2 MiB to 32 MiB (two 16 MiB semi-spaces) under
// allocation pressure and keeps it committed: a growth factor of 1 keeps the initial
// 1 MiB semi-spaces (100,000 served prompts: ~20 MiB less RSS; server CPU per
// prompts/get the same within noise). It is read when the young generation would
// grow, so it can be set here (--max-semi-space-size could not: it is read when the
// heap is created).
// PROMPTD_HEAP=default keeps V8's defaults. PROMPTD_HEAP=small also sets
// --optimize-for-size: the old generation grows less past what is live and unused
// pages are freed sooner (100,000 prompts: serving RSS 234 → 213 MiB), but prompts/get
// cost ~60% more server CPU under load, so it is for memory-bound deployments only.
const heap = process.env.PROMPTD_HEAP;
if (heap !== 'default') v8.setFlagsFromString('--semi-space-growth-factor=1');
if (heap === 'small') v8.setFlagsFromString('--optimize-for-size');

// URI file names let a read-only command open a WAL database in a directory it may
// not write (file:…?immutable=1, src/db/dialect-sqlite.ts); read before SQLite loads.
process.env.SQLITE_USE_URI ??= '1';

await import('../dist/cli/main.js');
