// Test cases in files: promptd YAML `tests:` (single-version and history files) import
// and export exactly; changing only the tests makes a new version; other formats warn.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCase } from '../../src/core/index.js';
import { importLibrary } from '../../src/library/apply.js';
import { exportLibrary } from '../../src/library/export.js';
import { exportFormat } from '../../src/library/format-export.js';
import type { TestCore } from '../helpers/db.js';
import { freshCore, tempDir, writeFiles } from './helpers.js';

const actor = { name: 'test' };
const tests: TestCase[] = [
  { name: 'greets Ada', arguments: { who: 'Ada' }, expect: [{ contains: 'Hello, Ada' }, { notContains: 'Bob' }, { matches: '^Hello, \\w+!$' }, { maxChars: 40 }] },
  { name: 'no arguments', arguments: {}, expect: [{ contains: 'Hello' }] },
];

let core: TestCore;
beforeAll(async () => {
  core = await freshCore();
  const input = { arguments: [{ name: 'who', required: false }], messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Hello, {{who}}!' } }] };
  await core.prompts.create({ name: 'greet', ...input, tests, activate: true }, actor);
  await core.prompts.createVersion('greet', { ...input, tests: [tests[1]!] }, actor);
  await core.prompts.create({ name: 'plain', ...input, activate: true }, actor);
});
afterAll(() => core.close());

describe('test cases in files', () => {
  it('export → import → export is exact, for the latest version and for the whole history', async () => {
    for (const allVersions of [false, true]) {
      const first = tempDir('pd-tests-');
      await exportLibrary(core, first, { allVersions });
      const text = readFileSync(path.join(first, 'prompts', 'greet.yaml'), 'utf8');
      expect(text).toContain('tests:');
      expect(text).toContain('matches: ^Hello, \\w+!$');
      expect(readFileSync(path.join(first, 'prompts', 'plain.yaml'), 'utf8')).not.toContain('tests');
      const target = await freshCore();
      try {
        await importLibrary(target, first, { activate: true });
        // Without --all-versions the served version (1) is exported.
        expect((await target.prompts.getVersion('greet', 1)).tests).toEqual(tests);
        if (allVersions) expect((await target.prompts.getVersion('greet', 2)).tests).toEqual([tests[1]]);
        const second = tempDir('pd-tests-');
        await exportLibrary(target, second, { allVersions });
        expect(readFileSync(path.join(second, 'prompts', 'greet.yaml'), 'utf8')).toBe(text);
      } finally {
        await target.close();
      }
    }
  });

  it('a file whose test cases changed is a new version; the same tests are not', async () => {
    const target = await freshCore();
    try {
      const file = (expect: string) => `name: t\narguments:\n  - name: who\nmessages:\n  - role: user\n    text: "Hi {{who}}"\ntests:\n  - name: a\n    arguments: { who: x }\n    expect:\n      - contains: ${expect}\n`;
      const dir = writeFiles(tempDir('pd-tests-'), { 'prompts/t.yaml': file('Hi') });
      await importLibrary(target, dir);
      await importLibrary(target, dir);
      expect((await target.prompts.get('t')).latestVersion).toBe(1);
      writeFiles(dir, { 'prompts/t.yaml': file('Hi x') });
      await importLibrary(target, dir);
      const t = await target.prompts.get('t');
      expect(t.latestVersion).toBe(2);
      expect(t.latest.tests).toEqual([{ name: 'a', arguments: { who: 'x' }, expect: [{ contains: 'Hi x' }] }]);
    } finally {
      await target.close();
    }
  });

  it('a pattern RE2 cannot run (lookaround) in a file is refused on import, naming the field', async () => {
    const target = await freshCore();
    try {
      const dir = writeFiles(tempDir('pd-tests-'), { 'prompts/t.yaml': 'name: t\nmessages:\n  - role: user\n    text: Hi\ntests:\n  - name: a\n    expect:\n      - matches: "(?=x)y"\n' });
      const r = await importLibrary(target, dir).catch((e: unknown) => e);
      expect(JSON.stringify(r)).toMatch(/tests\[0\]\.expect\[0\]\.matches/);
      await expect(target.prompts.get('t')).rejects.toThrow(/not found/);
    } finally {
      await target.close();
    }
  });

  it('formats without a place for test cases say so in the export warnings', async () => {
    const r = await exportFormat(core, tempDir('pd-tests-'), 'dotprompt');
    expect(r.warnings).toContainEqual({ file: 'greet', message: '2 test case(s) not exported: the dotprompt format has no place for them' });
  });
});
