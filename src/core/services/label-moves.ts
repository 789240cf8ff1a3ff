// Moving label pointers: the one place that writes them and their change events, for
// the label service, the `active` aliases and the version write path (create with
// activate, import). Each event carries `{label, from, to}` (version numbers, null for
// none) so followers of the change log know which label views changed.
import type { NewChangeEvent, PromptHead, Repositories } from '../ports.js';
import { PRODUCTION } from '../schemas.js';
import type { Actor } from '../types.js';

export interface LabelMove {
  head: Pick<PromptHead, 'id' | 'name' | 'archived'>;
  label: string;
  from: number | null;
  to: number | null;
}

/** Serving an older version than the one served is a rollback; anything else an activation. */
export const activationAction = (previous: number | null, next: number) => (previous !== null && previous > next ? 'prompt.rolled_back' : 'prompt.activated');

/**
 * How a move is named in the change log. `alias`: the production moves made through
 * the pre-label `active` API keep their old names (prompt.activated, prompt.rolled_back,
 * prompt.deactivated), which existing consumers of the log know.
 */
export function moveAction(m: LabelMove, kind: 'label' | 'alias' | 'promote'): string {
  if (kind === 'promote') return 'labels.promoted';
  if (kind === 'alias' && m.label === PRODUCTION) return m.to === null ? 'prompt.deactivated' : activationAction(m.from, m.to);
  return m.to === null ? 'label.removed' : 'label.set';
}

export function moveEvent(actor: Actor, m: LabelMove, kind: 'label' | 'alias' | 'promote', extra: Record<string, unknown> = {}): NewChangeEvent {
  const legacy = kind === 'alias' && m.label === PRODUCTION ? (m.to === null ? {} : { version: m.to, previous: m.from }) : {};
  return {
    actor: actor.name,
    action: moveAction(m, kind),
    entity: 'prompt',
    entityKey: m.head.name,
    // An archived prompt is in no view, so moving its labels changes nothing served.
    served: !m.head.archived,
    details: { label: m.label, from: m.from, to: m.to, ...legacy, ...extra },
  };
}

/** Writes the moves that change something; returns them. Events are the caller's (order matters in a write). */
export async function writeLabelMoves(tx: Repositories, moves: LabelMove[], at: Date): Promise<LabelMove[]> {
  const changed = moves.filter((m) => m.from !== m.to);
  await tx.labels.move(changed.map((m) => ({ promptId: m.head.id, label: m.label, number: m.to })), at);
  return changed;
}
