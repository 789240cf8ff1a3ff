// The worker of parse-ahead.ts: reads and parses the files from the last one backwards
// until it meets the reader, posting what parsed cleanly in small batches.
import { workerData, type MessagePort } from 'node:worker_threads';
import YAML from 'yaml';
import { createLibraryReader, type ReadLimits } from './safe-read.js';
import { YAML_OPTIONS, isPlainData } from './yaml-options.js';
import type { ParsedAhead } from './parse-ahead.js';

const { root, files, limits, port, progress } = workerData as { root: string; files: string[]; limits: ReadLimits; port: MessagePort; progress: Int32Array };
const reader = createLibraryReader(root, limits);
let batch: ParsedAhead[] = [];
for (let i = files.length - 1; i > Atomics.load(progress, 0); i--) {
  const file = files[i]!;
  try {
    const text = reader.read(file, '(file)').toString('utf8');
    const doc = YAML.parseDocument(text, YAML_OPTIONS);
    if (doc.errors.length) continue;
    const value: unknown = doc.toJS();
    if (isPlainData(value)) batch.push({ file, text, value });
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
