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
// and every file's error are what a single thread gives. The reader goes forward
// through the files and the worker backwards; they stop where they meet.
import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { ReadLimits } from './safe-read.js';

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

export interface ParseAhead {
  /** What the worker read and parsed of `file`; undefined: read and parse it yourself. */
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
}

const MIN_FILES = 200;

// Compiled, the worker sits beside this file as .js; run from source (tests), it is .ts
// and loads through tsx's loader, registered in the worker first.
const fromSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(fromSource ? './parse-ahead-worker.ts' : './parse-ahead-worker.js', import.meta.url);
const workerScript = fromSource
  ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); })`
  : workerUrl;

/** Starts a worker on `files` (library-relative paths, in the reader's order); undefined when not worth it. */
export function startParseAhead(root: string, files: string[], limits: ReadLimits, opts: ParseAheadOptions = {}, hashing?: AheadHashing): ParseAhead | undefined {
  if (files.length < (opts.minFiles ?? MIN_FILES) || availableParallelism() < 2) return undefined;
  const { port1, port2 } = new MessageChannel();
  // [0]: where the reader is (an index into `files`): the worker stops when it gets
  // there; [1]: 1 once the worker has posted everything.
  const progress = new Int32Array(new SharedArrayBuffer(8));
  progress[0] = -1;
  let worker: Worker;
  try {
    worker = new Worker(workerScript, {
      eval: fromSource,
      // The reader enforces the total; the worker only parses what the reader will read anyway.
      workerData: { root, files, limits: { maxFileBytes: limits.maxFileBytes, maxTotalBytes: Number.MAX_SAFE_INTEGER }, hashing, port: port2, progress },
      transferList: [port2],
    });
  } catch {
    port1.close();
    return undefined;
  }
  // A worker that fails only means the reader parses everything itself.
  worker.on('error', () => {});
  const done = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.unref();
  if (opts.wait) Atomics.wait(progress, 1, 0, 30_000);
  const index = new Map(files.map((f, i) => [f, i]));
  const memo = new Map<string, ParsedAhead>();
  return {
    done,
    take(file) {
      const i = index.get(file);
      if (i !== undefined) Atomics.store(progress, 0, i);
      for (let m = receiveMessageOnPort(port1); m; m = receiveMessageOnPort(port1)) for (const p of m.message as ParsedAhead[]) memo.set(p.file, p);
      const hit = memo.get(file);
      if (!hit) return undefined;
      memo.delete(file);
      return hit;
    },
    close() {
      Atomics.store(progress, 0, files.length);
      port1.close();
      void worker.terminate();
    },
  };
}
