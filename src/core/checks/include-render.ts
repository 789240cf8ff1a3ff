// Checks render like the served catalog does, includes and all, but from the repositories
// they are given: inside a label move's transaction the gate then sees the moves it checks
// (a dependent including a prompt whose production just moved renders the new version).
import { labelImpact } from '../services/include-checks.js';
import type { Repositories } from '../ports.js';
import { renderVersion } from '../render.js';
import type { IncludeContext, IncludeTarget } from '../render-includes.js';
import { createResourceResolver } from '../resource-resolver.js';
import { LATEST, PRODUCTION } from '../schemas.js';
import type { CheckRenderFactory, DependentsLookup } from './move-gate.js';

/** What `name` serves under `label` as stored in `repos` (archived prompts serve nothing). */
async function servedIn(repos: Repositories, label: string, name: string): Promise<IncludeTarget | null> {
  const head = await repos.prompts.head(name);
  if (!head || head.archived) return null;
  const n =
    label === LATEST ? head.latestVersion
    : label === PRODUCTION ? head.activeVersion
    : (await repos.labels.carrying(label, [name]))[0]?.version;
  if (!n) return null;
  const version = await repos.prompts.version(name, n);
  return version ? { name, version } : null;
}

/** Includes resolved as the catalog resolves them (pins as written; unpinned: `label`, then production). */
export function storedIncludeContext(repos: Repositories, label: string): IncludeContext {
  return {
    label,
    async resolve(ref) {
      if (ref.version !== undefined) {
        const version = await repos.prompts.version(ref.prompt, ref.version);
        return version ? { name: ref.prompt, version } : null;
      }
      if (ref.label !== undefined) return servedIn(repos, ref.label, ref.prompt);
      return (await servedIn(repos, label, ref.prompt)) ?? (label === PRODUCTION ? null : servedIn(repos, PRODUCTION, ref.prompt));
    },
  };
}

export const includeCheckRender: CheckRenderFactory = (repos) => {
  const resolver = createResourceResolver(repos);
  return (prompt, version, args, label) => renderVersion(prompt, version, args, resolver, storedIncludeContext(repos, label));
};

/** The prompts served under `label` that include `prompt`: the gate checks them too. */
export const includeDependents: DependentsLookup = async (repos, prompt, label) => (await labelImpact(repos, label, [prompt])).dependents;
