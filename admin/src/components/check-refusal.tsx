// A protected label move refused with 409 because checks fail: the failures, and for admins
// a "move anyway" (force: true, recorded in the change log) that asks once more first.
import { useState } from 'react';
import { ApiError } from '../api';
import type { FieldError } from '../types';
import '../contracts.css';

export interface Refusal { detail: string; errors: FieldError[] }

/** The refusal in a 409 from a gated label move, or null for any other error. */
export function refusalOf(err: unknown): Refusal | null {
  if (!(err instanceof ApiError) || err.status !== 409 || !err.problem.errors?.length) return null;
  return { detail: err.problem.detail ?? 'The checks fail.', errors: err.problem.errors };
}

interface Props {
  refusal: Refusal;
  /** e.g. "move production to v3" */
  what: string;
  canForce: boolean;
  busy: boolean;
  onForce: () => void;
}

export function CheckRefusal({ refusal, what, canForce, busy, onForce }: Props) {
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="banner banner-error" role="alert" data-testid="check-refusal">
      <p className="check-refusal-head">Refused: {what} would serve a version whose checks fail.</p>
      <ul className="check-failures" data-testid="refusal-failures">
        {refusal.errors.map((e, i) => (
          <li key={i} data-testid="refusal-failure"><code>{e.path}</code>: {e.message}</li>
        ))}
      </ul>
      {canForce ? (
        <>
          {confirming && <p className="small" data-testid="force-warning">MCP clients will be served it although the checks fail; the change log records that you forced it. Press the button again to confirm.</p>}
          <button
            type="button"
            className={confirming ? 'btn btn-small btn-danger' : 'btn btn-small btn-danger-outline'}
            data-testid="force-move"
            disabled={busy}
            onClick={() => (confirming ? onForce() : setConfirming(true))}
          >
            {confirming ? `Confirm: ${what} anyway` : 'Move anyway…'}
          </button>
        </>
      ) : (
        <p className="small">Fix the version (or its test cases), or ask an admin to move it anyway.</p>
      )}
    </div>
  );
}
