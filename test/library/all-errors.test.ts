// Issue #37 items 11 and 13: a library file's errors all at once and in the library's
// words. A schema error does not hide the template and test case errors; a missing
// media file is that message's error and hides nothing; several YAML documents, or a
// .json file that is not JSON, are said as such. Paths are compared exactly.
import { describe, expect, it } from 'vitest';
import { readLibrary } from '../../src/library/read-library.js';
import { tempDir, writeFiles } from './helpers.js';

const problemsOf = (files: Record<string, string | Buffer>) => readLibrary(writeFiles(tempDir(), files)).problems;
const pathsOf = (files: Record<string, string | Buffer>) => {
  const problems = problemsOf(files);
  expect(problems).toHaveLength(1);
  return problems[0]!.errors.map((e) => e.path).sort();
};

const TESTS = `tests:
  - name: t
    arguments: {zz: "1"}
    expect:
      - matches: "(?=a)a"
`;

describe('every error of a library file together', () => {
  it('a typo key does not hide the undeclared variable nor the test case errors', () => {
    const paths = pathsOf({ 'prompts/x.yaml': `name: x\ntypo_key: 1\narguments: [{name: a}]\nmessages:\n  - role: user\n    text: "{{a}} {{undeclared}}"\n${TESTS}` });
    expect(paths).toEqual(['(file)', 'messages[0].content.text', 'tests[0].arguments.zz', 'tests[0].expect[0].matches']);
  });

  it('the same in a history file, each version under its own prefix', () => {
    const paths = pathsOf({
      'prompts/x.yaml': `name: x\nversions:\n  - version: 1\n    typo_key: 1\n    messages: [{role: user, text: "{{u}}"}]\n    tests: [{name: t, arguments: {zz: "1"}, expect: [{matches: "(?=a)a"}]}]\n  - version: 2\n    messages: [{role: bot, text: "{{v}}"}]\n`,
    });
    expect(paths).toEqual([
      'versions[0]', 'versions[0].messages[0].content.text', 'versions[0].tests[0].arguments.zz', 'versions[0].tests[0].expect[0].matches',
      'versions[1].messages[0].content.text', 'versions[1].messages[0].role',
    ]);
  });

  it('a file name mismatch comes with the checks the planner would have made', () => {
    const paths = pathsOf({ 'prompts/x.yaml': `name: y\nmessages:\n  - role: user\n    text: "{{undeclared}}"\n${TESTS}` });
    expect(paths).toEqual(['messages[0].content.text', 'name', 'tests[0].arguments.zz', 'tests[0].expect[0].matches']);
  });

  it('a missing media file is its message\'s error, with every other error', () => {
    const paths = pathsOf({
      'prompts/x.yaml': `name: x\nmessages:\n  - role: user\n    text: "{{undeclared}}"\n  - role: user\n    image: {file: media/missing.png, mimeType: image/png}\n`,
    });
    expect(paths).toEqual(['messages[0].content.text', 'messages[1].content.data']);
  });
});

describe('parse errors in the library\'s words', () => {
  it('several YAML documents', () => {
    const problems = problemsOf({ 'prompts/x.yaml': 'name: x\nmessages: [{role: user, text: hi}]\n---\nname: y\n---\nname: z\n' });
    expect(problems).toEqual([{ file: 'prompts/x.yaml', errors: [{ path: '(file)', message: 'holds 3 YAML documents; a prompt file holds one' }] }]);
  });

  it('a truncated .json file gets JSON\'s wording with its line and column', () => {
    const problems = problemsOf({ 'prompts/x.json': '{\n  "name": "x",\n  "messages": [{"role": "user", "text": "hi"}' });
    expect(problems).toHaveLength(1);
    const [e] = problems[0]!.errors;
    expect(problems[0]!.errors).toHaveLength(1);
    expect(e!.path).toBe('line 3');
    expect(e!.message).toMatch(/^invalid JSON at line 3, column 46: /);
    expect(e!.message).not.toMatch(/YAML|flow/i);
  });

  it('a JSON syntax error in the middle points at it', () => {
    const problems = problemsOf({ 'prompts/x.json': '{\n  "name": "x"\n  "messages": []\n}\n' });
    expect(problems[0]!.errors).toHaveLength(1);
    expect(problems[0]!.errors[0]!.message).toMatch(/^invalid JSON at line 3, column 3: /);
  });

  it('valid JSON files still import', () => {
    const lib = readLibrary(writeFiles(tempDir(), { 'prompts/x.json': JSON.stringify({ name: 'x', messages: [{ role: 'user', text: 'hi' }] }) }));
    expect(lib.problems).toEqual([]);
    expect(lib.prompts.map((p) => p.name)).toEqual(['x']);
  });
});
