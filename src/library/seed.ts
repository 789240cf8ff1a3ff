// The seed library (<projectRoot>/seed): loaded into an empty database on first
// start, and on demand by `promptd seed`, which fills in what is missing and never
// replaces a team's work without --force.
import path from 'node:path';
import type { Core } from '../core/index.js';
import { projectRoot } from '../paths.js';
import { applyPlan, countPlan, type ImportOptions, type ImportReport } from './apply.js';
import { readLibrary } from './read-library.js';
import { planImport } from './plan.js';

export const seedDir = path.join(projectRoot, 'seed');
const actor = { name: 'seed' };

export interface SeedSkip {
  kind: 'prompt' | 'resource' | 'template';
  name: string;
  /** why it was left alone, e.g. "v2 is by import" */
  reason: string;
}

export interface SeedReport extends ImportReport {
  /** what the seed would have changed but belongs to someone else now (empty with force) */
  skipped: SeedSkip[];
}

/** The newest version of `name` not written by the seed, or undefined when every version is the seed's. */
async function notSeeded(core: Core, name: string): Promise<{ version: number; author: string | null } | undefined> {
  let cursor: string | undefined;
  do {
    const page = await core.prompts.listVersions(name, { limit: 100, cursor });
    const other = page.items.find((v) => v.author !== actor.name);
    if (other) return other;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return undefined;
}

/**
 * `promptd seed`: creates the seed prompts that do not exist and serves them, and
 * brings up to date those whose every version is the seed's. A prompt someone else
 * gave a version (an import, the admin UI) is served as they left it: reverting it
 * to the seed's text in production took their edit away. Stored resources that
 * differ from the seed's are left alone too. `force` replaces both. Running it twice
 * changes nothing.
 */
export async function seedLibrary(core: Core, opts: Pick<ImportOptions, 'dryRun' | 'onProgress'> & { force?: boolean } = {}): Promise<SeedReport> {
  const plan = await planImport(core, readLibrary(seedDir), { activate: true });
  const skipped: SeedSkip[] = [];
  if (!opts.force) {
    const keep = [];
    for (const p of plan.prompts) {
      const changes = p.action === 'new-version' || (p.action === 'unchanged' && p.activate !== undefined);
      const other = changes && p.name ? await notSeeded(core, p.name) : undefined;
      if (other) skipped.push({ kind: 'prompt', name: p.name!, reason: `v${other.version} is by ${other.author ?? 'someone else'}` });
      else keep.push(p);
    }
    plan.prompts = keep;
    for (const r of plan.resources.filter((x) => x.action === 'update')) skipped.push({ kind: r.kind, name: r.key, reason: 'the stored one differs from the seed\'s' });
    plan.resources = plan.resources.filter((x) => x.action !== 'update');
  }
  if (opts.dryRun) {
    const counts = countPlan(plan);
    return { ...plan, dryRun: true, counts, failed: counts.errors > 0, skipped };
  }
  return { ...(await applyPlan(core, plan, { actor, onProgress: opts.onProgress })), skipped };
}

/**
 * Returns the number of prompts loaded; 0 when the database already had prompts.
 * The seed is checked whole before anything is written, so a broken seed never leaves
 * a half-seeded database (which the next start would then consider not empty).
 */
export async function seedIfEmpty(core: Core): Promise<number> {
  const page = await core.prompts.list({ limit: 1 });
  if (page.items.length) return 0;
  const plan = await planImport(core, readLibrary(seedDir), { activate: true });
  const bad = [...plan.resources, ...plan.prompts].filter((x) => x.action === 'error');
  if (bad.length) {
    const lines = bad.flatMap((x) => (x.errors ?? []).map((e) => `  ${'file' in x ? x.file : x.at}: ${e.path}: ${e.message}`));
    throw new Error(`the seed library in ${seedDir} is invalid; nothing was loaded:\n${lines.join('\n')}`);
  }
  const report = await applyPlan(core, plan, { actor });
  if (report.failed) throw new Error(`loading the seed library failed for ${report.counts.errors} item(s)`);
  return report.counts.created;
}
