// Preload (node --require) that prints the main thread's own CPU time (user + sys, from
// /proc/thread-self/stat, Linux) to stderr when the process exits: `main-cpu=1.23`.
// With a worker sharing the work, the main thread's CPU is the import's critical path
// on a machine with a free second CPU; /usr/bin/time gives all threads together.
const { isMainThread } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
if (isMainThread) {
  process.on('exit', () => {
    try {
      const f = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
      const ticks = Number(f[11]) + Number(f[12]); // utime, stime (fields 14, 15)
      process.stderr.write(`main-cpu=${(ticks / 100).toFixed(2)}\n`);
    } catch {}
  });
}
