// Release labels: list, set, remove and promote label pointers. Every move goes
// through writeLabelMoves (label-moves.ts) and the one policy check (label-policy.ts),
// and appends `label.set`, `label.removed` or `labels.promoted` events with
// `{label, from, to}` in the same transaction.
import type { KnownLabels } from '../known-labels.js';
import { z } from 'zod';
import type { ChangeFeed } from '../change-feed.js';
import { DomainError, formatPath, invalid, notFound } from '../errors.js';
import type { LabelPolicy } from '../label-policy.js';
import type { PromptHead, Repositories, Store } from '../ports.js';
import { LabelNameSchema, PRODUCTION, PromoteInputSchema, SettableLabelSchema, type PromoteInput } from '../schemas.js';
import type { Actor } from '../types.js';
import { moveEvent, writeLabelMoves, type LabelMove } from './label-moves.js';
import { etagOf, parseEtag } from './etag.js';
import { labelImpact, type LabelImpact } from './include-checks.js';
import { forcedDetails, type ForcedFailure } from '../checks/move-gate.js';
import { gatedWrite as gatedWriteOn } from '../checks/gated-write.js';

export interface LabelPointerView {
  label: string;
  version: number;
}

/** One move of a label in the change log; `source` is the label a promotion copied from. */
export interface LabelMoveView {
  id: number;
  at: Date;
  actor: string;
  action: string;
  label: string;
  from: number | null;
  to: number | null;
  source: string | null;
}

const LABEL_MOVE_ACTIONS = ['label.set', 'label.removed', 'labels.promoted', 'prompt.activated', 'prompt.rolled_back', 'prompt.deactivated'] as const;

export interface LabelChange {
  prompt: string;
  from: number | null;
  to: number;
}

/** Parses with `schema`; failures are a 422 naming `path`. */
function parse<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const errors = r.error.issues.map((i) => ({ path: formatPath([path, ...i.path]), message: i.message }));
  throw invalid(`invalid ${path}: ${errors.map((e) => e.message).join('; ')}`, errors);
}

export const parseLabel = (label: unknown, path = 'label') => parse(LabelNameSchema, label, path);
export const parseSettableLabel = (label: unknown, path = 'label') => parse(SettableLabelSchema, label, path);

export function createLabelService({ store, feed, policy, knownLabels }: { store: Pick<Store, 'read' | 'write'>; feed: ChangeFeed; policy: LabelPolicy; knownLabels?: Pick<KnownLabels, 'require'> }) {
  const mustFind = async (repos: Repositories, name: string): Promise<PromptHead> => {
    const p = await repos.prompts.head(name);
    if (!p) throw notFound(`prompt "${name}"`);
    return p;
  };
  const checkRevision = (head: PromptHead, ifMatch: string | undefined) => {
    if (ifMatch !== undefined && parseEtag(ifMatch) !== head.revision) {
      throw new DomainError('precondition_failed', `prompt "${head.name}" was changed by someone else since you read it; reload and try again`);
    }
  };
  const labelsOf = async (repos: Repositories, head: PromptHead) => (await repos.labels.ofPrompts([head.id])).get(head.id) ?? [];
  const gatedWrite = <T>(plan: (repos: Repositories) => Promise<LabelMove[]>, force: boolean | undefined, finish: (tx: Repositories, moves: LabelMove[], forced: ForcedFailure[]) => Promise<T>) =>
    gatedWriteOn(store, policy, plan, force, finish);
  const committed = async <T>(result: T): Promise<T> => {
    await feed.poke();
    return result;
  };

  return {
    policy,

    /** The prompt's labels, in label order. */
    async list(name: string): Promise<{ items: LabelPointerView[] }> {
      const head = await mustFind(store.read, name);
      return { items: await labelsOf(store.read, head) };
    },

    /**
     * Points `label` at `version`; `ifMatch` guards against moving a prompt someone else changed.
     * A protected label's move runs the version's checks (409 listing failures unless `force`).
     */
    async set(name: string, label: string, version: number, actor: Actor, opts: { ifMatch?: string; force?: boolean } = {}): Promise<LabelPointerView & { etag: string; impact: LabelImpact }> {
      label = parseSettableLabel(label);
      policy.authorizeLabelMove(actor, label);
      const plan = async (repos: Repositories): Promise<LabelMove[]> => {
        const head = await mustFind(repos, name);
        checkRevision(head, opts.ifMatch);
        if (!(await repos.prompts.existingVersions([{ promptId: head.id, number: version }])).size) throw notFound(`version ${version} of prompt "${name}"`);
        const from = (await labelsOf(repos, head)).find((l) => l.label === label)?.version ?? null;
        return [{ head, label, from, to: version }];
      };
      const etag = await gatedWrite(plan, opts.force, async (tx, moves, forced) => {
        const changed = await writeLabelMoves(tx, moves, new Date());
        await tx.events.append(changed.map((m, i) => moveEvent(actor, m, 'label', forcedDetails(forced, i))));
        return { etag: etagOf((await tx.prompts.head(name))!), impact: await labelImpact(tx, label, [name]) };
      });
      return committed({ label, version, ...etag });
    },

    async remove(name: string, label: string, actor: Actor, opts: { ifMatch?: string } = {}): Promise<{ etag: string }> {
      label = parseSettableLabel(label);
      policy.authorizeLabelMove(actor, label);
      const etag = await store.write(async (tx) => {
        const head = await mustFind(tx, name);
        checkRevision(head, opts.ifMatch);
        const from = (await labelsOf(tx, head)).find((l) => l.label === label)?.version;
        if (from === undefined) throw notFound(`label "${label}" on prompt "${name}"`);
        const changed = await writeLabelMoves(tx, [{ head, label, from, to: null }], new Date());
        await tx.events.append(changed.map((m) => moveEvent(actor, m, 'label')));
        return etagOf((await tx.prompts.head(name))!);
      });
      return committed({ etag });
    },

    /**
     * The prompt's label moves (set, removed, promoted, and the production moves of the
     * `active` API), newest first. Keyed by the prompt's current name: moves made under
     * an earlier name stay under that name in the change log.
     */
    async history(name: string, opts: { before?: number; limit?: number } = {}): Promise<{ items: LabelMoveView[]; nextCursor: string | null }> {
      await mustFind(store.read, name);
      const limit = opts.limit ?? 50;
      const events = await store.read.events.ofEntity('prompt', name, { actions: LABEL_MOVE_ACTIONS, before: opts.before, limit: limit + 1 });
      const items = events.slice(0, limit).map((e): LabelMoveView => {
        const d = e.details ?? {};
        const num = (v: unknown) => (typeof v === 'number' ? v : null);
        return { id: e.id, at: e.at, actor: e.actor, action: e.action, label: typeof d.label === 'string' ? d.label : PRODUCTION, from: num(d.from), to: num(d.to), source: typeof d.source === 'string' ? d.source : null };
      });
      return { items, nextCursor: events.length > limit ? String(items.at(-1)!.id) : null };
    },

    /** Every label in use, with how many prompts carry it. */
    async summary(): Promise<{ items: { label: string; prompts: number }[] }> {
      return { items: await store.read.labels.counts() };
    },

    /**
     * A release: copies `from`'s pointers onto `to` for every prompt carrying `from`
     * (or only the named ones), in one transaction. `dryRun` computes the same changes
     * without writing.
     */
    async promote(from: string, input: PromoteInput, actor: Actor): Promise<{ changes: LabelChange[]; impact?: LabelImpact }> {
      from = parseLabel(from, 'from');
      const { to, prompts, dryRun, force } = parse(PromoteInputSchema, input, '');
      if (to === from) throw invalid(`cannot promote "${from}" onto itself`, [{ path: 'to', message: 'must differ from the label promoted' }]);
      // `from` must exist ("stagign" promoted nothing and answered 200); `to` may be new: promoting creates it.
      await knownLabels?.require(from, 'from');
      if (!dryRun) policy.authorizeLabelMove(actor, to);
      const plan = async (repos: Repositories): Promise<LabelMove[]> => {
        const source = await repos.labels.carrying(from, prompts);
        if (prompts) {
          const carrying = new Set(source.map((s) => s.prompt));
          const missing = prompts.map((p, i) => ({ p, i })).filter(({ p }) => !carrying.has(p));
          if (missing.length) {
            const heads = await repos.prompts.heads(missing.map((m) => m.p));
            const unknown = missing.find((m) => !heads.has(m.p));
            if (unknown) throw notFound(`prompt "${unknown.p}"`);
            throw invalid(`prompt "${missing[0]!.p}" does not carry label "${from}"`, missing.map(({ p, i }) => ({ path: `prompts[${i}]`, message: `"${p}" does not carry "${from}"` })));
          }
        }
        const target = new Map((await repos.labels.carrying(to, source.map((s) => s.prompt))).map((t) => [t.promptId, t.version]));
        return source
          .map((s): LabelMove => ({ head: { id: s.promptId, name: s.prompt, archived: s.archived }, label: to, from: target.get(s.promptId) ?? null, to: s.version }))
          .filter((m) => m.from !== m.to);
      };
      const toChanges = (moves: LabelMove[]) => moves.map((m) => ({ prompt: m.head.name, from: m.from, to: m.to! }));
      if (dryRun) {
        const planned = await plan(store.read);
        return { changes: toChanges(planned), impact: await labelImpact(store.read, to, planned.map((m) => m.head.name)) };
      }
      // One gate for every move: one failing prompt refuses the whole promotion.
      const moves = await gatedWrite(plan, force, async (tx, planned, forced) => {
        const changed = await writeLabelMoves(tx, planned, new Date());
        await tx.events.append(changed.map((m, i) => moveEvent(actor, m, 'promote', { source: from, ...forcedDetails(forced, i) })));
        return planned;
      });
      return committed({ changes: toChanges(moves) });
    },
  };
}

export type LabelService = ReturnType<typeof createLabelService>;
