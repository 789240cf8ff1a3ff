// Parses prompt files ahead of the import's reader, on a worker thread. Parsing (YAML
// ~28% of a 10,000-file import's CPU, then the schemas) ran on the one thread; a second
// thread takes about half of it on a machine with 2 CPUs.
//
// The worker reads each file through the same safe reader (same checks: no links, only
// regular files, the open file's real path under the root, the per-file size cap) and hands over only
// files that parsed cleanly without reading a media file, so what it hands over is a
// function of the bytes it read alone: the parsed prompt, the byte count (the reader
// counts it against the import's total in file order, where a single thread would have)
// and, on imports that record hashes, the file's hash and stat fingerprint taken after
// its read. The reader does not open a handed-over file again (re-reading every file
// the worker read was half of the main thread's file system time). Anything else (a
// parse or schema error, a file the worker could not read, a value that would not
// survive the copy between threads) the reader reads and parses itself, so the result
// and every file's error are what a single thread gives.
//
// Both threads go forward through the files and each file is parsed by one of them: a
// shared Int32Array holds each file's state, and a thread parses a file only after
// claiming it there (compare-and-swap). The reader takes files in order; when the file
// it needs is still being parsed by the worker, it parses the next unclaimed file the
// worker's way (a result handed over, or nothing) instead of waiting, so while the
// reader is busy elsewhere (an import writing a batch: apply.ts) the worker gets ahead,
// and when the reader catches up the two share the parsing.
import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { createLibraryReader, type LibraryReader, type ReadLimits } from './safe-read.js';

/** What the worker hands over for one file. */
export interface ParsedAhead {
  file: string;
  /** bytes read, for the import's total */
  size: number;
  /** the ParsedPrompt */
  value: unknown;
  /** with `hashing`: the import hash of those bytes and the stat fingerprint ('' when too fresh to trust) */
  source?: { hash: string; stat: string };
}

/** What the import hashes need (read-library.ts): the salt, its key and when the import started. */
export interface AheadHashing {
  salt: string;
  key: string;
  startedMs: number;
}

/** Parses one file the worker's way: a result to hand over, or undefined (the reader does it itself). */
export type ParseOne = (reader: LibraryReader, file: string, hashing: AheadHashing | undefined) => ParsedAhead | undefined;

export interface ParseAhead {
  /** What the worker read and parsed of `file`; undefined: read and parse it yourself. Take files in order. */
  take(file: string): Omit<ParsedAhead, 'file'> | undefined;
  close(): void;
  /** settles when the worker has stopped (it posts everything it parsed before that) */
  readonly done: Promise<void>;
}

export interface ParseAheadOptions {
  /** fewer files than this are not worth a thread's start (~40 ms) */
  minFiles?: number;
  /** tests: block until the worker has parsed every file, so the reader takes all it can */
  wait?: boolean;
  /** tests: the reader never parses ahead itself (it waits for the worker's file instead) */
  noSteal?: boolean;
}

const MIN_FILES = 200;

/** Per-file states in the shared array. */
export const FREE = 0;
export const WORKER = 1; // claimed by the worker, not posted yet
export const READER = 2; // claimed by the reader's thread
export const POSTED = 3; // the worker posted its result
export const LEFT = 4; // the worker left it to the reader
/** Slots of the control array: the reader asks the worker to post what it holds; close; the worker is done. */
export const FLUSH = 0;
export const STOP = 1;
export const DONE = 2;

/**
 * True when `v` is made of what a copy between threads keeps exactly: strings, numbers,
 * booleans, null, undefined, arrays and plain objects (no `__proto__` key).
 */
export function isPlainData(v: unknown, depth = 0): boolean {
  if (v === null || v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return true;
  if (typeof v !== 'object' || depth > 64) return false;
  if (Array.isArray(v)) return Object.getPrototypeOf(v) === Array.prototype && v.every((x) => isPlainData(x, depth + 1));
  if (Object.getPrototypeOf(v) !== Object.prototype || Object.hasOwn(v, '__proto__')) return false;
  for (const k in v) if (!isPlainData((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

// Compiled, the worker sits beside this file as .js; run from source (tests), it is .ts
// and loads through tsx's loader, registered in the worker first.
const fromSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(fromSource ? './parse-ahead-worker.ts' : './parse-ahead-worker.js', import.meta.url);
const workerScript = fromSource
  ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); })`
  : workerUrl;

/**
 * Starts a worker on `files` (library-relative paths, in the reader's order); undefined
 * when not worth it. `parseOne` is what the worker runs per file; the reader's thread
 * runs it too on files it parses ahead of its position.
 */
export function startParseAhead(
  root: string, files: string[], limits: ReadLimits, opts: ParseAheadOptions = {}, hashing?: AheadHashing, parseOne?: ParseOne,
): ParseAhead | undefined {
  if (files.length < (opts.minFiles ?? MIN_FILES) || availableParallelism() < 2) return undefined;
  const { port1, port2 } = new MessageChannel();
  const state = new Int32Array(new SharedArrayBuffer(4 * files.length));
  const control = new Int32Array(new SharedArrayBuffer(4 * 3));
  // The reader enforces the total; the threads parsing ahead only parse what the reader will read anyway.
  const aheadLimits = { maxFileBytes: limits.maxFileBytes, maxTotalBytes: Number.MAX_SAFE_INTEGER };
  let worker: Worker;
  try {
    worker = new Worker(workerScript, {
      eval: fromSource,
      workerData: { root, files, limits: aheadLimits, hashing, port: port2, state, control },
      transferList: [port2],
    });
  } catch {
    port1.close();
    return undefined;
  }
  // A worker that fails only means the reader parses everything itself.
  let dead = false;
  worker.on('error', () => {});
  const done = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.unref();
  if (opts.wait) Atomics.wait(control, DONE, 0, 30_000);
  const index = new Map(files.map((f, i) => [f, i]));
  const memo = new Map<string, ParsedAhead>();
  const drain = () => {
    for (let m = receiveMessageOnPort(port1); m; m = receiveMessageOnPort(port1)) for (const p of m.message as ParsedAhead[]) memo.set(p.file, p);
  };
  // The reader's own parsing ahead: a reader of its own, without the total (counted in order by the caller's).
  let own: LibraryReader | undefined;
  let next = 0; // no file before this one is free
  const stealOne = (from: number): boolean => {
    if (!parseOne || opts.noSteal) return false;
    for (let j = Math.max(from, next); j < files.length; j++) {
      if (Atomics.load(state, j) !== FREE || Atomics.compareExchange(state, j, FREE, READER) !== FREE) continue;
      next = j + 1;
      own ??= createLibraryReader(root, aheadLimits);
      let got: ParsedAhead | undefined;
      try {
        got = parseOne(own, files[j]!, hashing);
      } catch {
        got = undefined; // read again in order, where its error belongs
      }
      if (got) memo.set(got.file, got);
      return true;
    }
    next = files.length;
    return false;
  };
  return {
    done,
    take(file) {
      const i = index.get(file);
      if (i === undefined) return undefined;
      let waited = 0;
      for (;;) {
        drain();
        const hit = memo.get(file);
        if (hit) {
          memo.delete(file);
          return hit;
        }
        const s = Atomics.load(state, i);
        if (s === FREE) {
          if (Atomics.compareExchange(state, i, FREE, READER) === FREE) return undefined;
          continue;
        }
        if (s !== WORKER || dead) return undefined; // READER, LEFT, or POSTED and already taken
        // The worker holds it: ask for it, and parse something else ahead meanwhile.
        Atomics.store(control, FLUSH, 1);
        if (stealOne(i + 1)) continue;
        // Nothing left to parse ahead: wait (a worker that stopped answering is given up on).
        if (Atomics.wait(state, i, WORKER, 200) === 'timed-out' && (waited += 200) >= 10_000) {
          dead = true;
          return undefined;
        }
      }
    },
    close() {
      Atomics.store(control, STOP, 1);
      port1.close();
      void worker.terminate();
    },
  };
}
