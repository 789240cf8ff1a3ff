// `?label=` on /mcp (and the legacy /sse): which label view a new session serves.
import type { Context } from 'hono';
import type { Core } from '../core/index.js';
import { isDomainError } from '../core/errors.js';
import { PRODUCTION } from '../core/schemas.js';
import { problemResponse } from '../rest/problem.js';
import type { McpScope, McpSessionAuth } from '../core/mcp-scope.js';
import type { McpAuth, McpPrincipal } from './mcp-auth.js';
import { rpcError } from './json-body.js';

/**
 * The label view a new session asked for with `?label=` (default production), loaded;
 * an unknown label is a 404 problem naming the known ones.
 */
export async function sessionLabel(c: Context, core: Core, granted?: string): Promise<string | Response> {
  const label = granted ?? c.req.query('label') ?? PRODUCTION;
  try {
    await core.catalog.open(label);
    return label;
  } catch (e) {
    if (isDomainError(e) && e.code === 'not_found') return problemResponse(c, 404, 'Not found', e.message, e.errors);
    throw e;
  }
}


/**
 * The label a caller's session serves: a scoped MCP token's own label (`?label=` may
 * only repeat it: 403 otherwise), or what `?label=` asks for.
 */
export async function sessionLabelFor(c: Context, core: Core, scope: McpScope | null): Promise<string | Response> {
  if (!scope) return sessionLabel(c, core);
  const asked = c.req.query('label');
  if (asked !== undefined && asked !== scope.label) {
    return rpcError(c, 403, -32001, `Forbidden: this token sees label "${scope.label}" only; drop ?label= or ask for that one`);
  }
  // A label no prompt carries yet is an empty view for a token made for it, not a 404.
  await core.catalog.view(scope.label).ready();
  return scope.label;
}

/**
 * What a new session of this principal is: the scope its grant gives for the `?label=`
 * it asked for (403 when outside the grant), that label's view loaded (404 when unknown,
 * except a client token's own label, which is an empty view until a prompt carries it),
 * and who it is for usage, audit and revocation.
 */
export async function sessionAuthFor(c: Context, core: Core, auth: McpAuth, principal: McpPrincipal): Promise<McpSessionAuth | Response> {
  const scope = auth.scopeFor(c, principal, c.req.query('label'));
  if (scope instanceof Response) return scope;
  const label = principal.token ? await sessionLabelFor(c, core, scope) : await sessionLabel(c, core, scope.label);
  if (label instanceof Response) return label;
  return { tokenId: principal.token?.tokenId ?? null, tokenName: principal.token?.tokenName ?? null, scope: { label, tags: scope.tags } };
}
