// Bulk reads and writes for library import/export. The one-prompt services pay a
// transaction commit, a full re-read of the prompt and a change-feed drain per call;
// for 10,000 prompts that dominates. Here many prompts share one transaction (and so
// one fsync) through the same write path as the one-prompt services
// (version-writes.ts), and each prompt is still all-or-nothing: if a batch fails, its
// prompts are retried one transaction each, so exactly the failing prompt is left
// unwritten. Change events are appended in the same transaction as the rows they describe.
import type { ChangeFeed } from '../change-feed.js';
import type { PromptState, Store } from '../ports.js';
import type { VersionInput } from '../schemas.js';
import type { Actor } from '../types.js';
import type { StoredResourceInfo } from '../validate-version.js';
import { writeVersions, type VersionWrite } from './version-writes.js';
import { defaultLabelPolicy, type LabelPolicy } from '../label-policy.js';
import { gatedVersionWrite } from '../checks/gated-version-write.js';

export type { PromptState };

export interface BulkWrite {
  name: string;
  /** `create`: the prompt must not exist. `append`: its latest version must still be `expectLatest`. */
  mode: 'create' | 'append';
  expectLatest: number;
  /** appended in order, numbered from expectLatest + 1 */
  versions: VersionInput[];
  /** version number to serve afterwards (may be one of the new ones) */
  activate?: number;
  /** the label `activate` moves (default production) */
  label?: string;
  /** more labels to point, label → version number */
  labels?: Record<string, number>;
}

export type BulkOutcome =
  | { name: string; ok: true; created: number[]; activated: boolean }
  | { name: string; ok: false; error: unknown };

const toWrite = (b: BulkWrite): VersionWrite => ({
  name: b.name,
  mode: b.mode,
  versions: b.versions,
  ...(b.mode === 'append' ? { expect: { latest: b.expectLatest } } : {}),
  ...(b.activate !== undefined ? { activate: b.activate } : {}),
  ...(b.label !== undefined ? { label: b.label } : {}),
  ...(b.labels !== undefined ? { labels: b.labels } : {}),
});

export function createBulkImport({ store, feed, policy = defaultLabelPolicy }: { store: Pick<Store, 'read' | 'write'>; feed: ChangeFeed; policy?: LabelPolicy }) {
  // Protected label moves (--activate, --label production) run their gate before the
  // batch's transaction (checks/gated-version-write.ts); a refusal fails the batch, and
  // the retry one prompt per transaction leaves exactly the refused prompt unwritten.
  const writeBatch = (batch: BulkWrite[], actor: Actor): Promise<BulkOutcome[]> => {
    const items = batch.map(toWrite);
    return gatedVersionWrite(store, policy, items, actor, async (tx, checked) => (await writeVersions(tx, items, actor, new Date(), checked)).map((r) => ({ ...r, ok: true as const })));
  };

  return {
    /** Current state of the named prompts (missing names are simply absent). */
    load: (names: string[], opts: { history?: boolean } = {}): Promise<Map<string, PromptState>> => store.read.prompts.states(names, opts),
    /** What version validation needs to know about the stored resources with these URIs. */
    resourceInfo: (uris: string[]): Promise<Map<string, StoredResourceInfo>> => store.read.resources.info(uris),

    /**
     * Writes in batches; returns one outcome per item, in order. Never throws for one bad item.
     * `atomic`: every item in one transaction, so one failure leaves all of them unwritten.
     */
    async apply(items: BulkWrite[], actor: Actor, opts: { batchSize?: number; atomic?: boolean; onProgress?: (done: number, total: number) => void } = {}): Promise<BulkOutcome[]> {
      if (opts.atomic) {
        try {
          if (!items.length) return [];
          const done = await writeBatch(items, actor);
          opts.onProgress?.(items.length, items.length);
          return done;
        } catch (e) {
          return items.map((item) => ({ name: item.name, ok: false as const, error: e }));
        } finally {
          await feed.poke();
        }
      }
      const size = Math.max(1, opts.batchSize ?? 250);
      const results: BulkOutcome[] = [];
      const w = writer(actor);
      try {
        for (let i = 0; i < items.length; i += size) {
          results.push(...(await w.write(items.slice(i, i + size))));
          opts.onProgress?.(Math.min(i + size, items.length), items.length);
          await w.pause();
        }
      } finally {
        await w.end();
      }
      return results;
    },

    /**
     * apply() a batch at a time, for a caller that forms the batches as it goes (an import
     * that writes while it reads: src/library/apply.ts). Each `write` is one transaction
     * (a failed batch is retried one prompt per transaction, as in apply); `end` (always,
     * once) tells the change feed's listeners about everything written.
     */
    writer,
  };

  function writer(actor: Actor) {
    return {
      async write(batch: BulkWrite[]): Promise<BulkOutcome[]> {
        try {
          return await writeBatch(batch, actor);
        } catch (e) {
          if (batch.length === 1) return [{ name: batch[0]!.name, ok: false, error: e }];
          // Find the culprit(s): one transaction per prompt for this batch only.
          const results: BulkOutcome[] = [];
          for (const item of batch) {
            try {
              results.push(...(await writeBatch([item], actor)));
            } catch (err) {
              results.push({ name: item.name, ok: false, error: err });
            }
          }
          return results;
        }
      },
      // SQLite answers synchronously, so without a turn of the event loop between
      // batches a Ctrl-C (or any timer) would wait for the whole import. setImmediate
      // runs after the loop's poll phase (where signals arrive) without a timer's
      // 1 ms minimum per batch.
      pause: (): Promise<void> => new Promise((r) => setImmediate(r)),
      // One drain for the whole import: local listeners see the burst at once.
      end: (): Promise<void> => feed.poke(),
    };
  }
}

export type BulkImport = ReturnType<typeof createBulkImport>;
