// Memory of the served catalog under release labels (issue 16): N prompts served
// under production alone, against the same N under production and staging where
// staging points at the production version for all but a share of the prompts
// (which have a newer version under staging). Each measurement runs in a fresh
// process after a full GC; the catalog's cost is the heap (and RSS) growth from
// loading the views.
//   npx tsx bench/labels-memory.ts [prompts=50000] [staged-share=0.05]
import path from 'node:path';
import { createDb } from '../src/db/create-db.js';
import { populate, promptTemplate } from './lib/fixture.js';
import { removeTempDirs, runTsJson, tempDir } from './lib/proc.js';

const n = Number(process.argv[2] ?? 50_000);
const share = Number(process.argv[3] ?? 0.05);
const log = (s: string) => process.stderr.write(`${s}\n`);

interface Sample {
  labels: string[];
  sizes: Record<string, number>;
  stats: { views: number; versions: number };
  before: { heapUsed: number; external: number; held: number; rss: number };
  after: { heapUsed: number; external: number; held: number; rss: number };
}

async function addStaging(url: string): Promise<number> {
  const db = await createDb(url);
  const now = new Date().toISOString().replace('Z', '+00:00');
  const staged = Math.round(n * share);
  try {
    await db.prisma.$transaction(async (tx) => {
      // Every `1/share`-th prompt gets a version 2, which staging points at.
      const step = Math.max(1, Math.round(1 / share));
      const ids = Array.from({ length: staged }, (_, k) => 1 + k * step).filter((id) => id <= n);
      for (let i = 0; i < ids.length; i += 2_000) {
        const part = ids.slice(i, i + 2_000);
        const v = (id: number) => n + id; // version ids after the fixture's
        const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
        await tx.$executeRawUnsafe(`INSERT INTO "PromptVersion" ("id", "promptId", "number", "description", "author", "note", "createdAt") VALUES ${part.map((id) => `(${v(id)}, ${id}, 2, 'staged ${id}', 'bench', 'v2', ${q(now)})`).join(', ')}`);
        await tx.$executeRawUnsafe(`INSERT INTO "PromptArgument" ("versionId", "position", "name", "description", "required") VALUES ${part.map((id) => `(${v(id)}, 0, 'who', 'who', 1)`).join(', ')}`);
        await tx.$executeRawUnsafe(`INSERT INTO "PromptMessage" ("versionId", "position", "role", "type", "text") VALUES ${part.map((id) => `(${v(id)}, 0, 'user', 'text', ${q(`${promptTemplate(id - 1)} (v2)`)})`).join(', ')}`);
        await tx.$executeRawUnsafe(`UPDATE "Prompt" SET "latestVersion" = 2 WHERE "id" IN (${part.join(', ')})`);
      }
      await tx.$executeRawUnsafe(`INSERT INTO "PromptLabel" ("promptId", "name", "versionId", "updatedAt")
        SELECT p."id", 'staging', COALESCE((SELECT v."id" FROM "PromptVersion" v WHERE v."promptId" = p."id" AND v."number" = 2), p."activeVersionId"), ${q2(now)} FROM "Prompt" p`);
    }, { timeout: 600_000, maxWait: 60_000 });
    return staged;
  } finally {
    await db.close();
  }
}
const q2 = (s: string) => `'${s}'`;

const url = `file:${path.join(tempDir(), 'labels.db')}`;
log(`populating ${n} prompts…`);
await populate(url, n);
const staged = await addStaging(url);
log(`staging: all ${n} prompts, ${staged} of them at a newer version`);

const run = (labels: string) => runTsJson<Sample>('labels-memory-child.ts', [url, labels], 600_000);
const results: Record<string, Sample[]> = { one: [], two: [] };
for (let i = 0; i < 3; i++) {
  results.one!.push(await run('production'));
  results.two!.push(await run('production,staging'));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
type Key = 'heapUsed' | 'held' | 'rss';
const grow = (s: Sample[], k: Key) => median(s.map((x) => x.after[k] - x.before[k]));
const total = (s: Sample[], k: Key) => median(s.map((x) => x.after[k]));
const row = (name: string, s: Sample[]) =>
  `| ${name} | ${s[0]!.stats.versions} | ${grow(s, 'held').toFixed(1)} | ${grow(s, 'heapUsed').toFixed(1)} | ${total(s, 'held').toFixed(1)} | ${grow(s, 'rss').toFixed(1)} | ${total(s, 'rss').toFixed(1)} |`;
const out = [
  `Served catalog memory, ${n} prompts, staging = production except ${staged} prompts (${(share * 100).toFixed(0)}%) at a newer version; median of 3 fresh processes, MiB.`,
  '',
  '| views loaded | versions held | heap + documents growth | of it heap | heap + documents total | RSS growth | RSS total |',
  '|---|---|---|---|---|---|---|',
  row('production', results.one!),
  row('production + staging', results.two!),
  '',
  `ratio (two labels / one), heap + documents growth (documents live outside the heap, counted by their bytes): ${(grow(results.two!, 'held') / grow(results.one!, 'held')).toFixed(3)}; heap growth alone: ${(grow(results.two!, 'heapUsed') / grow(results.one!, 'heapUsed')).toFixed(3)}; heap + documents total: ${(total(results.two!, 'held') / total(results.one!, 'held')).toFixed(3)}; RSS growth: ${(grow(results.two!, 'rss') / grow(results.one!, 'rss')).toFixed(3)}; RSS total: ${(total(results.two!, 'rss') / total(results.one!, 'rss')).toFixed(3)}`,
];
process.stdout.write(`${out.join('\n')}\n`);
removeTempDirs();
process.exit(0);
