// `promptd check [dir]` as CI runs it: a real child process (dist/), a library in a temp
// directory, exit codes 0 (all pass), 1 (a check or a file fails), 2 (usage). No
// database is opened (DATABASE_URL unset, and the cwd stays empty).
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, promptd, tempCwd } from './helpers.js';
import { tempDir, writeFiles } from '../library/helpers.js';

beforeAll(() => assertBuilt());

const greet = (tests: string) => `name: greet
arguments:
  - name: who
    required: true
  - name: topic
messages:
  - role: user
    text: "Hello, {{who}}!{{#topic}} About {{topic}}.{{/topic}}"
  - role: user
    resource: docs://style
tests:
${tests}`;
const resources = `resources:
  - uri: docs://style
    name: style
    mimeType: text/plain
    text: Be brief.
`;
const passing = `  - name: greets Ada
    arguments: { who: Ada }
    expect:
      - contains: Hello, Ada!
      - contains: Be brief.
      - matches: "^Hello, \\\\w+!"
      - notContains: About
  - name: with a topic
    arguments: { who: Bob, topic: tea }
    expect:
      - contains: About tea.
      - maxChars: 40
`;

describe('promptd check', () => {
  it('exits 0 when every test case passes, rendering against the library\'s resources', () => {
    const dir = writeFiles(tempDir('pd-check-'), { 'prompts/greet.yaml': greet(passing), 'resources.yaml': resources });
    const cwd = tempCwd();
    const r = promptd(['check', dir], { cwd });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✓ greets Ada');
    expect(r.stdout).toContain('passed: 1 version(s), 2/2 test case(s) passed');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('exits 1 with the failing expectation named, and --json carries each rendered output', () => {
    const dir = writeFiles(tempDir('pd-check-'), { 'prompts/greet.yaml': greet(passing + `  - name: too short
    arguments: { who: Ada }
    expect:
      - maxChars: 5
`), 'resources.yaml': resources });
    const r = promptd(['check', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ too short\n\s+the output is \d+ characters long; at most 5 expected/);
    expect(r.stdout).toContain('failed: 1 version(s), 2/3 test case(s) passed');
    const j = promptd(['check', dir, '--json']);
    expect(j.code).toBe(1);
    const report = JSON.parse(j.stdout);
    expect(report.passed).toBe(false);
    expect(report.versions[0].tests[0].output.messages[1].content).toEqual({ type: 'resource', resource: { uri: 'docs://style', mimeType: 'text/plain', text: 'Be brief.' } });
    expect(report.versions[0].tests.map((t: { passed: boolean }) => t.passed)).toEqual([true, true, false]);
  });

  it('exits 1 for a file that does not validate, and for a catastrophic pattern (named by its field)', () => {
    const bad = writeFiles(tempDir('pd-check-'), { 'prompts/greet.yaml': greet(`  - name: evil
    arguments: { who: Ada }
    expect:
      - matches: "(a)\\\\1"
`), 'resources.yaml': resources, 'prompts/broken.yaml': 'name: broken\nmessages: nope\n' });
    const r = promptd(['check', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✗ prompts/broken.yaml: cannot be read');
    expect(r.stdout).toMatch(/lint tests\[0\]\.expect\[0\]\.matches: backreferences/);
  });

  it('resolves includes among the library\'s files: under the checked label, then production', () => {
    const style = (text: string, labels: string) => `name: house-style
labels: [${labels}]
messages:
  - role: user
    text: ${text}
`;
    const greeter = `name: greeter
arguments:
  - name: who
    required: true
messages:
  - role: user
    text: "Hi {{who}}. {{> house-style}}"
tests:
  - name: polite
    arguments: { who: Ada }
    expect:
      - contains: Hi Ada. Be polite.
`;
    const dir = writeFiles(tempDir('pd-check-'), { 'prompts/house-style.yaml': style('Be polite.', 'production'), 'prompts/greeter.yaml': greeter });
    const r = promptd(['check', dir]);
    expect(r.stdout).toContain('✓ polite');
    expect(r.code).toBe(0);
    const staged = writeFiles(tempDir('pd-check-'), { 'prompts/house-style.yaml': style('Be terse.', 'staging'), 'prompts/greeter.yaml': greeter });
    const s = promptd(['check', staged, '--label', 'staging']);
    expect(s.code).toBe(1);
    expect(s.stdout).toContain('✗ polite');
  });

  it('exits 2 for usage errors', () => {
    expect(promptd(['check', '/nonexistent/library']).code).toBe(2);
    expect(promptd(['check', tempDir('pd-check-empty-')]).code).toBe(2);
    const dir = writeFiles(tempDir('pd-check-'), { 'prompts/greet.yaml': greet(passing), 'resources.yaml': resources });
    expect(promptd(['check', dir, '--label', 'Not_A_Label']).code).toBe(2);
    expect(promptd(['check', dir, '--bogus']).code).toBe(2);
  });
});
