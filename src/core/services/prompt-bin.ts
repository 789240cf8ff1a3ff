// Soft delete (issue 24.6): deleting a prompt moves it to a bin for a retention
// period, where an admin can list and restore it; afterwards it is purged with all
// its versions. The change log keeps a snapshot of what was deleted. A deleted
// prompt keeps its name until it is purged, so a restore can never collide.
import { notFound } from '../errors.js';
import type { ChangeFeed } from '../change-feed.js';
import type { NewChangeEvent, Repositories, Store } from '../ports.js';
import type { Actor, PromptDetail, Version } from '../types.js';
import { LATEST } from '../schemas.js';
import { refuseIfIncluded } from './include-checks.js';

export const DEFAULT_DELETED_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
const PURGE_BATCH = 100;

export interface PromptBinDeps {
  store: Pick<Store, 'read' | 'write'>;
  feed: ChangeFeed;
  /** Days a deleted prompt stays restorable (PROMPTD_DELETED_RETENTION_DAYS). */
  retentionDays?: number;
  /** Injectable clock for tests. */
  now?: () => Date;
}

/** What the change log keeps of a deleted prompt: enough to see what was lost, and to recreate it by hand after a purge. */
function snapshotOf(d: PromptDetail, versions: number, labels: { label: string; version: number }[]): Record<string, unknown> {
  const strip = (v: Version) => ({ ...v, createdAt: v.createdAt.toISOString() });
  return {
    archived: d.archived,
    activeVersion: d.activeVersion,
    latestVersion: d.latestVersion,
    versions,
    /** label → version number: what each label view served (a purge loses the pointers) */
    labels: Object.fromEntries(labels.map((l) => [l.label, l.version])),
    served: d.active ? strip(d.active) : null,
    ...(d.latestVersion !== d.activeVersion ? { latest: strip(d.latest) } : {}),
  };
}

/** The label views a prompt is in (when unarchived): `latest` and each label it carries. */
const viewsOf = (labels: { label: string }[]) => [LATEST, ...labels.map((l) => l.label)];

export function createPromptBin({ store, feed, retentionDays = DEFAULT_DELETED_RETENTION_DAYS, now = () => new Date() }: PromptBinDeps) {
  const event = (actor: Actor, action: string, name: string, served: boolean, details?: Record<string, unknown>): NewChangeEvent => ({
    actor: actor.name, action, entity: 'prompt', entityKey: name, served, ...(details ? { details } : {}),
  });
  const committed = async <T>(v: T): Promise<T> => {
    await feed.poke();
    return v;
  };
  const mustFindDeleted = async (tx: Repositories, name: string) => {
    const p = await tx.prompts.deletedHead(name);
    if (!p) throw notFound(`deleted prompt "${name}" (GET /admin/v1/prompts?deleted=true lists them)`);
    return p;
  };

  return {
    retentionDays,
    /** Soft delete: gone from every read path, restorable for `retentionDays`. */
    async delete(name: string, actor: Actor): Promise<void> {
      await store.write(async (tx) => {
        const p = await tx.prompts.head(name);
        if (!p) throw notFound(`prompt "${name}"`);
        await refuseIfIncluded(tx, name, 'deleted');
        const detail = (await tx.prompts.detail(name))!;
        const labels = (await tx.labels.ofPrompts([p.id])).get(p.id) ?? [];
        const snapshot = snapshotOf(detail, await tx.prompts.versionCount(p.id), labels);
        const at = now();
        await tx.prompts.softDelete(p.id, at, actor.name);
        const purgeAfter = new Date(at.getTime() + retentionDays * DAY_MS).toISOString();
        // An unarchived prompt leaves the `latest` view and each of its labels' views:
        // `labels` names them, for the catalog and webhook label filters alike.
        await tx.events.append([event(actor, 'prompt.deleted', name, !p.archived, { snapshot, purgeAfter, labels: viewsOf(labels) })], at);
      });
      await committed(undefined);
    },

    /** Brings a deleted prompt back with all its versions; a served one is served again. */
    async restore(name: string, actor: Actor): Promise<PromptDetail> {
      const detail = await store.write(async (tx) => {
        const p = await mustFindDeleted(tx, name);
        await tx.prompts.restore(p.id);
        // Its label rows were kept: every view that served it serves it again (and `latest`).
        const labels = (await tx.labels.ofPrompts([p.id])).get(p.id) ?? [];
        await tx.events.append([event(actor, 'prompt.restored', name, !p.archived, { deletedAt: p.deletedAt.toISOString(), deletedBy: p.deletedBy, labels: viewsOf(labels) })]);
        return (await tx.prompts.detail(name))!;
      });
      return committed(detail);
    },

    /** Purges prompts deleted longer than the retention period ago; returns how many. */
    async purgeExpired(actor: Actor = { name: 'retention' }): Promise<number> {
      const before = new Date(now().getTime() - retentionDays * DAY_MS);
      let purged = 0;
      // A read first: most rounds find nothing and should not take the write lock.
      if (!(await store.read.prompts.expired(before, 1)).length) return 0;
      for (;;) {
        const n = await store.write(async (tx) => {
          const rows = await tx.prompts.expired(before, PURGE_BATCH);
          for (const r of rows) await tx.prompts.purge(r.id);
          await tx.events.append(rows.map((r) => event(actor, 'prompt.purged', r.name, false)));
          return rows.length;
        });
        purged += n;
        if (n < PURGE_BATCH) break;
      }
      if (purged) await feed.poke();
      return purged;
    },
  };
}

/**
 * Purges at start and then every `intervalMs` in the background; failures go to
 * `onError` and the next round tries again.
 */
export function startPurger(bin: Pick<ReturnType<typeof createPromptBin>, 'purgeExpired'>, opts: { intervalMs?: number; onError?: (e: unknown) => void } = {}) {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = bin.purgeExpired().catch((e) => opts.onError?.(e));
  };
  run();
  const timer = setInterval(run, opts.intervalMs ?? 3_600_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
