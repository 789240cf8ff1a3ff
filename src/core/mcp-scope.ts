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
