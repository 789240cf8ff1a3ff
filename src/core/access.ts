// Roles of admin API tokens (docs/access.md). Ordered: each role may do everything the
// one before it may. Which REST route needs which role is one table,
// src/rest/access-table.ts; protected labels are decided by label-policy.ts, which
// reads the role from the Actor.
import { DomainError } from './errors.js';

export const ROLES = ['reader', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The kinds of token: an admin-API token (with a role), an MCP client token (/mcp, with a
 * scope), an application token (the read API /v1 only, with the same scope). A token is
 * only ever one of them.
 */
export const TOKEN_KINDS = ['admin', 'mcp', 'app'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export const isRole = (s: unknown): s is Role => typeof s === 'string' && (ROLES as readonly string[]).includes(s);

/** True when `have` includes everything `need` may do. */
export const roleAllows = (have: Role, need: Role): boolean => ROLES.indexOf(have) >= ROLES.indexOf(need);

const article = (r: Role) => (r === 'admin' || r === 'editor' ? 'an' : 'a');

/** The 403 for a caller whose role is short: names the role needed and the one the caller has. */
export function roleForbidden(need: Role, caller: { name: string; role: Role }, what = 'this'): DomainError {
  return new DomainError('forbidden', `${what} needs the ${need} role; ${caller.name} is ${article(caller.role)} ${caller.role}`);
}
