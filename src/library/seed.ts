// The seed library (<projectRoot>/seed): loaded into an empty database on first
// start, and on demand by `promptd seed` (an idempotent import with activation).
import path from 'node:path';
import type { Core } from '../core/index.js';
import { projectRoot } from '../paths.js';
import { applyPlan, importLibrary, type ImportOptions, type ImportReport } from './apply.js';
import { readLibrary } from './read-library.js';
import { planImport } from './plan.js';

export const seedDir = path.join(projectRoot, 'seed');
const actor = { name: 'seed' };

/** `promptd seed`: imports seed/ and serves every seed prompt. Running it twice changes nothing. */
export function seedLibrary(core: Core, opts: Omit<ImportOptions, 'activate' | 'actor'> = {}): Promise<ImportReport> {
  return importLibrary(core, seedDir, { ...opts, activate: true, actor });
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
