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
  /**
   * Throws `forbidden` when `actor` may not take a prompt carrying `labels` out of
   * serving or put it back (archive, unarchive): with a protected label that moves
   * what the label serves as surely as moving the label does.
   */
  authorizeServingChange(actor: Actor, labels: readonly string[], what: 'archiving' | 'unarchiving'): void;
  /** Runs the checks of moves onto protected labels (checks/move-gate.ts); absent: no gate. */
  gate?: MoveGate;
}

export function createLabelPolicy(protectedLabels: Iterable<string> = [PRODUCTION]): LabelPolicy {
  const set = new Set(protectedLabels);
  // No role: the operator (CLI, library import), an admin.
  const roleOf = (actor: Actor) => actor.role ?? (actor.admin === false ? 'editor' : 'admin');
  const who = (actor: Actor, role: string) => `${actor.display ?? actor.name} is ${role === 'editor' ? 'an' : 'a'} ${role}`;
  return {
    protectedLabels: set,
    authorizeLabelMove(actor, label) {
      const role = roleOf(actor);
      if (set.has(label) && !roleAllows(role, 'admin')) {
        throw new DomainError('forbidden', `label "${label}" is protected: moving it needs the admin role; ${who(actor, role)}`, [
          { path: 'label', message: 'protected' },
        ]);
      }
    },
    authorizeServingChange(actor, labels, what) {
      const role = roleOf(actor);
      const label = labels.find((l) => set.has(l));
      if (label !== undefined && !roleAllows(role, 'admin')) {
        throw new DomainError('forbidden', `the prompt is served under protected label "${label}": ${what} it needs the admin role; ${who(actor, role)}`, [
          { path: 'archived', message: `protected label "${label}"` },
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
