// Test-case expectations and the regex guard (src/core/checks): judged on rendered
// text, catastrophic patterns refused by shape at write time, and what the shape check
// misses cut off by the runner's budget instead of stalling the process.
import { afterAll, describe, expect, it } from 'vitest';
import { judge, renderedText, testCaseProblems } from '../../src/core/checks/expectations.js';
import { regexProblem } from '../../src/core/checks/regex-safety.js';
import { createRegexRunner, MATCH_INPUT_MAX } from '../../src/core/checks/regex-runner.js';
import { runChecks } from '../../src/core/checks/run-checks.js';
import { renderVersion } from '../../src/core/render.js';
import type { Version } from '../../src/core/types.js';

const regex = createRegexRunner();
afterAll(() => regex.close());

describe('regexProblem (write-time shape check)', () => {
  it.each([
    ['(a+)+$', /nested quantifiers/],
    ['(a*)*b', /nested quantifiers/],
    ['((ab)+c)*', /nested quantifiers/],
    ['(?:x+y?)+', /nested quantifiers/],
    ['(a)\\1', /backreferences/],
    ['(?<w>a)\\k<w>', /named backreferences/],
    ['foo(?=bar)', /lookahead/],
    ['(?<!x)y', /lookbehind/],
    ['(', /not a valid regular expression/],
  ])('refuses %s', (source, why) => {
    expect(regexProblem(source)).toMatch(why);
  });

  it.each(['^Hello, \\w+!$', '(?:foo|bar)+', '[(+*)]+', '\\(a+\\)+', 'a{2,5}b?', '(?<name>ab)c', '\\d{3}-\\d{4}', '(ab)+'])('accepts %s', (source) => {
    expect(regexProblem(source)).toBeUndefined();
  });
});

describe('judge', () => {
  const text = 'Hello, Ada!\n\nBe brief.';
  it('contains, notContains, maxChars and matches pass and fail with a message', async () => {
    expect(await judge({ contains: 'Ada' }, text, regex)).toEqual({ expectation: { contains: 'Ada' }, passed: true, message: null });
    expect((await judge({ contains: 'Bob' }, text, regex)).message).toMatch(/does not contain "Bob"/);
    expect((await judge({ notContains: 'Ada' }, text, regex)).message).toMatch(/contains "Ada"/);
    expect((await judge({ notContains: 'Bob' }, text, regex)).passed).toBe(true);
    expect((await judge({ maxChars: text.length }, text, regex)).passed).toBe(true);
    expect((await judge({ maxChars: 5 }, text, regex)).message).toMatch(`is ${text.length} characters long; at most 5`);
    expect((await judge({ matches: '^Hello, \\w+!' }, text, regex)).passed).toBe(true);
    expect((await judge({ matches: '^Bye' }, text, regex)).message).toMatch(/does not match/);
  });

  it('a catastrophic pattern stored before the rule is refused when judged, never run', async () => {
    const r = await judge({ matches: '(a+)+$' }, 'a'.repeat(40) + '!', regex);
    expect(r.passed).toBe(false);
    expect(r.message).toMatch(/refused: nested quantifiers/);
  });

  it('a polynomial pattern the shape check admits is cut off by the budget, and the runner keeps working', async () => {
    // `.*.*.*x` on 100k characters backtracks for minutes on the main thread; the
    // budget is an upper bound here (no assertion on how long it took).
    const quick = createRegexRunner({ budgetMs: 1000 });
    try {
      const r = await quick.test('.*.*.*x', 'a'.repeat(MATCH_INPUT_MAX));
      expect(r).toEqual({ error: expect.stringMatching(/took longer than 1000 ms/) });
      expect(await quick.test('^a+$', 'aaa')).toEqual({ matched: true });
    } finally {
      await quick.close();
    }
  });

  it('text past the matches bound fails the expectation with a reason', async () => {
    const r = await judge({ matches: 'x' }, 'a'.repeat(MATCH_INPUT_MAX + 1), regex);
    expect(r.message).toMatch(/matches looks at most/);
  });
});

describe('testCaseProblems (write time)', () => {
  it('names the failing field: unsafe pattern, undeclared argument, duplicate name', () => {
    const errors = testCaseProblems(
      [
        { name: 'a', arguments: { who: 'x', nope: 'y' }, expect: [{ contains: 'x' }, { matches: '(x+)+' }] },
        { name: 'a', arguments: {}, expect: [{ maxChars: 3 }] },
      ],
      new Set(['who']),
    );
    expect(errors).toEqual([
      { path: 'tests[0].arguments.nope', message: '"nope" is not a declared argument' },
      { path: 'tests[0].expect[1].matches', message: expect.stringMatching(/nested quantifiers/) },
      { path: 'tests[1].name', message: 'test case "a" appears twice' },
    ]);
  });
});

describe('runChecks', () => {
  const version: Version = {
    version: 3, title: null, description: null, icons: null, note: null, author: null, createdAt: new Date(),
    arguments: [{ name: 'who', title: null, description: null, type: 'string', default: null, required: true, choices: null, maxLength: null }, { name: 'unused', title: null, description: null, type: 'string', default: null, required: true, choices: null, maxLength: null }],
    messages: [{ role: 'user', content: { type: 'text', text: 'Hello, {{who}}!' } }, { role: 'assistant', content: { type: 'text', text: 'Hi.' } }],
    tests: [
      { name: 'greets', arguments: { who: 'Ada', unused: 'u' }, expect: [{ contains: 'Ada' }, { matches: '^Hello, Ada!\\n\\nHi\\.$' }] },
      { name: 'missing', arguments: {}, expect: [{ contains: 'x' }] },
      { name: 'short', arguments: { who: 'Bob', unused: 'u' }, expect: [{ maxChars: 5 }] },
    ],
  };
  const none = { resolve: async () => null };

  it('reports each test case with its rendered output, lint warnings, and passed only when all pass', async () => {
    const r = await runChecks('greet', version, { label: 'production', render: (p, v, a) => renderVersion(p, v, a, none), regex });
    expect(r.passed).toBe(false);
    expect(r.lint).toEqual({ errors: [], warnings: [{ path: 'arguments[1].name', message: 'required argument "unused" is used by no template' }] });
    expect(r.tests.map((t) => [t.name, t.passed])).toEqual([['greets', true], ['missing', false], ['short', false]]);
    expect(r.tests[0]!.output!.messages[0]!.content).toEqual({ type: 'text', text: 'Hello, Ada!' });
    expect(r.tests[0]!.text).toBe(renderedText(r.tests[0]!.output!));
    expect(r.tests[1]!.error!.errors[0]!.path).toBe('arguments.who');
    expect(r.tests[1]!.expectations[0]!.message).toMatch(/did not render/);
    expect(r.tests[2]!.expectations[0]!.message).toMatch(/at most 5/);
  });
});
