// The worker of parse-ahead.ts: goes forward through the prompt files, parsing each one
// it can claim (the reader's thread claims the others), posting each clean result in
// small batches with its size (and, when the import records hashes, its hash and stat
// fingerprint), at once when the reader asks for one it holds. A file with a problem,
// or one that reads media files, is left to the reader: its errors and reads are then
// exactly those of one thread.
import { workerData, type MessagePort } from 'node:worker_threads';
import { parseAheadOne } from './read-library.js';
import { createLibraryReader, type ReadLimits } from './safe-read.js';
import { DONE, FLUSH, FREE, LEFT, POSTED, STOP, WORKER, type AheadHashing, type ParsedAhead } from './parse-ahead.js';

const { root, files, limits, hashing, port, state, control } = workerData as {
  root: string; files: string[]; limits: ReadLimits; hashing?: AheadHashing; port: MessagePort; state: Int32Array; control: Int32Array;
};

const reader = createLibraryReader(root, limits);
let batch: ParsedAhead[] = [];
let held: number[] = [];
const post = () => {
  if (batch.length) port.postMessage(batch);
  // Posted first, then marked: a reader that sees POSTED finds the message on its port.
  for (const i of held) {
    Atomics.store(state, i, POSTED);
    Atomics.notify(state, i);
  }
  batch = [];
  held = [];
};
for (let i = 0; i < files.length && !Atomics.load(control, STOP); i++) {
  if (Atomics.load(state, i) !== FREE || Atomics.compareExchange(state, i, FREE, WORKER) !== FREE) continue;
  let got: ParsedAhead | undefined;
  try {
    got = parseAheadOne(reader, files[i]!, hashing);
  } catch {
    got = undefined; // the reader meets the same problem and reports it
  }
  if (got) {
    batch.push(got);
    held.push(i);
  } else {
    Atomics.store(state, i, LEFT);
    Atomics.notify(state, i);
  }
  if (batch.length >= 25 || Atomics.load(control, FLUSH)) {
    Atomics.store(control, FLUSH, 0);
    post();
  }
}
post();
port.close();
Atomics.store(control, DONE, 1);
Atomics.notify(control, DONE);
