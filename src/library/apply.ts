// Applies an import plan: resources first (prompts validate against them), then every
// prompt through the bulk writer. Atomicity is per prompt file: a file's versions and
// activation commit together or not at all, and one failing file never blocks the rest.
import { isDomainError, type Actor, type Core, type FieldError, type ResourceInput, type ResourceTemplateInput } from '../core/index.js';
import { planImport, type ImportPlan, type PlanOptions, type PromptPlanItem, type ResourcePlanItem } from './plan.js';
import { libraryRoot, readLibrary, type ParsedLibrary } from './read-library.js';
import { importSalt } from './import-hashes.js';
import type { ReadLimits } from './safe-read.js';
import type { ParseAheadOptions } from './parse-ahead.js';

export interface ImportOptions extends PlanOptions, ReadLimits {
  dryRun?: boolean;
  actor?: Actor;
  batchSize?: number;
  /** `reading` counts files, `planning` is one step, `writing` counts prompts committed */
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
  outcomes.forEach((o, i) => {
    const item = pending[i]!;
    if (!o.ok) {
      item.action = 'error';
      item.errors = errorsOf(o.error);
    } else if (!o.activated) item.activate = undefined;
  });
  // Tags belong to the prompt, not a version: set once its versions are in (a no-op when unchanged).
  for (const item of plan.prompts) {
    if (item.action === 'error' || !item.tags || !item.name) continue;
    try {
      await core.prompts.setTags(item.name, item.tags, actor);
    } catch (e) {
      item.action = 'error';
      item.errors = errorsOf(e);
    }
  }
  const report = { ...plan, dryRun: false, counts: countPlan(plan) };
  return { ...report, failed: report.counts.errors > 0 };
}

/** Reads, plans and (unless dryRun) applies one library directory or prompt file. */
export async function importLibrary(core: Core, target: string, opts: ImportOptions = {}): Promise<ImportReport> {
  const { root } = libraryRoot(target);
  const recorded = await core.importHashes.load(root);
  const salt = importSalt(opts);
  const lib = readLibrary(target, { maxFileBytes: opts.maxFileBytes, maxTotalBytes: opts.maxTotalBytes }, opts.onProgress && ((d, t) => opts.onProgress!(d, t, 'reading')),
    { salt, unchanged: opts.reparse ? new Map() : recorded.unchanged, startedMs: opts.startedMs }, opts.parseAhead ?? {});
  opts.onProgress?.(0, lib.prompts.length, 'planning');
  const plan = await planImport(core, lib, opts);
  if (opts.dryRun) {
    const counts = countPlan(plan);
    return { ...plan, dryRun: true, counts, failed: counts.errors > 0 };
  }
  const report = await applyPlan(core, plan, opts);
  await recordHashes(core, lib, report, recorded.files);
  return report;
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