// The worker of parse-cap.ts: reads each file through the safe reader and parses its
// YAML, saying which file it is on before starting it, so a worker stopped at its heap
// cap names the file. Results are not kept: the reader parses the files that fit.
import { workerData } from 'node:worker_threads';
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
  try {
    const bytes = createLibraryReader(root, { maxFileBytes: limits.maxFileBytes }).read(file, '(file)');
    if ((total += bytes.length) > maxTotal) break;
    const doc = parseLibraryYaml(bytes.toString('utf8'));
    if (!doc.errors.length) doc.toJS();
  } catch {
    // Unreadable, over a cap, not YAML: the reader reports it.
  }
}
