// What one MCP client may see: one label's view, optionally only the prompts carrying
// one of some tags. MCP client tokens carry one (docs/access.md); the OAuth work maps
// JWT scopes onto this same type. The full scope (PROMPTD_MCP_TOKEN, or no token when
// none is required) is `{ label: <the session's ?label=, default production>, tags: null }`.
export interface McpScope {
  /** The release label whose view the client sees. */
  label: string;
  /** Only prompts carrying at least one of these tags; null: every prompt of the label. */
  tags: string[] | null;
}

/** Who an MCP session is, for usage and audit: the token's name (null: anonymous or the shared token). */
export interface McpSessionAuth {
  tokenName: string | null;
  tokenId: number | null;
  scope: McpScope;
}

/** True when a prompt with these tags is inside the scope's tag filter. */
export function tagsInScope(scope: { tags?: readonly string[] | null } | null | undefined, tags: readonly string[]): boolean {
  if (!scope?.tags) return true;
  return tags.some((t) => scope.tags!.includes(t));
}

/** The served prompts a scope sees (the label is chosen by the catalog view already). */
export function inScope<P extends { tags: readonly string[] }>(scope: { tags?: readonly string[] | null } | null | undefined, prompts: readonly P[]): P[] {
  if (!scope?.tags) return [...prompts];
  return prompts.filter((p) => tagsInScope(scope, p.tags));
}

/**
 * Whether a scope reads stored resources and templates directly (resources/list,
 * resources/read, resources/templates/list, subscribe, completion). Resources carry no
 * tags, so nothing says which team a public one is for: a tag-limited scope gets
 * resources only embedded through the prompts it sees (docs/access.md).
 */
export function seesResources(scope: { tags?: readonly string[] | null } | null | undefined): boolean {
  return !scope?.tags;
}

/**
 * Whether a change event may change resources/list or resources/templates/list: every
 * template change, and a resource change that was or is public. A bound resource's
 * writes change no listing (an event without `visibility` counts as public).
 */
export function changesResourceListing(e: { entity: string; details?: Record<string, unknown> | null }): boolean {
  if (e.entity === 'resource_template') return true;
  if (e.entity !== 'resource') return false;
  const d = e.details ?? {};
  return d.visibility === undefined || d.visibility === 'public' || d.previousVisibility === 'public';
}
