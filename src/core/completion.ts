// Completion of a resource-template variable from the stored resources whose URIs
// match that template (e.g. `file:///{path}` completes `path` from stored file:///
// resources). Lives in the core so the MCP face stays free of SQL. Only public
// resources are candidates: completion must not reveal what resources/list hides.
import type { ResourceRepository } from './ports.js';
import { DomainError } from './errors.js';
import { rankCompletions, type CompletionResult } from './catalog.js';
import { compileUriMatcher, parseUriTemplate } from './uri-template.js';

/** Upper bound on stored URIs scanned per completion request. */
const MAX_SCANNED = 20_000;

export async function completeResourceVariable(
  resources: Pick<ResourceRepository, 'uris'>,
  uriTemplate: string,
  variable: string,
  value: string,
  context: Record<string, string> = {},
): Promise<CompletionResult> {
  const { error } = parseUriTemplate(uriTemplate);
  if (error) throw new DomainError('bad_request', `"${uriTemplate}" is not a valid URI template: ${error}`);
  const matcher = compileUriMatcher(uriTemplate);
  if (!matcher.variables.includes(variable)) {
    const known = matcher.variables.join(', ') || 'no variables';
    throw new DomainError('bad_request', `URI template "${uriTemplate}" has no variable "${variable}" (it has: ${known})`);
  }
  // The literal text before the first expression narrows the scan in SQL.
  const prefix = uriTemplate.slice(0, Math.max(0, uriTemplate.indexOf('{')));
  const seen = new Set<string>();
  for (const uri of await resources.uris(prefix, MAX_SCANNED, 'public')) {
    const vars = matcher.match(uri);
    if (!vars) continue;
    const v = vars[variable];
    if (v === undefined || v === '') continue;
    // Honour already-chosen variables: `repo` fixed → only that repo's paths.
    if (Object.entries(context).some(([k, want]) => k !== variable && vars[k] !== undefined && vars[k] !== want)) continue;
    seen.add(v);
  }
  return rankCompletions([...seen].sort(), value);
}
