// A version write (create or new version with `activate`, a library import with
// --activate/--label) whose label moves are gated, with the checks run before the
// write transaction like gatedWrite (gate-reads.ts says why). The moves writeVersions
// will make are planned from reads outside the transaction, the gate runs on a view
// with the new versions and the moves seen as written, and inside the transaction
// writeVersions runs with a gate that answers what the checks found, provided every
// read the checks made answers the same and writeVersions plans the same moves; else
// the checks run again, and the last attempt gates inside the transaction.
import type { LabelPolicy } from '../label-policy.js';
import type { PromptHead, Repositories, Store } from '../ports.js';
import { PRODUCTION, type VersionInput } from '../schemas.js';
import type { Actor } from '../types.js';
import { referencedUris, validateVersion } from '../validate-version.js';
import type { VersionWrite } from '../services/version-writes.js';
import { afterMoves, recordReads, withVersions, type PlannedMove } from './gate-reads.js';
import { GATE_ATTEMPTS } from './gated-write.js';
import type { ForcedFailure, GatedMove } from './move-gate.js';

const STALE = new Error('stale gate');

interface Plan {
  gated: GatedMove[];
  moves: PlannedMove[];
  heads: Map<string, PromptHead>;
  versions: Map<string, VersionInput>;
}

/** Whether the items move a protected label at all (else there is nothing to gate). */
const movesProtected = (policy: LabelPolicy, items: VersionWrite[]) =>
  items.some((i) => (i.activate !== undefined && policy.protectedLabels.has(i.label ?? PRODUCTION)) || Object.keys(i.labels ?? {}).some((l) => policy.protectedLabels.has(l)));

/**
 * The moves writeVersions will make, in its order, from `repos`; null when the write
 * will fail before its gate (a taken name, a stale expectation, an invalid version, a
 * missing target): then nothing is checked outside, and the write's own error stands.
 */
async function planMoves(repos: Repositories, items: VersionWrite[]): Promise<Plan | null> {
  const names = items.map((i) => i.name);
  if (new Set(names).size !== names.length) return null;
  const creates = items.filter((i) => i.mode === 'create');
  const appends = items.filter((i) => i.mode === 'append');
  if (creates.some((i) => !i.versions.length)) return null;
  if (creates.length && (await repos.prompts.takenNames(creates.map((i) => i.name))).length) return null;
  const stored = appends.length ? await repos.prompts.heads(appends.map((i) => i.name)) : new Map<string, PromptHead>();
  const heads = new Map<string, PromptHead>();
  // Synthetic ids for prompts not inserted yet: negative, so no stored prompt has them.
  creates.forEach((i, k) => heads.set(i.name, { id: -(k + 1), name: i.name, archived: false, latestVersion: i.versions.length, activeVersion: null, revision: 1 }));
  for (const i of appends) {
    const h = stored.get(i.name);
    if (!h) return null;
    if (i.versions.length && ((i.expect?.latest !== undefined && h.latestVersion !== i.expect.latest) || (i.expect?.revision !== undefined && h.revision !== i.expect.revision))) return null;
  }
  // Checks run patterns: never on a version the write will refuse as invalid (unsafe patterns included).
  const resources = await repos.resources.info([...new Set(items.flatMap((i) => i.versions.flatMap((v) => referencedUris(v))))]);
  if (items.some((i) => i.versions.some((v) => validateVersion(v, resources).length))) return null;

  const versions = new Map<string, VersionInput>();
  const plans = items.map((item) => {
    const head = heads.get(item.name) ?? stored.get(item.name)!;
    const first = item.mode === 'create' ? 1 : head.latestVersion + 1;
    const created = item.versions.map((input, k) => {
      versions.set(`${item.name}\u0000${first + k}`, input);
      return first + k;
    });
    const target = item.activate === 'newest' ? created.at(-1) : item.activate;
    const targets = [
      ...(target !== undefined ? [{ label: item.label ?? PRODUCTION, number: target }] : []),
      ...Object.entries(item.labels ?? {}).map(([label, number]) => ({ label, number })),
    ];
    return { item, head, created, targets };
  });
  const older = plans.flatMap((p) => p.targets.filter((t) => !p.created.includes(t.number)).map((t) => ({ promptId: p.head.id, number: t.number })));
  const existing = older.length ? await repos.prompts.existingVersions(older) : new Set<string>();
  if (older.some((o) => !existing.has(`${o.promptId}:${o.number}`))) return null;
  const others = plans.filter((p) => p.item.mode === 'append' && p.targets.some((t) => t.label !== PRODUCTION));
  const current = others.length ? await repos.labels.ofPrompts(others.map((p) => p.head.id)) : new Map<number, { label: string; version: number }[]>();
  const gated: GatedMove[] = [];
  const moves: PlannedMove[] = [];
  for (const { item, head, created, targets } of plans) {
    for (const t of targets) {
      const from = t.label === PRODUCTION ? head.activeVersion : (current.get(head.id)?.find((l) => l.label === t.label)?.version ?? null);
      if (from === t.number || moves.some((m) => m.promptId === head.id && m.label === t.label)) continue;
      moves.push({ promptId: head.id, prompt: item.name, label: t.label, to: t.number, archived: head.archived });
      gated.push({ prompt: item.name, label: t.label, to: t.number, force: item.force, ...(created.includes(t.number) ? { input: versions.get(`${item.name}\u0000${t.number}`)! } : {}) });
    }
  }
  return { gated, moves, heads, versions };
}

const sameMoves = (a: GatedMove[], b: GatedMove[]) =>
  a.length === b.length && a.every((m, i) => m.prompt === b[i]!.prompt && m.label === b[i]!.label && m.to === b[i]!.to && !m.force === !b[i]!.force);

/**
 * Runs `write` (which calls writeVersions with the policy it is given) in a write
 * transaction, with the gate of `items`' protected moves run before it.
 */
export async function gatedVersionWrite<T>(
  store: Pick<Store, 'read' | 'write'>,
  policy: LabelPolicy,
  items: VersionWrite[],
  actor: Actor,
  write: (tx: Repositories, policy: LabelPolicy) => Promise<T>,
): Promise<T> {
  const gate = policy.gate;
  if (!gate || !movesProtected(policy, items)) return store.write((tx) => write(tx, policy));
  // writeVersions' first rule, here too: nobody but an admin makes checks run.
  for (const item of items) {
    if (item.activate !== undefined) policy.authorizeLabelMove(actor, item.label ?? PRODUCTION);
    for (const l of Object.keys(item.labels ?? {})) policy.authorizeLabelMove(actor, l);
  }
  for (let attempt = 1; ; attempt++) {
    const rec = recordReads(store.read);
    const plan = await planMoves(rec.repos, items);
    // The write fails before its gate (or, if what made it fail is gone, gates inside as before).
    if (!plan) return store.write((tx) => write(tx, policy));
    let forced: ForcedFailure[] = [];
    // A refusal is thrown where writeVersions calls the gate, so an earlier rule's error still comes first.
    let refusal: unknown;
    try {
      const seen = afterMoves(withVersions(rec.repos, plan.heads, plan.versions), plan.moves);
      forced = await gate(seen, plan.gated, policy.protectedLabels);
    } catch (e) {
      refusal = e;
    }
    const checked: LabelPolicy = {
      ...policy,
      gate: async (_tx, moves) => {
        if (!sameMoves(moves, plan.gated)) throw STALE;
        if (refusal !== undefined) throw refusal;
        return forced;
      },
    };
    try {
      return await store.write(async (tx) => {
        if (!(await rec.unchanged(tx))) throw STALE;
        return write(tx, checked);
      });
    } catch (e) {
      if (e !== STALE) throw e;
    }
    // Concurrent versions of one prompt renumber the version to activate on every try;
    // refusing them would turn ordinary write contention into 409s, so the last try
    // gates inside the transaction, as before #36.6 (the lock is held only then).
    if (attempt >= GATE_ATTEMPTS - 1) return store.write((tx) => write(tx, policy));
  }
}
