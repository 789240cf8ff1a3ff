// Converts format files (the admin API's import, `promptd import --format`, `promptd
// sync`) on a worker thread with a memory cap, so that no file, however it is built,
// blocks the server's event loop for long or grows its heap: the YAML caps
// (yaml-caps.ts) bound what one file may hold, and this bounds what parsing it may
// cost. A file that takes the worker over its cap stops it; that file is reported
// and a new worker goes on with the next. Small sets of files are converted in place:
// a worker's start (~100 ms, it loads the converters) would be most of their time.
import { Worker } from 'node:worker_threads';
import { finishFormats, groupFormats, readFormats, type FormatId, type FormatReadResult, type ReadFormatsResult, type SourceFile } from './formats/index.js';

/** Below this many characters in all, files are converted on the calling thread. */
export const OFF_THREAD_MIN_CHARS = 256 * 1024;
/** The worker's heap (old generation); the YAML caps keep a valid file far below it. */
export const WORKER_HEAP_MB = 256;

export interface OffThreadOptions {
  /** tests: convert off the thread from this size on */
  minChars?: number;
  /** tests: a smaller heap */
  heapMb?: number;
}

// Compiled, the worker sits beside this file as .js; run from source (tests), it is .ts
// and loads through tsx's loader, registered in the worker first (as parse-ahead.ts does).
const fromSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(fromSource ? './format-read-worker.ts' : './format-read-worker.js', import.meta.url);
const workerScript = fromSource
  ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); })`
  : workerUrl;

type Job = { id: FormatId; file: SourceFile };

/** Runs `jobs` on one worker; resolves the index of the job it was stopped on (over its heap), or undefined when it finished. */
function runWorker(jobs: Job[], heapMb: number, onResult: (i: number, r: FormatReadResult) => void): Promise<number | undefined> {
  const progress = new Int32Array(new SharedArrayBuffer(4));
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerScript, {
      eval: fromSource,
      workerData: { jobs, progress },
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(32, heapMb / 4) },
    });
    let failure: unknown;
    worker.on('message', (m: { i: number; result: FormatReadResult }) => onResult(m.i, m.result));
    worker.on('error', (e) => (failure = e));
    // Node delivers every message the worker posted before 'exit'.
    worker.on('exit', () => {
      if (failure === undefined) resolve(undefined);
      else if ((failure as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') resolve(Atomics.load(progress, 0));
      else reject(failure);
    });
  });
}

/** readFormats, off the calling thread for larger sets of files; the same result, but for a file over the worker's heap. */
export async function readFormatsOffThread(files: SourceFile[], format: FormatId | 'auto', opts: OffThreadOptions = {}): Promise<ReadFormatsResult> {
  const size = files.reduce((n, f) => n + f.text.length, 0);
  if (size < (opts.minChars ?? OFF_THREAD_MIN_CHARS)) return readFormats(files, format);
  const heapMb = opts.heapMb ?? WORKER_HEAP_MB;
  const { groups, skipped } = groupFormats(files, format);
  // One file at a time, in readFormats' order, so the results join to its result.
  const jobs: Job[] = [...groups].flatMap(([id, g]) => g.map((file) => ({ id, file })));
  const results: (FormatReadResult | undefined)[] = new Array(jobs.length);
  let pending = jobs.map((_, i) => i);
  while (pending.length) {
    const batch = pending;
    const stoppedOn = await runWorker(batch.map((i) => jobs[i]!), heapMb, (k, r) => (results[batch[k]!] = r));
    if (stoppedOn !== undefined) {
      const at = batch[stoppedOn]!;
      results[at] = { prompts: [], warnings: [], problems: [{ file: jobs[at]!.file.path, errors: [{ path: '(file)', message: `parsing it took more than the ${heapMb} MiB of memory one import's parser may use` }] }] };
    }
    const left = batch.filter((i) => !results[i]);
    // A worker that finished without posting some result (never seen) must not loop forever.
    if (stoppedOn === undefined && left.length === batch.length) throw new Error('the format worker stopped without a result');
    pending = left;
  }
  return finishFormats(results as FormatReadResult[], skipped);
}
