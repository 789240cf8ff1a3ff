// Token use for the audit: "this credential was used on this face in this hour".
// Recording every request would be a write per request; instead each instance
// appends one `token.used` change event the first time it sees a (credential, face)
// pair in a clock hour, in the background, so the audit answers who read what (per
// hour and face) at a cost of at most a few writes per token per hour per instance.
// Writes and changes themselves are in the change log already, under the same actor.
import type { Store } from '../ports.js';

/** The face a credential was used on: the admin API, the read API (/v1) or MCP over HTTP. */
export type TokenFace = 'admin' | 'read' | 'mcp';

export interface TokenUse {
  /** the change log actor: `token:<name>#<id>`, `admin` (PROMPTD_ADMIN_TOKEN), `mcp-token` (PROMPTD_MCP_TOKEN) */
  actor: string;
  /** ApiToken id, or the environment variable's name for a configured token */
  entityKey: string;
  name: string;
  tokenId: number | null;
  face: TokenFace;
}

const HOUR_MS = 3_600_000;
/** (credential, face) pairs remembered; past it, pairs of earlier hours are dropped first. */
const MAX_REMEMBERED = 10_000;

export function createTokenUseLog({ store, now = () => new Date(), onError }: { store: Pick<Store, 'write'>; now?: () => Date; onError?: (e: unknown) => void }) {
  const seen = new Map<string, number>();
  const pending = new Set<Promise<void>>();

  function forget(hour: number) {
    for (const [k, h] of seen) if (h !== hour) seen.delete(k);
    // Everything is of this hour: start over (the worst case is a second event for a pair).
    if (seen.size >= MAX_REMEMBERED) seen.clear();
  }

  return {
    /** Notes one authenticated request; never waits and never fails the request. */
    used(u: TokenUse): void {
      const at = now();
      const hour = Math.floor(at.getTime() / HOUR_MS);
      const key = `${u.entityKey}|${u.face}`;
      if (seen.get(key) === hour) return;
      if (seen.size >= MAX_REMEMBERED) forget(hour);
      seen.set(key, hour);
      const details = { name: u.name, tokenId: u.tokenId, face: u.face, hour: new Date(hour * HOUR_MS).toISOString() };
      const p = store
        .write((tx) => tx.events.append([{ actor: u.actor, action: 'token.used', entity: 'token', entityKey: u.entityKey, details }], at))
        .catch((e) => {
          seen.delete(key);
          onError?.(e);
        })
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    /** Resolves once the events started so far are written (tests, shutdown). */
    async idle(): Promise<void> {
      await Promise.all([...pending]);
    },
  };
}

export type TokenUseLog = ReturnType<typeof createTokenUseLog>;
