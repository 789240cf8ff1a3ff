// The worker of format-read-off-thread.ts: converts each file with its format, saying
// which file it is on before starting it (so a worker stopped at its memory cap names
// the file) and posting each file's result as soon as it has it.
import { parentPort, workerData } from 'node:worker_threads';
import { FORMATS, type FormatId, type SourceFile } from './formats/index.js';

const { jobs, progress } = workerData as { jobs: { id: FormatId; file: SourceFile }[]; progress: Int32Array };
jobs.forEach((job, i) => {
  Atomics.store(progress, 0, i);
  parentPort!.postMessage({ i, result: FORMATS[job.id].read([job.file]) });
});
