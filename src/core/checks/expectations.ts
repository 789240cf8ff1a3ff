// Test-case expectations (docs/contracts.md, Test cases and checks): each one is
// judged on the rendered prompt's text, every message's text joined by a blank line.
import type { FieldError } from '../errors.js';
import type { TestCase, TestExpectation } from '../schemas.js';
import type { RenderedPrompt } from '../types.js';
import { regexProblem } from './regex-safety.js';
import type { RegexLimits, RegexRunner } from './regex-runner.js';

export interface ExpectationResult {
  expectation: TestExpectation;
  passed: boolean;
  /** why it failed, in words a person can act on; null when it passed */
  message: string | null;
}

/**
 * What expectations look at: text messages as rendered, embedded text resources'
 * text, resource links' URIs. Binary content (images, audio, blobs) adds nothing.
 */
export function renderedText(r: RenderedPrompt): string {
  return r.messages
    .map(({ content: c }) => (c.type === 'text' ? c.text : c.type === 'resource' ? ('text' in c.resource ? c.resource.text : '') : c.type === 'resource_link' ? c.uri : ''))
    .join('\n\n');
}

const quote = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}...` : s);

export async function judge(e: TestExpectation, text: string, regex: RegexRunner, limits?: RegexLimits): Promise<ExpectationResult> {
  const result = (passed: boolean, message: string) => ({ expectation: e, passed, message: passed ? null : message });
  if ('contains' in e) return result(text.includes(e.contains), `the output does not contain ${quote(e.contains)}`);
  if ('notContains' in e) return result(!text.includes(e.notContains), `the output contains ${quote(e.notContains)}`);
  if ('maxChars' in e) return result(text.length <= e.maxChars, `the output is ${text.length} characters long; at most ${e.maxChars} expected`);
  const problem = regexProblem(e.matches);
  if (problem) return result(false, `pattern ${quote(e.matches)} is refused: ${problem}`);
  const outcome = await regex.test(e.matches, text, limits);
  if ('error' in outcome) return result(false, outcome.error);
  return result(outcome.matched, `the output does not match /${e.matches}/`);
}

/**
 * Write-time rules the schema cannot express: every `matches` pattern compiles for RE2
 * (regex-safety.ts), and a test case only sets arguments the version declares.
 */
export function testCaseProblems(tests: readonly TestCase[] | undefined, declared: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  (tests ?? []).forEach((t, i) => {
    for (const name of Object.keys(t.arguments ?? {})) {
      if (!declared.has(name)) errors.push({ path: `tests[${i}].arguments.${name}`, message: `"${name}" is not a declared argument` });
    }
    t.expect.forEach((e, j) => {
      if (!('matches' in e)) return;
      const problem = regexProblem(e.matches);
      if (problem) errors.push({ path: `tests[${i}].expect[${j}].matches`, message: problem });
    });
  });
  const seen = new Set<string>();
  (tests ?? []).forEach((t, i) => {
    if (seen.has(t.name)) errors.push({ path: `tests[${i}].name`, message: `test case "${t.name}" appears twice` });
    seen.add(t.name);
  });
  return errors;
}
