// Parses the larger files of a library directory on a worker thread with a heap cap
// before the import (or check) reads them (issue #36.5). The YAML caps (yaml-caps.ts)
// bound what one file holds, not what parsing it costs: ~99,000 nodes behind an anchor
// take `yaml` about 100 MB. A file that takes the worker over its cap stops it; that
// file is refused in one line, never parsed on the calling thread, and a fresh worker
// goes on with the files after it. The reader then parses only files shown to fit.
// Small files are not sent: under PARSE_CAP_MIN_BYTES (64 KiB) the caps keep a parse to
// a few tens of MB, and a worker's start would cost more than the files (a prompt file
// is a few KB), so an import of small files starts no worker.
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ReadLimits } from './safe-read.js';
import { libraryRoot, MANIFEST, PROMPT_EXT } from './read-library.js';
import { PARSE_CAP_MIN_BYTES, type ParseCapVerdicts } from './parse-cap-check.js';

/** The worker's heap (old generation), as for format files (format-read-off-thread.ts). */
export const PARSE_HEAP_MB = 256;

export interface ParseCapOptions {
  /** the heap cap; default PROMPTD_PARSE_HEAP_MB (a number of MiB), else PARSE_HEAP_MB */
  heapMb?: number;
}

// Compiled, the worker sits beside this file as .js; run from source (tests), it is .ts
// and loads through tsx's loader, registered in the worker first (as parse-ahead.ts does).
const fromSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(fromSource ? './parse-cap-worker.ts' : './parse-cap-worker.js', import.meta.url);
const workerScript = fromSource
  ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); })`
  : workerUrl;

/** The heap cap: PROMPTD_PARSE_HEAP_MB lets an operator (or a test of the spawned CLI) set another. */
export function parseHeapMb(opts: ParseCapOptions = {}): number {
  const env = Number(process.env.PROMPTD_PARSE_HEAP_MB);
  return opts.heapMb ?? (Number.isFinite(env) && env >= 16 ? env : PARSE_HEAP_MB);
}

/**
 * Runs one worker over `files`; resolves the index of the file it ran out of heap on, or
 * undefined when it finished. `onFit` hears each file parsed within the cap, with its hash.
 */
function runWorker(root: string, files: string[], limits: ReadLimits, heapMb: number, onFit: (i: number, hash: string) => void): Promise<number | undefined> {
  const progress = new Int32Array(new SharedArrayBuffer(4));
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerScript, {
      eval: fromSource,
      workerData: { root, files, limits, progress },
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(32, heapMb / 4) },
    });
    let failure: unknown;
    // Node delivers every message the worker posted before 'exit'.
    worker.on('message', (m: { i: number; hash: string }) => onFit(m.i, m.hash));
    worker.on('error', (e) => (failure = e));
    worker.on('exit', () => {
      if (failure === undefined) resolve(undefined);
      else if ((failure as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') resolve(Atomics.load(progress, 0));
      else reject(failure);
    });
  });
}

/**
 * Parses the large files of `files` (relative to `root`, in read order) on the capped
 * worker: those over the cap are `refused`, those within it are in `fits` with the hash
 * of the bytes parsed. A file it cannot read is in neither: the reader reports it.
 */
export async function filesOverParseCap(root: string, files: string[], limits: ReadLimits = {}, opts: ParseCapOptions = {}): Promise<ParseCapVerdicts> {
  const heapMb = parseHeapMb(opts);
  const refused = new Map<string, string>();
  const fits = new Map<string, string>();
  let pending = files.filter((f) => {
    try {
      const st = lstatSync(path.join(root, f));
      return st.isFile() && st.size >= PARSE_CAP_MIN_BYTES;
    } catch {
      return false;
    }
  });
  while (pending.length) {
    const batch = pending;
    const at = await runWorker(root, batch, limits, heapMb, (i, hash) => fits.set(batch[i]!, hash));
    if (at === undefined) break;
    refused.set(pending[at]!, `too large to parse (over the ${heapMb} MiB parse limit)`);
    pending = pending.slice(at + 1);
  }
  return { refused, fits };
}

/** filesOverParseCap for a library directory or prompt file (openLibrary's target): its manifest and prompt files. */
export async function libraryOverParseCap(target: string, limits: ReadLimits = {}, opts: ParseCapOptions = {}): Promise<ParseCapVerdicts> {
  const { root, isFile } = libraryRoot(target);
  let files: string[];
  if (isFile) files = [path.relative(root, path.resolve(target)).split(path.sep).join('/')];
  else {
    files = [MANIFEST];
    try {
      // Listed only when a real directory: the reader refuses a link (openLibrary reports it).
      if (!lstatSync(path.join(root, 'prompts')).isDirectory()) throw new Error('not a directory');
      files.push(...readdirSync(path.join(root, 'prompts')).filter((f) => PROMPT_EXT.test(f)).sort().map((f) => `prompts/${f}`));
    } catch {
      // No prompts directory (or not one): openLibrary says so.
    }
  }
  return filesOverParseCap(root, files, limits, opts);
}
