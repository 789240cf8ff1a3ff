// The worker of parse-cap.ts: reads each file through the safe reader and parses its
// YAML, saying which file it is on before starting it, so a worker stopped at its heap
// cap names the file, and posting the hash of each file it parsed (the reader parses
// the files that fit again, and only those bytes: parse-cap-check.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { bytesHash } from './parse-cap-check.js';
import { parseLibraryYaml } from './library-yaml.js';
import { createLibraryReader, DEFAULT_MAX_TOTAL_BYTES, type ReadLimits } from './safe-read.js';

const { root, files, limits, progress } = workerData as { root: string; files: string[]; limits: ReadLimits; progress: Int32Array };
// A reader per file: one reader keeps every file it read (its cache), and these are
// only looked at. The total is counted here, so a library of many large files costs
// no more than the reader's total allows.
let total = 0;
const maxTotal = limits.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
for (const [i, file] of files.entries()) {
  Atomics.store(progress, 0, i);
  let bytes: Buffer;
  try {
    bytes = createLibraryReader(root, { maxFileBytes: limits.maxFileBytes }).read(file, '(file)');
  } catch {
    continue; // the reader reports it
  }
  if ((total += bytes.length) > maxTotal) break;
  try {
    const doc = parseLibraryYaml(bytes.toString('utf8'));
    if (!doc.errors.length) doc.toJS();
  } catch {
    // Over a cap, not YAML: the reader parses it again for its error, within the cap as here.
  }
  parentPort!.postMessage({ i, hash: bytesHash(bytes) });
}
