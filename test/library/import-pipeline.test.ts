// An import that writes while it reads (src/library/apply.ts writeWhileReading: the
// parse-ahead worker parses further while the main thread plans and writes each batch)
// gives what reading everything first gives: the same report, item for item and in order,
// the same rows and change events (so the same batches), the same per-file errors, a
// failed batch retried one prompt per transaction, and progress that counts files done.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../helpers/db.js';
import { importLibrary, type ImportOptions, type ImportPhase, type ImportReport } from '../../src/library/apply.js';
import { exportLibrary } from '../../src/library/export.js';
import { freshCore, tempDir, writeFiles } from './helpers.js';

const COUNT = 120;
const name = (i: number) => `p-${String(i).padStart(4, '0')}`;
// Every tenth prompt includes the one before it and tests that it says "part" (the check
// gate looks includes up per batch: batch boundaries are observable); every third binds a
// resource of the manifest; every seventh has tags.
const prompt = (i: number, text = i % 10 === 9 ? `{{> ${name(i - 1)}}} whole ${i}` : `part ${i}`) =>
  `name: ${name(i)}\n${i % 7 === 0 ? 'tags: [t7, odd]\n' : ''}messages:\n  - role: user\n    text: "${text}"\n` +
  (i % 3 === 0 ? '  - role: user\n    resource: notes://level/low\n' : '') +
  (i % 10 === 9 ? 'tests:\n  - name: says part\n    expect:\n      - contains: part\n' : '');

function library(): string {
  const files: Record<string, string> = {
    'resources.yaml': 'resources:\n  - uri: notes://level/low\n    name: low\n    mimeType: text/plain\n    text: Low effort.\n',
    ...Object.fromEntries(Array.from({ length: COUNT }, (_, i) => [`prompts/${name(i)}.yaml`, prompt(i)])),
    // Files that fail on their own, among the others: YAML, schema, a second file of one name, a missing resource.
    'prompts/p-0013-bad.yaml': 'name: p-0013-bad\nmessages: [\n',
    'prompts/p-0042-schema.yaml': 'name: p-0042-schema\nmessages:\n  - role: robot\n    text: hi\n',
    'prompts/p-0077-dup.yaml': prompt(76).replace(name(76), name(77)).replace(`name: ${name(77)}`, `name: ${name(76)}`),
    'prompts/p-0101-nores.yaml': 'name: p-0101-nores\nmessages:\n  - role: user\n    resource: notes://nowhere/at-all\n',
  };
  return writeFiles(tempDir('pd-pipe-'), files);
}

// The worker on (minFiles 1: the pipelined path) or off (no thread: read, plan, then write).
const PIPELINED = { parseAhead: { minFiles: 1 } };
const SEQUENTIAL = { parseAhead: { minFiles: Number.MAX_SAFE_INTEGER } };

const cores: TestCore[] = [];
afterEach(async () => {
  for (const c of cores.splice(0)) await c.close();
});

async function run(dir: string, opts: ImportOptions): Promise<{ core: TestCore; report: ImportReport; phases: [number, number, ImportPhase][] }> {
  const core = await freshCore();
  cores.push(core);
  const phases: [number, number, ImportPhase][] = [];
  const report = await importLibrary(core, dir, { activate: true, batchSize: 7, onProgress: (d, t, p) => phases.push([d, t, p]), ...opts });
  return { core, report, phases };
}

/** What the database holds: every version exported, and the change events in order (times left out). */
async function contents(core: TestCore) {
  const out = tempDir('pd-pipe-out-');
  await exportLibrary(core, out, { allVersions: true });
  const files = Object.fromEntries(readdirSync(path.join(out, 'prompts')).sort().map((f) => [f, readFileSync(path.join(out, 'prompts', f), 'utf8')]));
  const events = (await core.db.prisma.changeEvent.findMany({ orderBy: { id: 'asc' } })).map(({ action, entity, entityKey, served, details }) => ({ action, entity, entityKey, served, details }));
  return { files, events };
}

const parallel = availableParallelism() >= 2;

describe.skipIf(!parallel)('an import that writes while it reads', () => {
  it('reports, writes and fails exactly as reading everything first, batch for batch', async () => {
    const dir = library();
    const a = await run(dir, SEQUENTIAL);
    const b = await run(dir, PIPELINED);
    expect(b.report).toEqual(a.report);
    expect(a.report.counts).toMatchObject({ created: COUNT, errors: 4 });
    expect(a.report.prompts.filter((p) => p.action === 'error').map((p) => p.file)).toEqual([
      'prompts/p-0013-bad.yaml', 'prompts/p-0042-schema.yaml', 'prompts/p-0077-dup.yaml', 'prompts/p-0101-nores.yaml',
    ]);
    expect(await contents(b.core)).toEqual(await contents(a.core));
    expect((await b.core.prompts.get(name(7))).tags).toEqual(['odd', 't7']);

    // Progress: the sequential import reads, plans, then counts writes; the pipelined one
    // counts files done, never backwards, after every batch, ending at all of them.
    expect(new Set(a.phases.map((p) => p[2]))).toEqual(new Set(['reading', 'planning', 'writing']));
    const files = COUNT + 4;
    expect(b.phases.every(([, t, p]) => p === 'writing' && t === files)).toBe(true);
    expect(b.phases[0]![0]).toBe(0);
    expect(b.phases.at(-1)![0]).toBe(files);
    expect(b.phases.every(([d], i) => i === 0 || d >= b.phases[i - 1]![0])).toBe(true);
    expect(b.phases.length).toBeGreaterThanOrEqual(Math.ceil(COUNT / 7));
  });

  it('a batch that fails is retried one prompt per transaction: only the culprit is left unwritten', async () => {
    const dir = library();
    const a = await run(dir, SEQUENTIAL);
    const b = await run(dir, PIPELINED);
    // Every fifth prompt changes; p-0048 no longer says "part", which its includer
    // p-0049 tests: the check gate refuses p-0048's batch, and then p-0048 alone.
    for (let i = 0; i < COUNT; i += 5) writeFileSync(path.join(dir, `prompts/${name(i)}.yaml`), prompt(i, `part ${i}, again`));
    writeFileSync(path.join(dir, `prompts/${name(48)}.yaml`), prompt(48, 'nothing left'));
    const again = { activate: true, batchSize: 7 };
    const ra = await importLibrary(a.core, dir, { ...again, ...SEQUENTIAL });
    const rb = await importLibrary(b.core, dir, { ...again, ...PIPELINED });
    expect(rb).toEqual(ra);
    const failed = rb.prompts.filter((p) => p.action === 'error' && p.name === name(48));
    expect(failed.map((p) => p.errors!.map((e) => e.path))).toEqual([[`${name(49)}@1.tests[0]`]]);
    expect(rb.counts).toMatchObject({ newVersion: COUNT / 5 });
    expect((await b.core.prompts.get(name(48))).latestVersion).toBe(1);
    // The others of its batch (p-0045, p-0050: batches of 7 writes) are in.
    expect((await b.core.prompts.get(name(45))).latestVersion).toBe(2);
    expect((await b.core.prompts.get(name(50))).activeVersion).toBe(2);
    expect(await contents(b.core)).toEqual(await contents(a.core));
  });

  it('a dry run and an atomic import read everything first', async () => {
    const dir = library();
    const dry = await run(dir, { ...PIPELINED, dryRun: true });
    expect(new Set(dry.phases.map((p) => p[2]))).toEqual(new Set(['reading', 'planning']));
    const atomic = await run(dir, { ...PIPELINED, atomic: true });
    expect(new Set(atomic.phases.map((p) => p[2]))).toEqual(new Set(['reading', 'planning', 'writing']));
    expect(atomic.phases.filter((p) => p[2] === 'writing')).toEqual([[COUNT, COUNT, 'writing']]); // one transaction
  });
});
