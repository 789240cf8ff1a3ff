// OAuth scope strings → the McpScope of a session (docs/authorization.md).
//   prompts:read   required; alone it grants the production view
//   label:<name>   grants that label's view (several: the client picks with ?label=)
//   tag:<tag>      restricts the session to prompts with one of these tags
import type { McpScope } from '../core/mcp-scope.js';
import { PRODUCTION } from '../core/schemas.js';

export const READ_SCOPE = 'prompts:read';
export const SCOPES_SUPPORTED = [READ_SCOPE, 'label:<name>', 'tag:<tag>'];

export type ScopeDecision = { scope: McpScope } | { insufficient: string; required: string };

/**
 * The session scope a token's scopes allow for the label the client asked for
 * (undefined: the token's default label), or why they do not.
 */
export function mcpScopeFromOAuth(scopes: readonly string[], requestedLabel: string | undefined): ScopeDecision {
  if (!scopes.includes(READ_SCOPE)) return { insufficient: `the token lacks the ${READ_SCOPE} scope`, required: READ_SCOPE };
  const labels = scopes.filter((s) => s.startsWith('label:')).map((s) => s.slice('label:'.length)).filter(Boolean);
  const tags = scopes.filter((s) => s.startsWith('tag:')).map((s) => s.slice('tag:'.length)).filter(Boolean);
  // No label scope: the production view only. Label scopes: exactly those views.
  const allowed = labels.length ? labels : [PRODUCTION];
  const label = requestedLabel ?? (allowed.includes(PRODUCTION) ? PRODUCTION : allowed[0]!);
  if (!allowed.includes(label)) return { insufficient: `the token does not grant the label "${label}" (granted: ${allowed.join(', ')})`, required: `${READ_SCOPE} label:${label}` };
  return { scope: { label, tags: tags.length ? [...new Set(tags)] : null } };
}
