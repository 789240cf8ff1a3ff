// Runs a version's checks: the lint (the save-time rules, re-run on what is stored,
// plus warnings) and every test case, each rendered as a client would get it.
import { DomainError, type FieldError } from '../errors.js';
import type { RenderedPrompt, Version } from '../types.js';
import type { VersionInput } from '../schemas.js';
import { validateVersion, versionWarnings } from '../validate-version.js';
import { judge, renderedText, type ExpectationResult } from './expectations.js';
import type { RegexRunner } from './regex-runner.js';

/**
 * Time for the patterns of one check call, all test cases together (not per pattern):
 * 100 test cases × 32 patterns may not hold the shared runner (which the label gate
 * uses too) for longer than this. Expectations past it fail as not judged.
 */
export const CHECK_BUDGET_MS = 10_000;

export interface TestCaseResult {
  name: string;
  arguments: Record<string, string>;
  passed: boolean;
  /** the rendered prompt; null when rendering failed (see error) */
  output: RenderedPrompt | null;
  /** the text expectations were judged on (renderedText); null when rendering failed */
  text: string | null;
  /** why rendering failed; null when it rendered */
  error: { message: string; errors: FieldError[] } | null;
  expectations: ExpectationResult[];
}

export interface CheckReport {
  prompt: string;
  version: number;
  /** the label includes were resolved under */
  label: string;
  /** no lint error and every test case passed */
  passed: boolean;
  lint: { errors: FieldError[]; warnings: FieldError[] };
  tests: TestCaseResult[];
}

/** Renders `version` of `prompt` for a test case, includes resolved under `label`. */
export type CheckRender = (prompt: string, version: Version, args: Record<string, string>, label: string) => Promise<RenderedPrompt>;

/** A version input (a file's, or one being written) as the Version the renderer takes. */
export function versionFromInput(input: VersionInput, number: number): Version {
  return {
    version: number,
    title: input.title ?? null,
    description: input.description ?? null,
    icons: input.icons ?? null,
    note: input.note ?? null,
    author: null,
    createdAt: new Date(0),
    arguments: input.arguments.map((a) => ({ ...a, type: a.type ?? 'string', default: a.default ?? null, title: a.title ?? null, description: a.description ?? null, choices: a.choices ?? null, maxLength: a.maxLength ?? null, required: a.required ?? false })),
    messages: input.messages,
    tests: input.tests ?? [],
  };
}

/** The stored version read as a write input, so the save-time rules can run on it. */
const asInput = (v: Version) => ({ ...v, activate: undefined }) as unknown as VersionInput;

/** Save-time errors (templates, declared variables, test cases) and warnings (required arguments no template uses). */
export function lintVersion(v: Version): { errors: FieldError[]; warnings: FieldError[] } {
  const input = asInput(v);
  const errors = validateVersion(input, undefined);
  const warnings = versionWarnings(input);
  return { errors, warnings };
}

export interface RunChecksOptions {
  label: string;
  render: CheckRender;
  regex: RegexRunner;
  /** aborted when the client goes away: patterns not yet run are not run */
  signal?: AbortSignal;
  /** the call's pattern budget (CHECK_BUDGET_MS) */
  budgetMs?: number;
}

export async function runChecks(prompt: string, version: Version, opts: RunChecksOptions): Promise<CheckReport> {
  const lint = lintVersion(version);
  const limits = { deadline: Date.now() + (opts.budgetMs ?? CHECK_BUDGET_MS), ...(opts.signal ? { signal: opts.signal } : {}) };
  const tests: TestCaseResult[] = [];
  for (const t of version.tests) {
    const args = t.arguments ?? {};
    let output: RenderedPrompt | null = null;
    let error: TestCaseResult['error'] = null;
    try {
      output = await opts.render(prompt, version, args, opts.label);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      error = { message: e.message, errors: e.errors };
    }
    const text = output ? renderedText(output) : null;
    const expectations: ExpectationResult[] = [];
    for (const x of t.expect) {
      expectations.push(text === null ? { expectation: x, passed: false, message: 'not judged: the test case did not render' } : await judge(x, text, opts.regex, limits));
    }
    tests.push({ name: t.name, arguments: args, passed: error === null && expectations.every((x) => x.passed), output, text, error, expectations });
  }
  return { prompt, version: version.version, label: opts.label, passed: lint.errors.length === 0 && tests.every((t) => t.passed), lint, tests };
}

/** A failing report as field errors: `name@3.tests[0]`, `name@3.messages[0].content.text`. */
export function reportFailures(r: CheckReport): FieldError[] {
  const at = `${r.prompt}@${r.version}`;
  return [
    ...r.lint.errors.map((e) => ({ path: `${at}.${e.path}`, message: e.message })),
    ...r.tests.flatMap((t, i) => {
      if (t.passed) return [];
      const why = t.error ? `does not render: ${t.error.message}` : t.expectations.filter((x) => !x.passed).map((x) => x.message).join('; ');
      return [{ path: `${at}.tests[${i}]`, message: `test case "${t.name}" fails: ${why}` }];
    }),
  ];
}
