// A write that moves labels, gated on protected ones (move-gate.ts), with the checks run
// before the write transaction (gate-reads.ts says why): `plan` reads what the moves
// will be, the gate runs on those reads with the moves seen as written, and inside the
// transaction `plan` runs again; the moves are written (by `finish`) only if every
// read the checks made answers the same. Otherwise the checks run again, and after
// GATE_ATTEMPTS the write is a 409.
import { conflict } from '../errors.js';
import type { LabelPolicy } from '../label-policy.js';
import type { Repositories, Store } from '../ports.js';
import type { LabelMove } from '../services/label-moves.js';
import type { ForcedFailure } from './move-gate.js';
import { afterMoves, recordReads, type RecordedReads } from './gate-reads.js';

/** Times a gated move runs its checks when what they read keeps changing before the write. */
export const GATE_ATTEMPTS = 3;
const STALE = Symbol('stale');

export async function gatedWrite<T>(
  store: Pick<Store, 'read' | 'write'>,
  policy: LabelPolicy,
  plan: (repos: Repositories) => Promise<LabelMove[]>,
  force: boolean | undefined,
  finish: (tx: Repositories, moves: LabelMove[], forced: ForcedFailure[]) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let forced: ForcedFailure[] = [];
    let recorded: RecordedReads | undefined;
    if (policy.gate) {
      const rec = recordReads(store.read);
      const moves = (await plan(rec.repos)).filter((m) => m.from !== m.to);
      const gate = moves.map((m) => ({ prompt: m.head.name, label: m.label, to: m.to, force }));
      if (gate.some((g) => g.to !== null && policy.protectedLabels.has(g.label))) {
        const seen = afterMoves(rec.repos, moves.map((m) => ({ promptId: m.head.id, prompt: m.head.name, label: m.label, to: m.to, archived: m.head.archived })));
        forced = await policy.gate(seen, gate, policy.protectedLabels);
        recorded = rec;
      }
    }
    const out = await store.write(async (tx) => {
      if (recorded && !(await recorded.unchanged(tx))) return STALE;
      return finish(tx, await plan(tx), forced);
    });
    if (out !== STALE) return out as T;
    if (attempt >= GATE_ATTEMPTS) {
      throw conflict(`the prompts the checks read changed ${GATE_ATTEMPTS} times while they ran; try the move again`, [{ path: 'label', message: 'changed while checking' }]);
    }
  }
}
