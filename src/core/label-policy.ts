// Who may move which label. Protected labels (PROMPTD_PROTECTED_LABELS, default
// `production`) need the admin role; every other label may be moved by anyone who may
// write prompts (the editor role: src/rest/access-table.ts). This is the one place
// that decides, for every path that moves labels (REST, import, promote).
import { roleAllows } from './access.js';
import { DomainError } from './errors.js';
import { PRODUCTION } from './schemas.js';
import type { Actor } from './types.js';
import type { MoveGate } from './checks/move-gate.js';

export interface LabelPolicy {
  readonly protectedLabels: ReadonlySet<string>;
  /** Throws `forbidden` when `actor` may not move `label`. */
  authorizeLabelMove(actor: Actor, label: string): void;
  /** Runs the checks of moves onto protected labels (checks/move-gate.ts); absent: no gate. */
  gate?: MoveGate;
}

export function createLabelPolicy(protectedLabels: Iterable<string> = [PRODUCTION]): LabelPolicy {
  const set = new Set(protectedLabels);
  return {
    protectedLabels: set,
    authorizeLabelMove(actor, label) {
      // No role: the operator (CLI, library import), an admin.
      const role = actor.role ?? (actor.admin === false ? 'editor' : 'admin');
      if (set.has(label) && !roleAllows(role, 'admin')) {
        const who = actor.display ?? actor.name;
        throw new DomainError('forbidden', `label "${label}" is protected: moving it needs the admin role; ${who} is ${role === 'editor' ? 'an' : 'a'} ${role}`, [
          { path: 'label', message: 'protected' },
        ]);
      }
    },
  };
}

/** PROMPTD_PROTECTED_LABELS: comma-separated; unset means `production`, empty means none. */
export function protectedLabelsFrom(value: string | undefined): string[] {
  if (value === undefined) return [PRODUCTION];
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

export const defaultLabelPolicy = createLabelPolicy();
