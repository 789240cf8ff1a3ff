// Test-case expectations and the regex engine (src/core/checks): judged on rendered
// text, patterns run on RE2 (linear time: no catastrophic pattern left), features RE2
// lacks refused at write time, and one budget per check call, cancelled with its client.
import { afterAll, describe, expect, it } from 'vitest';
import { judge, renderedText, testCaseProblems } from '../../src/core/checks/expectations.js';
import { regexProblem } from '../../src/core/checks/regex-safety.js';
import { BUDGET_SPENT, CANCELLED, createRegexRunner, MATCH_INPUT_MAX } from '../../src/core/checks/regex-runner.js';
import { runChecks } from '../../src/core/checks/run-checks.js';
import { renderVersion } from '../../src/core/render.js';
import type { Version } from '../../src/core/types.js';

const regex = createRegexRunner();
afterAll(() => regex.close());

describe('regexProblem (write time: RE2 syntax)', () => {
  it.each([
    ['(a)\\1', /backreferences .*RE2, which matches in linear time/],
    ['(?<w>a)\\k<w>', /named backreferences/],
    ['foo(?=bar)', /lookahead/],
    ['(?<!x)y', /lookbehind/],
    ['(', /not a valid regular expression \(RE2 syntax\): missing closing \)/],
    ['\\u00e9', /not a valid regular expression/],
  ])('refuses %s', (source, why) => {
    expect(regexProblem(source)).toMatch(why);
  });

  it.each(['^Hello, \\w+!$', '(?:foo|bar)+', '[(+*)]+', '\\(a+\\)+', 'a{2,5}b?', '(?<name>ab)c', '\\d{3}-\\d{4}', '(ab)+', '(a+)+$', '^(a|a)*$', '(?:x+y?)+'])('accepts %s', (source) => {
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

  it.each(['^(a|a)*$', '(a+)+$', '.*.*.*x'])('%s, exponential or polynomial on a backtracking engine, is judged on 100,000 characters (RE2)', async (matches) => {
    // On JavaScript's engine `^(a|a)*$` takes longer than the age of the universe here;
    // a 60 s budget per pattern would be the only bound, and the result an error.
    const quick = createRegexRunner({ budgetMs: 60_000 });
    try {
      const long = 'a'.repeat(MATCH_INPUT_MAX - 1) + '!';
      expect(await quick.test(matches, long)).toEqual({ matched: false });
      expect(await quick.test(matches, 'aaax')).toEqual({ matched: matches === '.*.*.*x' });
      const r = await judge({ matches }, long, quick);
      expect(r).toEqual({ expectation: { matches }, passed: false, message: `the output does not match /${matches}/` });
    } finally {
      await quick.close();
    }
  });

  it('a stored pattern RE2 cannot run fails its expectation with the reason', async () => {
    const r = await judge({ matches: '(a)\\1' }, 'aa', regex);
    expect(r.passed).toBe(false);
    expect(r.message).toMatch(/refused: backreferences/);
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
        { name: 'a', arguments: { who: 'x', nope: 'y' }, expect: [{ contains: 'x' }, { matches: 'x(?=y)' }] },
        { name: 'a', arguments: {}, expect: [{ maxChars: 3 }] },
      ],
      new Set(['who']),
    );
    expect(errors).toEqual([
      { path: 'tests[0].arguments.nope', message: '"nope" is not a declared argument' },
      { path: 'tests[0].expect[1].matches', message: expect.stringMatching(/lookahead/) },
      { path: 'tests[1].name', message: 'test case "a" appears twice' },
    ]);
  });
});

describe('runChecks', () => {
  const version: Version = {
    version: 3, title: null, description: null, icons: null, note: null, author: null, createdAt: new Date(),
    arguments: [{ name: 'who', title: null, description: null, required: true, choices: null, maxLength: null, type: 'string', default: null }, { name: 'unused', title: null, description: null, required: true, choices: null, maxLength: null, type: 'string', default: null }],
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
    expect(r.lint).toEqual({ errors: [], warnings: [{ path: 'arguments[1]', message: 'required argument "unused" is not used by any template: clients must send it and it changes nothing; use it or make it optional' }] });
    expect(r.tests.map((t) => [t.name, t.passed])).toEqual([['greets', true], ['missing', false], ['short', false]]);
    expect(r.tests[0]!.output!.messages[0]!.content).toEqual({ type: 'text', text: 'Hello, Ada!' });
    expect(r.tests[0]!.text).toBe(renderedText(r.tests[0]!.output!));
    expect(r.tests[1]!.error!.errors[0]!.path).toBe('arguments.who');
    expect(r.tests[1]!.expectations[0]!.message).toMatch(/did not render/);
    expect(r.tests[2]!.expectations[0]!.message).toMatch(/at most 5/);
  });
});

describe('one budget per check call', () => {
  const version: Version = {
    version: 1, title: null, description: null, icons: null, note: null, author: null, createdAt: new Date(),
    arguments: [],
    messages: [{ role: 'user', content: { type: 'text', text: 'aaaa' } }],
    tests: Array.from({ length: 3 }, (_, i) => ({ name: `t${i}`, arguments: {}, expect: [{ matches: '^a+$' }, { contains: 'a' }] })),
  };
  const none = { resolve: async () => null };
  const render = (p: string, v: Version, a: Record<string, string>) => renderVersion(p, v, a, none);

  it('patterns past the call\'s budget are not judged (other expectations still are)', async () => {
    const r = await runChecks('p', version, { label: 'production', render, regex, budgetMs: 0 });
    expect(r.passed).toBe(false);
    for (const t of r.tests) {
      expect(t.expectations.map((x) => [x.passed, x.message])).toEqual([[false, BUDGET_SPENT], [true, null]]);
    }
    // The same checks with a budget pass: the budget is all that failed them.
    expect((await runChecks('p', version, { label: 'production', render, regex })).passed).toBe(true);
  });

  it('a cancelled check (its client went away) runs no more patterns', async () => {
    const gone = new AbortController();
    gone.abort();
    const counting = { calls: 0, test: (s: string, t: string, l?: Parameters<typeof regex.test>[2]) => (counting.calls++, regex.test(s, t, l)), close: async () => {} };
    const r = await runChecks('p', version, { label: 'production', render, regex: counting, signal: gone.signal });
    expect(r.tests.flatMap((t) => t.expectations.map((x) => x.message))).toEqual([CANCELLED, null, CANCELLED, null, CANCELLED, null]);
  });

  it('a check cancelled while its pattern runs stops it, and the runner keeps working', async () => {
    const own = createRegexRunner();
    try {
      const gone = new AbortController();
      const pending = own.test('(x+x+)+y', 'x'.repeat(MATCH_INPUT_MAX), { signal: gone.signal });
      gone.abort();
      expect(await pending).toEqual({ error: CANCELLED });
      expect(await own.test('^a+$', 'aaa')).toEqual({ matched: true });
    } finally {
      await own.close();
    }
  });
});
