// Checks see what a move makes served: a check renders includes from the write's own
// transaction (its moves already written), under the label being checked with
// production as fallback, like the served catalog does after commit; and the gate
// checks the prompts served under that label that include a moved prompt.
import type { Repositories } from '../ports.js';
import { renderVersion } from '../render.js';
import { MAX_INCLUDE_DEPTH } from '../include-ref.js';
import type { IncludeContext } from '../render-includes.js';
import { createResourceResolver } from '../resource-resolver.js';
import { PRODUCTION } from '../schemas.js';
import { labelImpact } from '../services/include-checks.js';
import type { CheckRenderFactory, DependentsLookup } from './move-gate.js';

function storedIncludes(repos: Repositories, label: string): IncludeContext {
  const under = async (l: string, prompt: string) => {
    const head = await repos.prompts.head(prompt);
    if (!head || head.archived) return null;
    const [p] = await repos.labels.carrying(l, [prompt]);
    const version = p ? await repos.prompts.version(prompt, p.version) : null;
    return version ? { name: prompt, version } : null;
  };
  return {
    label,
    async resolve(ref) {
      if (ref.version !== undefined) {
        const version = await repos.prompts.version(ref.prompt, ref.version);
        return version ? { name: ref.prompt, version } : null;
      }
      if (ref.label !== undefined) return under(ref.label, ref.prompt);
      return (await under(label, ref.prompt)) ?? (label === PRODUCTION ? null : under(PRODUCTION, ref.prompt));
    },
  };
}

export const includeCheckRender: CheckRenderFactory = (repos) => {
  const resolver = createResourceResolver(repos);
  return (prompt, version, args, label) => renderVersion(prompt, version, args, resolver, storedIncludes(repos, label));
};

/** Transitively (a includes b includes the moved c: a's output changes too), as deep as includes may nest. */
export const includeDependents: DependentsLookup = async (repos, prompt, label) => {
  const seen = new Set([prompt]);
  const out: string[] = [];
  let frontier = [prompt];
  for (let depth = 0; depth < MAX_INCLUDE_DEPTH && frontier.length; depth++) {
    const next: string[] = [];
    for (const name of frontier) {
      for (const d of (await labelImpact(repos, label, [name])).dependents) {
        if (seen.has(d)) continue;
        seen.add(d);
        out.push(d);
        next.push(d);
      }
    }
    frontier = next;
  }
  return out;
};
