// Runs a version's checks: the lint (the save-time rules, re-run on what is stored,
// plus warnings) and every test case, each rendered as a client would get it.
import { DomainError, type FieldError } from '../errors.js';
import type { RenderedPrompt, Version } from '../types.js';
import type { VersionInput } from '../schemas.js';
import { analyzeTemplate } from '../template.js';
import { isUriTemplate, uriTemplateVariables } from '../uri-template.js';
import { validateVersion } from '../validate-version.js';
import { judge, renderedText, type ExpectationResult } from './expectations.js';
import type { RegexRunner } from './regex-runner.js';

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
    arguments: input.arguments.map((a) => ({ ...a, title: a.title ?? null, description: a.description ?? null, choices: a.choices ?? null, maxLength: a.maxLength ?? null, required: a.required ?? false, type: a.type ?? 'string', default: a.default ?? null })),
    messages: input.messages,
    tests: input.tests ?? [],
  };
}

/** The stored version read as a write input, so the save-time rules can run on it. */
const asInput = (v: Version) => ({ ...v, activate: undefined }) as unknown as VersionInput;

/** Save-time errors (templates, declared variables, test cases) and warnings (required arguments no template uses). */
export function lintVersion(v: Version): { errors: FieldError[]; warnings: FieldError[] } {
  const errors = validateVersion(asInput(v), undefined);
  const used = new Set<string>();
  for (const m of v.messages) {
    const c = m.content;
    if (c.type === 'text') for (const name of analyzeTemplate(c.text).variables) used.add(name);
    else if (!('data' in c)) {
      const bound = 'resourceUri' in c ? c.resourceUri : 'uri' in c ? c.uri : '';
      if (isUriTemplate(bound)) for (const name of uriTemplateVariables(bound)) used.add(name);
    }
  }
  const warnings = v.arguments.flatMap((a, i) =>
    a.required && !used.has(a.name) ? [{ path: `arguments[${i}].name`, message: `required argument "${a.name}" is used by no template` }] : [],
  );
  return { errors, warnings };
}

export async function runChecks(prompt: string, version: Version, opts: { label: string; render: CheckRender; regex: RegexRunner }): Promise<CheckReport> {
  const lint = lintVersion(version);
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
      expectations.push(text === null ? { expectation: x, passed: false, message: 'not judged: the test case did not render' } : await judge(x, text, opts.regex));
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
