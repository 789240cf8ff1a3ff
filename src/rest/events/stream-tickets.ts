// Short-lived, single-use tickets for opening /admin/v1/events: EventSource cannot
// send an Authorization header, and a bearer token in a URL ends up in logs and
// history. Kept in this process's memory: the UI asks for a ticket and opens the
// stream on the same origin right after, so behind sticky routing both land on the
// same instance; without it a ticket issued by one instance is unknown to another
// (the UI then asks again; see SECURITY.md).
import { randomBytes } from 'node:crypto';
import type { Role } from '../../core/access.js';

export interface StreamPrincipal {
  actor: string;
  /** The API token's id; null for PROMPTD_ADMIN_TOKEN. */
  tokenId: number | null;
  /** The role the stream was opened with (a ticket carries its issuer's role). */
  role?: Role;
  display?: string;
}

export interface TicketStore {
  issue(principal: StreamPrincipal): { ticket: string; expiresAt: Date };
  /** The principal of a valid ticket, which is used up; null otherwise. */
  redeem(ticket: string): StreamPrincipal | null;
  /** Drops the unredeemed tickets of a revoked token. */
  revokeToken(tokenId: number): void;
  size(): number;
}

export const TICKET_TTL_MS = 60_000;
/** Outstanding tickets at most; the oldest are dropped first (a client just asks again). */
const MAX_TICKETS = 10_000;

export function createTicketStore(opts: { ttlMs?: number; now?: () => number; max?: number } = {}): TicketStore {
  const ttlMs = opts.ttlMs ?? TICKET_TTL_MS;
  const now = opts.now ?? Date.now;
  const max = opts.max ?? MAX_TICKETS;
  // Insertion order is expiry order (the TTL is fixed), so pruning stops at the first live one.
  const tickets = new Map<string, { principal: StreamPrincipal; expiresAt: number }>();
  const prune = () => {
    const t = now();
    for (const [k, v] of tickets) {
      if (v.expiresAt > t && tickets.size < max) break;
      tickets.delete(k);
    }
  };
  return {
    issue(principal) {
      prune();
      const ticket = `st_${randomBytes(32).toString('base64url')}`;
      const expiresAt = now() + ttlMs;
      tickets.set(ticket, { principal, expiresAt });
      return { ticket, expiresAt: new Date(expiresAt) };
    },
    redeem(ticket) {
      const t = tickets.get(ticket);
      if (!t) return null;
      tickets.delete(ticket);
      return t.expiresAt > now() ? t.principal : null;
    },
    revokeToken(tokenId) {
      for (const [k, v] of tickets) if (v.principal.tokenId === tokenId) tickets.delete(k);
    },
    size: () => tickets.size,
  };
}
