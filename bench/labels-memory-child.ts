// One measurement of bench/labels-memory.ts, in its own process: opens a core on the
// database, loads the given label views of the served catalog, runs a full GC and
// prints heap, the live bytes of the catalog's document arena (outside the heap,
// src/core/catalog-docs.ts; `held` = heap + array buffers (the name indexes' ids) + arena)
// and RSS (MiB) as JSON on the last line.
import v8 from 'node:v8';
import vm from 'node:vm';
import { openStore } from '../src/db/store.js';
import { createCore } from '../src/core/index.js';

const [url, labelList] = process.argv.slice(2) as [string, string];
const labels = labelList.split(',').filter(Boolean);
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;
const core = await createCore({ store: await openStore(url) });
const measure = () => {
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  const arena = core.catalog.stats().docs.liveBytes;
  return { heapUsed: m.heapUsed / MiB, external: m.external / MiB, held: (m.heapUsed + m.arrayBuffers + arena) / MiB, rss: m.rss / MiB };
};

const before = measure();
for (const l of labels) await (await core.catalog.open(l)).ready();
const after = measure();
const sizes = Object.fromEntries(labels.map((l) => [l, core.catalog.view(l).size()]));
process.stdout.write(`${JSON.stringify({ labels, sizes, stats: core.catalog.stats(), before, after })}\n`);
await core.close();
process.exit(0);
