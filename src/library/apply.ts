// Applies an import plan: resources first (prompts validate against them), then every
// prompt through the bulk writer. Atomicity is per prompt file: a file's versions and
// activation commit together or not at all, and one failing file never blocks the rest.
import { isDomainError, type Actor, type Core, type FieldError, type ResourceInput, type ResourceTemplateInput } from '../core/index.js';
import { planImport, planLibraryResources, planPrompts, storedOverlay, type ImportPlan, type PlanOptions, type PromptPlanItem, type ResourcePlanItem } from './plan.js';
import { libraryRoot, openLibrary, type LibraryReading, type ParsedLibrary } from './read-library.js';
import { importSalt } from './import-hashes.js';
import type { ReadLimits } from './safe-read.js';
import type { ParseAheadOptions } from './parse-ahead.js';
import { libraryOverParseCap } from './parse-cap.js';
import type { BulkOutcome } from '../core/services/bulk-import.js';

export interface ImportOptions extends PlanOptions, ReadLimits {
  dryRun?: boolean;
  actor?: Actor;
  batchSize?: number;
  /**
   * `reading` counts files, `planning` is one step, `writing` counts prompts committed.
   * An import that writes while it reads (a second thread parsing: see importLibrary)
   * reports only `writing`, counting prompt files done (written, failed or unchanged) of
   * all prompt files.
   */
  onProgress?: (done: number, total: number, phase: ImportPhase) => void;
  /** all prompt writes in one transaction: one failure leaves every prompt unwritten */
  atomic?: boolean;
  /** parse every file, even those the last import read unchanged (the hashes are still recorded) */
  reparse?: boolean;
  /** when the import started, ms since the epoch (default now; tests move it on to trust files they just wrote) */
  startedMs?: number;
  /** parsing on a second thread (parse-ahead.ts): by default for 200 files or more on a machine with 2 CPUs or more */
  parseAhead?: ParseAheadOptions;
}

export type ImportPhase = 'reading' | 'planning' | 'writing';

export interface ImportCounts {
  created: number;
  newVersion: number;
  unchanged: number;
  activated: number;
  errors: number;
  resourcesCreated: number;
  resourcesUpdated: number;
  resourcesUnchanged: number;
}

export interface ImportReport extends ImportPlan {
  dryRun: boolean;
  counts: ImportCounts;
  /** true when any file or resource failed (the CLI exits 1) */
  failed: boolean;
}

function errorsOf(e: unknown): FieldError[] {
  if (isDomainError(e)) return e.errors.length ? e.errors : [{ path: '(prompt)', message: e.message }];
  return [{ path: '(prompt)', message: e instanceof Error ? e.message : String(e) }];
}

export function countPlan(plan: ImportPlan): ImportCounts {
  const p = (a: PromptPlanItem['action']) => plan.prompts.filter((x) => x.action === a).length;
  const r = (a: ResourcePlanItem['action']) => plan.resources.filter((x) => x.action === a).length;
  return {
    created: p('create'),
    newVersion: p('new-version'),
    unchanged: p('unchanged'),
    activated: plan.prompts.filter((x) => x.action !== 'error' && x.activate !== undefined).length,
    errors: p('error') + r('error'),
    resourcesCreated: r('create'),
    resourcesUpdated: r('update'),
    resourcesUnchanged: r('unchanged'),
  };
}

async function applyResources(core: Core, items: ResourcePlanItem[], actor: Actor): Promise<void> {
  for (const item of items) {
    if (item.action !== 'create' && item.action !== 'update') continue;
    try {
      if (item.kind === 'resource') {
        const input = item.input as ResourceInput;
        if (item.action === 'create') await core.resources.create(input, actor);
        else await core.resources.update(item.id!, input, actor);
      } else {
        const input = item.input as ResourceTemplateInput;
        if (item.action === 'create') await core.resources.createTemplate(input, actor);
        else await core.resources.updateTemplate(item.id!, input, actor);
      }
    } catch (e) {
      item.action = 'error';
      item.errors = errorsOf(e).map((x) => ({ path: x.path.startsWith('(') ? item.at : `${item.at}.${x.path}`, message: x.message }));
    }
  }
}

export async function applyPlan(core: Core, plan: ImportPlan, opts: ImportOptions = {}): Promise<ImportReport> {
  const actor = opts.actor ?? { name: 'import' };
  await applyResources(core, plan.resources, actor);
  const pending = plan.prompts.filter((p) => p.write && p.action !== 'error');
  const outcomes = await core.bulk.apply(pending.map((p) => p.write!), actor, { batchSize: opts.batchSize, atomic: opts.atomic, onProgress: opts.onProgress && ((d, t) => opts.onProgress!(d, t, 'writing')) });
  settle(pending, outcomes);
  await setTags(core, plan.prompts, actor);
  const report = { ...plan, dryRun: false, counts: countPlan(plan) };
  return { ...report, failed: report.counts.errors > 0 };
}

/** The bulk writer's outcomes into the plan items they were written for. */
function settle(items: PromptPlanItem[], outcomes: BulkOutcome[]): void {
  outcomes.forEach((o, i) => {
    const item = items[i]!;
    if (!o.ok) {
      item.action = 'error';
      item.errors = errorsOf(o.error);
    } else if (!o.activated) item.activate = undefined;
  });
}

/** Tags belong to the prompt, not a version: set once its versions are in (a no-op when unchanged). */
async function setTags(core: Core, items: PromptPlanItem[], actor: Actor): Promise<void> {
  for (const item of items) {
    if (item.action === 'error' || !item.tags || !item.name) continue;
    try {
      await core.prompts.setTags(item.name, item.tags, actor);
    } catch (e) {
      item.action = 'error';
      item.errors = errorsOf(e);
    }
  }
}

/**
 * Reads, plans and (unless dryRun) applies one library directory or prompt file.
 *
 * When a second thread parses (parse-ahead.ts: 200 files or more to parse, 2 CPUs or
 * more) and the import is neither a dry run nor atomic, it writes while it reads: the
 * manifest's resources first, then the prompt files a part at a time, each batch of
 * `batchSize` writes as soon as its files are read and planned, while the worker parses
 * further. The batches, their order, the plan and the report are those of reading
 * everything first (see writeWhileReading).
 */
export async function importLibrary(core: Core, target: string, opts: ImportOptions = {}): Promise<ImportReport> {
  const { root } = libraryRoot(target);
  const recorded = await core.importHashes.load(root);
  const salt = importSalt(opts);
  const limits = { maxFileBytes: opts.maxFileBytes, maxTotalBytes: opts.maxTotalBytes };
  // Large files are parsed on a capped worker first: one over its heap is refused, never parsed here.
  const capped = await libraryOverParseCap(target, limits);
  const reading = openLibrary(target, limits, undefined,
    { salt, unchanged: opts.reparse ? new Map() : recorded.unchanged, startedMs: opts.startedMs }, opts.parseAhead ?? {}, capped);
  let report: ImportReport;
  try {
    if (reading.parallel && !opts.dryRun && !opts.atomic) report = await writeWhileReading(core, reading, opts);
    else {
      const onFile = opts.onProgress && ((d: number, t: number) => opts.onProgress!(d, t, 'reading'));
      while (reading.next()) onFile?.(reading.read, reading.files.length);
      reading.close();
      opts.onProgress?.(0, reading.lib.prompts.length, 'planning');
      const plan = await planImport(core, reading.lib, opts);
      if (opts.dryRun) {
        const counts = countPlan(plan);
        return { ...plan, dryRun: true, counts, failed: counts.errors > 0 };
      }
      report = await applyPlan(core, plan, opts);
    }
  } finally {
    reading.close();
  }
  await recordHashes(core, reading.lib, report, recorded.files);
  return report;
}

/** Fewest parsed prompts planned together while reading (each part costs a few queries). */
const MIN_PART = 50;

/**
 * applyPlan(planImport(readLibrary(…))) with the reading and the writing overlapped. What
 * keeps the result the same: the plan of a part of the files depends only on those files
 * (their names' states, which no other file's writes touch, and the stored resources
 * overlaid with what the manifest's plan writes, taken before it is applied, as planImport
 * does); prompt files are read in the order the plan sorts them, so the writes queue up in
 * the plan's order and each batch is the same `batchSize` run of writes; resources are
 * written before any prompt, tags after every prompt's versions, and the change feed hears
 * once, at the end. What differs: a read that fails for the whole import (not one file's
 * error) comes after some batches are committed, and progress counts files done.
 */
async function writeWhileReading(core: Core, reading: LibraryReading, opts: ImportOptions): Promise<ImportReport> {
  const actor = opts.actor ?? { name: 'import' };
  const { lib, files } = reading;
  const size = Math.max(1, opts.batchSize ?? 250);
  const progress = (done: number) => opts.onProgress?.(done, files.length, 'writing');
  // From here on something may be written (the manifest's resources first).
  progress(0);
  const resources = await planLibraryResources(core, lib);
  const overlay = storedOverlay(resources);
  await applyResources(core, resources, actor);
  const prompts: PromptPlanItem[] = [];
  // Planned items whose write is not committed yet, in plan order.
  const pending: PromptPlanItem[] = [];
  let planned = 0; // files planned (prompts[] holds their items)
  let taken = { prompts: 0, problems: 0, unchanged: 0 };
  const at = new Map(files.map((f, i) => [f, i]));
  // Files done: every file before the first pending write's (or every file planned).
  const settled = () => (pending.length ? at.get(pending[0]!.file)! : planned);
  const writer = core.bulk.writer(actor);
  try {
    const planPart = async () => {
      const part = {
        prompts: lib.prompts.slice(taken.prompts),
        problems: lib.problems.slice(taken.problems),
        unchanged: (lib.unchanged ?? []).slice(taken.unchanged),
      };
      taken = { prompts: lib.prompts.length, problems: lib.problems.length, unchanged: lib.unchanged?.length ?? 0 };
      planned = reading.read;
      for (const item of await planPrompts(core, part, overlay, opts)) {
        prompts.push(item);
        if (item.write && item.action !== 'error') pending.push(item);
      }
    };
    const writeBatch = async () => {
      const batch = pending.splice(0, size);
      settle(batch, await writer.write(batch.map((p) => p.write!)));
      progress(settled());
      await writer.pause();
    };
    // Plan a part once it may fill the batch being formed (and not for every file when
    // most plan to no write), write every full batch.
    while (reading.next()) {
      const unplanned = lib.prompts.length - taken.prompts;
      if (unplanned + pending.length < size || unplanned < Math.min(size, MIN_PART)) continue;
      await planPart();
      while (pending.length >= size) await writeBatch();
    }
    reading.close();
    await planPart();
    while (pending.length) await writeBatch();
  } finally {
    await writer.end();
  }
  progress(files.length);
  await setTags(core, prompts, actor);
  const plan: ImportPlan = { root: lib.root, resources, prompts };
  const report = { ...plan, dryRun: false, counts: countPlan(plan) };
  return { ...report, failed: report.counts.errors > 0 };
}

/** What this import read, for the next one; the rows of failed and vanished files go. */
async function recordHashes(core: Core, lib: ParsedLibrary, report: ImportReport, recorded: Set<string>): Promise<void> {
  const byFile = new Map(lib.prompts.map((p) => [p.file, p]));
  const sources = [];
  const drop: string[] = [];
  for (const item of report.prompts) {
    const source = byFile.get(item.file)?.source;
    if (item.action === 'error' || !item.name) {
      if (recorded.has(item.file)) drop.push(item.file);
    } else if (source) {
      const latest = item.creates?.length ? item.creates.at(-1)! : item.latest!;
      sources.push({ file: item.file, name: item.name, latest, ...source });
    }
  }
  for (const u of lib.unchanged ?? []) if (u.restat) sources.push({ file: u.file, name: u.name, latest: u.latest, ...u.restat });
  // A directory import saw every file: rows of files that are gone (deleted, renamed) go too.
  if (lib.files) {
    const present = new Set(lib.files);
    for (const f of recorded) if (!present.has(f)) drop.push(f);
  }
  await core.importHashes.record(lib.root, sources, drop);
}