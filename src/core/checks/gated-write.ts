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

const planned = (moves: readonly LabelMove[]) => moves.map((m) => ({ promptId: m.head.id, prompt: m.head.name, label: m.label, to: m.to, archived: m.head.archived }));
/** The moves a gate checked: the same prompts, labels and target versions, whatever they move from. */
const movesKey = (moves: readonly LabelMove[]) => JSON.stringify(moves.map((m) => [m.head.id, m.label, m.to]));

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
    let gated = '';
    if (policy.gate) {
      // The plan's own reads are not compared: it runs again in the transaction, and only
      // the moves it makes there must be the ones checked (a storm of moves of one label
      // changes its pointer each time, which afterMoves masks for the moves checked).
      const moves = (await plan(store.read)).filter((m) => m.from !== m.to);
      const gate = moves.map((m) => ({ prompt: m.head.name, label: m.label, to: m.to, force }));
      if (gate.some((g) => g.to !== null && policy.protectedLabels.has(g.label))) {
        const rec = recordReads(afterMoves(store.read, planned(moves)));
        forced = await policy.gate(rec.repos, gate, policy.protectedLabels);
        recorded = rec;
        gated = movesKey(moves);
      }
    }
    const out = await store.write(async (tx) => {
      const moves = await plan(tx);
      if (recorded) {
        const now = moves.filter((m) => m.from !== m.to);
        if (movesKey(now) !== gated || !(await recorded.unchanged(afterMoves(tx, planned(now))))) return STALE;
      }
      return finish(tx, moves, forced);
    });
    if (out !== STALE) return out as T;
    if (attempt >= GATE_ATTEMPTS) {
      throw conflict(`the prompts the checks read changed ${GATE_ATTEMPTS} times while they ran; try the move again`, [{ path: 'label', message: 'changed while checking' }]);
    }
  }
}
