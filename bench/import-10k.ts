// Bench: generates 10,000 prompt files and times `promptd import` into a fresh SQLite
// database, then a second import of the same files (everything unchanged).
//
//   npm run build:server && npx tsx bench/import-10k.ts [count] [--in-process] [--keep] [--postgres] [--library DIR]
//
// --postgres imports into a throwaway PostgreSQL database (PROMPTD_BENCH_PG_URL);
// --library DIR reuses a generated library. On a shared machine wall time follows
// the load; /usr/bin/time around `promptd import` gives CPU time too (bench/history.md).
//
// --in-process calls the importer directly instead of spawning bin/promptd.js (to
// profile it, or when the CLI cannot be built).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempPg } from './lib/pg.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 10_000);
const inProcess = process.argv.includes('--in-process');
const onPg = process.argv.includes('--postgres');
const libArg = process.argv.indexOf('--library');

function generate(dir: string, n: number): void {
  mkdirSync(path.join(dir, 'prompts'), { recursive: true });
  mkdirSync(path.join(dir, 'resources'), { recursive: true });
  const levels = ['low', 'medium', 'high'];
  writeFileSync(path.join(dir, 'resources.yaml'), `resources:\n${levels.map((l) => `  - uri: notes://level/${l}\n    name: level-${l}\n    mimeType: text/plain\n    file: resources/${l}.txt\n`).join('')}`);
  for (const l of levels) writeFileSync(path.join(dir, 'resources', `${l}.txt`), `Guidance for ${l} effort.\n`);
  for (let i = 0; i < n; i++) {
    const name = `bench-${String(i).padStart(5, '0')}`;
    // A realistic mix: two arguments, sections for the optional one, and every third
    // prompt binds a resource through a URI template.
    const bind = i % 3 === 0 ? '  - role: user\n    resource: notes://level/{level}\n' : '';
    writeFileSync(path.join(dir, 'prompts', `${name}.yaml`), `name: ${name}
title: Bench prompt ${i}
description: Generated prompt number ${i} for the import benchmark.
arguments:
  - name: level
    description: How much effort to spend.
    required: true
    choices: [${levels.join(', ')}]
  - name: topic
    description: What to write about.
messages:
  - role: user
    text: |
      Write about {{#topic}}{{topic}}{{/topic}}{{^topic}}anything{{/topic}} with {{level}} effort (#${i}).
  - role: assistant
    text: Understood.
${bind}`);
  }
}

async function timeImport(dir: string, dbUrl: string): Promise<number> {
  const t0 = performance.now();
  if (inProcess) {
    const { openStore } = await import('../src/db/store.js');
    const { createCore } = await import('../src/core/index.js');
    const { importLibrary } = await import('../src/library/apply.js');
    const core = await createCore({ store: await openStore(dbUrl) });
    const r = await importLibrary(core, dir, { activate: true });
    await core.close();
    if (r.failed) throw new Error(`import failed: ${JSON.stringify(r.counts)}`);
  } else {
    const res = spawnSync(process.execPath, [path.join(root, 'bin/promptd.js'), '--database-url', dbUrl, 'import', dir, '--activate', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`promptd import exited ${res.status}: ${res.stdout}`);
    process.stdout.write(`  ${res.stdout.trim()}\n`);

  }
  return (performance.now() - t0) / 1000;
}

if (!inProcess && !existsSync(path.join(root, 'dist/cli/main.js'))) {
  console.error('dist/ is missing: run `npm run build:server` first (or pass --in-process)');
  process.exit(2);
}
const tmp = mkdtempSync(path.join(os.tmpdir(), 'pd-bench-'));
const lib = libArg > 0 ? path.resolve(process.argv[libArg + 1]!) : path.join(tmp, 'library');
if (libArg < 0) {
  const t0 = performance.now();
  generate(lib, count);
  console.log(`generated ${count} prompt files in ${((performance.now() - t0) / 1000).toFixed(1)} s (${lib})`);
  // Files written less than FRESH_MS before an import are hashed, not trusted by their
  // stat (src/library/import-hashes.ts); a library is rarely imported the second it was
  // written, so the bench waits that out to measure what a re-import usually costs.
  const { FRESH_MS } = await import('../src/library/import-hashes.js');
  await new Promise((r) => setTimeout(r, FRESH_MS + 200));
}

const pg = onPg ? await createTempPg() : null;
if (onPg && !pg) throw new Error('no PostgreSQL at PROMPTD_BENCH_PG_URL');
const dbUrl = pg ? pg.url : `file:${path.join(tmp, 'bench.db')}`;
const { migrateDatabase } = await import('../src/db/create-db.js');
await migrateDatabase(dbUrl);

const first = await timeImport(lib, dbUrl);
console.log(`import into an empty database: ${first.toFixed(1)} s, ${Math.round(count / first)} prompts/s (${inProcess ? 'in process' : 'promptd import, incl. process start'})`);
for (let i = 0; i < 3; i++) {
  const again = await timeImport(lib, dbUrl);
  console.log(`re-import, all unchanged:      ${again.toFixed(2)} s, ${Math.round(count / again)} prompts/s`);
}
await pg?.drop();
if (!process.argv.includes('--keep')) rmSync(tmp, { recursive: true, force: true });
