// `promptd sync <dir>` (docs/formats.md, "A directory as the source of truth"): the
// directory's prompt files are read with the import readers, planned and written like
// an import (one transaction per sync run), and prompts an earlier sync wrote whose
// file is gone are archived. What each sync wrote is recorded in the database
// (core.syncState), so a prompt whose latest version moved on since (an edit in the
// UI or the API) is reported as a conflict instead of being overwritten.
import { realpathSync } from 'node:fs';
import { isDomainError, type Actor, type Core } from '../core/index.js';
import type { SyncRecord, SyncState } from '../core/services/sync-state.js';
import { applyPlan } from './apply.js';
import { collectFormatFiles, toParsedLibrary } from './format-import.js';
import { recordFormatMeta } from './format-meta.js';
import type { FormatId, FormatWarning } from './formats/index.js';
import { planImport, type PlanOptions, type PromptPlanItem } from './plan.js';
import type { ReadLimits } from './safe-read.js';

export interface SyncOptions extends PlanOptions, ReadLimits {
  format?: FormatId | 'auto';
  actor?: Actor;
  /** the files win over edits made since the last sync (no conflicts) */
  force?: boolean;
}

export interface SyncConflict {
  name: string;
  file: string;
  /** the version the last sync recorded, and the prompt's latest now */
  synced: number;
  latest: number | null;
  message: string;
}

export interface SyncReport {
  dir: string;
  format: FormatId | 'auto';
  /** created, new-version, unchanged and error items (conflicts are not among them) */
  prompts: PromptPlanItem[];
  conflicts: SyncConflict[];
  /** prompts archived because their file was deleted */
  archived: string[];
  /** prompts an earlier sync archived whose file is back */
  unarchived: string[];
  warnings: FormatWarning[];
  skipped: string[];
  /** true when any file failed or any conflict was found */
  failed: boolean;
}

const actorOf = (opts: SyncOptions): Actor => opts.actor ?? { name: 'sync' };

function conflict(name: string, rec: SyncRecord, latest: number | null, what: string): SyncConflict {
  const now = latest === null ? 'deleted' : `now v${latest}`;
  return {
    name, file: rec.file, synced: rec.version, latest,
    message: `${what} since the last sync (synced v${rec.version}, ${now}); ${what === 'edited' ? 'not overwritten' : 'left alone'}. `
      + `Resolve by copying the change into ${rec.file} (promptd export) or by running sync with --force to let the file win`,
  };
}

/** One sync of `dir`: read, plan, write (one transaction), archive what was deleted, record. */
export async function syncOnce(core: Core, dir: string, opts: SyncOptions = {}): Promise<SyncReport> {
  const abs = realpathSync(dir);
  const format = opts.format ?? 'auto';
  const collected = collectFormatFiles(abs, format, { maxFileBytes: opts.maxFileBytes, maxTotalBytes: opts.maxTotalBytes });
  const { lib, warnings, skipped } = await toParsedLibrary(abs, collected.files, format, collected.problems);
  const state = await core.syncState.load(abs);
  const plan = await planImport(core, lib, opts);

  const conflicts: SyncConflict[] = [];
  const kept: PromptPlanItem[] = [];
  for (const item of plan.prompts) {
    const rec = item.name !== undefined ? state.prompts[item.name] : undefined;
    const writesVersions = item.action === 'new-version' || item.action === 'create';
    // `create` with a record: the prompt was deleted since the sync wrote it.
    const latest = item.action === 'create' ? null : (item.latest ?? null);
    if (rec && writesVersions && latest !== rec.version && !opts.force) {
      conflicts.push(conflict(item.name!, rec, latest, latest === null ? 'deleted' : 'edited'));
    } else if (rec && item.action === 'unchanged' && item.latest === rec.version && !opts.force) {
      // Nothing changed on either side since the last sync: a label someone moved in the
      // UI since (a rollback) stays where they put it.
      const { write: _w, activate: _a, labels: _l, ...rest } = item;
      kept.push(rest);
    } else kept.push(item);
  }
  const report = await applyPlan(core, { root: abs, resources: [], prompts: kept }, { actor: actorOf(opts), atomic: true });
  await recordFormatMeta(core, lib.prompts, report.prompts);

  const next: SyncState = { prompts: { ...state.prompts } };
  const unarchived: string[] = [];
  for (const item of report.prompts) {
    if (item.action === 'error' || item.name === undefined) continue;
    const version = item.creates?.length ? item.creates.at(-1)! : item.latest!;
    if (state.prompts[item.name]?.archived) {
      await core.prompts.update(item.name, { archived: false }, actorOf(opts));
      unarchived.push(item.name);
    }
    next.prompts[item.name] = { file: item.file, version };
  }

  // A file that exists but could not be read is not a deletion.
  const present = new Set([...lib.prompts.map((p) => p.name), ...conflicts.map((c) => c.name)]);
  const unreadable = new Set(plan.prompts.filter((p) => p.action === 'error').map((p) => p.file));
  const archived: string[] = [];
  for (const [name, rec] of Object.entries(state.prompts)) {
    if (present.has(name) || unreadable.has(rec.file) || rec.archived) continue;
    let latest: number;
    try {
      latest = (await core.prompts.get(name)).latestVersion;
    } catch (e) {
      if (!isDomainError(e) || e.code !== 'not_found') throw e;
      delete next.prompts[name]; // deleted in the database too: nothing left to follow
      continue;
    }
    if (latest !== rec.version && !opts.force) {
      conflicts.push(conflict(name, rec, latest, 'edited'));
      continue;
    }
    try {
      await core.prompts.update(name, { archived: true }, actorOf(opts));
    } catch (e) {
      // Served prompts still include it (docs/contracts.md#includes): kept, reported, retried next sync.
      if (!isDomainError(e) || e.code !== 'conflict') throw e;
      conflicts.push({ name, file: rec.file, synced: rec.version, latest, message: `${rec.file} was deleted but ${e.message}` });
      continue;
    }
    next.prompts[name] = { ...rec, version: latest, archived: true };
    archived.push(name);
  }
  await core.syncState.save(abs, next);
  conflicts.sort((a, b) => (a.name < b.name ? -1 : 1));
  return {
    dir: abs, format, prompts: report.prompts, conflicts, archived, unarchived,
    warnings: [...collected.warnings, ...warnings], skipped,
    failed: report.failed || conflicts.length > 0,
  };
}
