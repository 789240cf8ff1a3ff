// The worker of parse-ahead.ts: parses the prompt files from the last one backwards
// until it meets the reader, posting each clean result in small batches with its size
// (and, when the import records hashes, its hash and stat fingerprint). A file with a
// problem, or one that reads media files, is left to the reader: its errors and reads
// are then exactly those of one thread.
import { workerData, type MessagePort } from 'node:worker_threads';
import { parsePromptFile } from './read-library.js';
import { createLibraryReader, type ReadLimits } from './safe-read.js';
import { sourceHash, statPrint } from './import-hashes.js';
import type { AheadHashing, ParsedAhead } from './parse-ahead.js';

const { root, files, limits, hashing, port, progress } = workerData as {
  root: string; files: string[]; limits: ReadLimits; hashing?: AheadHashing; port: MessagePort; progress: Int32Array;
};

/**
 * True when `v` is made of what a copy between threads keeps exactly: strings, numbers,
 * booleans, null, undefined, arrays and plain objects (no `__proto__` key).
 */
function isPlainData(v: unknown, depth = 0): boolean {
  if (v === null || v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return true;
  if (typeof v !== 'object' || depth > 64) return false;
  if (Array.isArray(v)) return Object.getPrototypeOf(v) === Array.prototype && v.every((x) => isPlainData(x, depth + 1));
  if (Object.getPrototypeOf(v) !== Object.prototype || Object.hasOwn(v, '__proto__')) return false;
  for (const k in v) if (!isPlainData((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

const reader = createLibraryReader(root, limits);
let batch: ParsedAhead[] = [];
for (let i = files.length - 1; i > Atomics.load(progress, 0); i--) {
  const file = files[i]!;
  try {
    const deps: string[] = [];
    const value = parsePromptFile(reader, file, deps);
    if (deps.length || !isPlainData(value)) continue;
    // The reader's cache hands back the bytes parsed above; the stat is taken after the
    // read, as the reader's thread takes it (read-library.ts).
    const bytes = reader.read(file, '(file)');
    const source = hashing && { hash: sourceHash(hashing.salt, file, bytes, []), stat: statPrint(hashing.key, [reader.stat(file, '(file)')], hashing.startedMs) };
    batch.push({ file, size: bytes.length, value, ...(source ? { source } : {}) });
  } catch {
    continue; // the reader meets the same problem and reports it
  }
  if (batch.length >= 25) {
    port.postMessage(batch);
    batch = [];
  }
}
if (batch.length) port.postMessage(batch);
port.close();
Atomics.store(progress, 1, 1);
Atomics.notify(progress, 1);
