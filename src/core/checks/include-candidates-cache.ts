// The check gate looks up the dependents of every moved prompt. Asked one prompt at a
// time, each lookup is a scan of every stored message (a text include is a substring),
// so an import moving production on 10,000 prompts paid 10,000 scans (O(n²): 81 s of
// 85 s of SQL for 10,000 new files). Nothing the gate does writes, so one write's
// candidates are loaded once, indexed by the names they include, and the per-prompt
// lookups are answered from memory.
import { includeRefsOf } from '../catalog-includes.js';
import type { IncludeCandidate, Repositories } from '../ports.js';

export function withIncludeCandidatesCache(repos: Repositories): Repositories {
  let index: Promise<Map<string, IncludeCandidate[]>> | undefined;
  const load = async () => {
    const byName = new Map<string, IncludeCandidate[]>();
    for (const c of await repos.prompts.includeCandidates()) {
      for (const name of new Set(includeRefsOf(c.messages).map((r) => r.prompt))) {
        const list = byName.get(name);
        if (list) list.push(c);
        else byName.set(name, [c]);
      }
    }
    return byName;
  };
  const prompts = Object.create(repos.prompts) as Repositories['prompts'];
  prompts.includeCandidates = async (name?: string) => (name === undefined ? repos.prompts.includeCandidates() : ((await (index ??= load())).get(name) ?? []));
  return { ...repos, prompts };
}
