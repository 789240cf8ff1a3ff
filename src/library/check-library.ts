// `promptd check [dir]`: the checks of POST …/versions/{n}/check, run on library files
// before they are imported (CI on a prompt repository). No database: each file is read
// and validated as `promptd import` reads it (readLibrary), and each version is
// rendered by the core's renderer against the library's own resources.yaml.
import { createResourceResolver } from '../core/resource-resolver.js';
import { renderVersion } from '../core/render.js';
import { runChecks, versionFromInput, type CheckReport } from '../core/checks/run-checks.js';
import { createRegexRunner } from '../core/checks/regex-runner.js';
import type { FieldError } from '../core/errors.js';
import { PRODUCTION } from '../core/schemas.js';
import { readLibrary, type ParsedLibrary } from './read-library.js';
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

export async function checkLibrary(target: string, opts: { label?: string; limits?: ReadLimits } = {}): Promise<LibraryCheckReport> {
  const lib = readLibrary(target, opts.limits);
  const resolver = createResourceResolver(libraryResources(lib));
  const regex = createRegexRunner();
  const versions: LibraryCheckReport['versions'] = [];
  try {
    for (const p of lib.prompts) {
      for (const [i, v] of p.versions.entries()) {
        const report = await runChecks(p.name, fileVersion(v.input, v.number ?? i + 1), {
          label: opts.label ?? PRODUCTION,
          render: (name, version, args) => renderVersion(name, version, args, resolver),
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
