// `promptd check [dir]`: the checks of POST …/versions/{n}/check, run on library files
// before they are imported (CI on a prompt repository). No database: each file is read
// and validated as `promptd import` reads it (readLibrary), and each version is
// rendered by the core's renderer against the library's own resources.yaml.
import { createKnownLabels } from '../core/known-labels.js';
import { createResourceResolver } from '../core/resource-resolver.js';
import { renderVersion } from '../core/render.js';
import { runChecks, versionFromInput, type CheckReport } from '../core/checks/run-checks.js';
import { createRegexRunner } from '../core/checks/regex-runner.js';
import type { FieldError } from '../core/errors.js';
import type { IncludeContext } from '../core/render-includes.js';
import { LATEST, PRODUCTION } from '../core/schemas.js';
import { readLibrary, type ParsedLibrary } from './read-library.js';
import { libraryOverParseCap } from './parse-cap.js';
import type { ReadLimits } from './safe-read.js';

export interface LibraryCheckReport {
  /** every file read, every version's checks passed */
  passed: boolean;
  /** files that could not be read or validated (each is a failure) */
  problems: { file: string; errors: FieldError[] }[];
  /** one per version with checks, in file order */
  versions: (CheckReport & { file: string })[];
  counts: { files: number; versions: number; tests: number; failedTests: number };
}

/** A file's version as the core's Version, so the same renderer and lint run on it. */
export const fileVersion = versionFromInput;

/** The library's resources.yaml as the resolver's storage: what a render would find after import. */
type ResolverSource = Parameters<typeof createResourceResolver>[0];
function libraryResources(lib: ParsedLibrary): ResolverSource {
  const byUri = new Map(lib.resources.map(({ input: r }) => [r.uri, r]));
  const resources = {
    async byUri(uri: string) {
      const r = byUri.get(uri);
      if (!r) return null;
      return { uri: r.uri, name: r.name, title: r.title ?? null, description: r.description ?? null, mimeType: r.mimeType, visibility: r.visibility ?? 'bound', text: r.text ?? null, blob: r.blob !== undefined ? Buffer.from(r.blob, 'base64') : null };
    },
  };
  const templates = {
    async list() {
      return lib.templates.map(({ input: t }, i) => ({ id: i + 1, uriTemplate: t.uriTemplate, name: t.name, title: t.title ?? null, description: t.description ?? null, mimeType: t.mimeType, text: t.text, createdAt: new Date(0), updatedAt: new Date(0) }));
    },
  };
  // Only byUri and list are used by the resolver; the rest of the repositories is storage's.
  return { resources, templates } as unknown as ResolverSource;
}

/**
 * Includes resolve among the library's own files, as they would after importing it: a
 * version pin names that version of the file, a label the version the file labels so,
 * an unpinned include the checked label's version, then production's, then (a file
 * naming no label, imported without --label) its newest version.
 */
function libraryIncludes(lib: ParsedLibrary, label: string): IncludeContext {
  const byName = new Map(lib.prompts.map((p) => [p.name, p]));
  const at = (name: string, index: number | undefined) => {
    const p = byName.get(name);
    const v = index === undefined ? undefined : p?.versions[index];
    return p && v ? { name, version: fileVersion(v.input, v.number ?? index! + 1) } : null;
  };
  const labelled = (name: string, l: string) => at(name, byName.get(name)?.labels?.[l]);
  return {
    label,
    async resolve(ref) {
      const p = byName.get(ref.prompt);
      if (!p) return null;
      if (ref.version !== undefined) {
        const i = p.versions.findIndex((v, k) => (v.number ?? k + 1) === ref.version);
        return i < 0 ? null : at(ref.prompt, i);
      }
      if (ref.label !== undefined) return labelled(ref.prompt, ref.label);
      return labelled(ref.prompt, label) ?? labelled(ref.prompt, PRODUCTION) ?? (p.labels ? null : at(ref.prompt, p.versions.length - 1));
    },
  };
}

export async function checkLibrary(target: string, opts: { label?: string; limits?: ReadLimits } = {}): Promise<LibraryCheckReport> {
  // Large files are parsed on a capped worker first: one over its heap is refused, never parsed here.
  const lib = readLibrary(target, opts.limits, undefined, undefined, undefined, await libraryOverParseCap(target, opts.limits));
  // A label the files never name would resolve every include as production's: a typo
  // ("stagign") would pass silently. The known ones are the files' labels (and production, latest).
  const named = new Set(lib.prompts.flatMap((p) => Object.keys(p.labels ?? {})));
  await createKnownLabels(async () => [...new Set([PRODUCTION, LATEST, ...named])].sort()).require(opts.label ?? PRODUCTION);
  const resolver = createResourceResolver(libraryResources(lib));
  const regex = createRegexRunner();
  const versions: LibraryCheckReport['versions'] = [];
  try {
    for (const p of lib.prompts) {
      for (const [i, v] of p.versions.entries()) {
        const report = await runChecks(p.name, fileVersion(v.input, v.number ?? i + 1), {
          label: opts.label ?? PRODUCTION,
          render: (name, version, args, label) => renderVersion(name, version, args, resolver, libraryIncludes(lib, label)),
          regex,
        });
        versions.push({ file: p.file, ...report });
      }
    }
  } finally {
    await regex.close();
  }
  const tests = versions.flatMap((v) => v.tests);
  return {
    passed: lib.problems.length === 0 && versions.every((v) => v.passed),
    problems: lib.problems,
    versions,
    counts: { files: lib.prompts.length + lib.problems.length, versions: versions.length, tests: tests.length, failedTests: tests.filter((t) => !t.passed).length },
  };
}
