// An import of more prompts than one write batch (250) that include each other, with
// production moved on every one: the check gate looks the include candidates up once
// per batch and still refuses the file whose move breaks a dependent's test case; a
// re-import parses only the changed file among the unchanged ones.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../helpers/db.js';
import { importLibrary } from '../../src/library/apply.js';
import { freshCore, tempDir, writeFiles } from './helpers.js';

const COUNT = 600;
const name = (i: number) => `p-${String(i).padStart(4, '0')}`;
const prompt = (i: number, text: string, tests = '') => `name: ${name(i)}\nmessages:\n  - role: user\n    text: "${text}"\n${tests}`;
// Every tenth prompt includes the one before it and tests that it says "part".
const textOf = (i: number) => (i % 10 === 9 ? `{{> ${name(i - 1)}}} whole ${i}` : `part ${i}`);
const testOf = (i: number) => (i % 10 === 9 ? `tests:\n  - name: says part\n    expect:\n      - contains: part\n` : '');

let core: TestCore;
let dir: string;
beforeEach(async () => {
  core = await freshCore();
  dir = writeFiles(tempDir('pd-many-'), Object.fromEntries(Array.from({ length: COUNT }, (_, i) => [`prompts/${name(i)}.yaml`, prompt(i, textOf(i), testOf(i))])));
});
afterEach(() => core.close());

describe('an import of many prompts that include each other', () => {
  it('writes them all, re-imports only the changed file, and refuses a move that breaks a dependent', async () => {
    const first = await importLibrary(core, dir, { activate: true });
    expect(first.counts).toMatchObject({ created: COUNT, activated: COUNT, errors: 0 });
    // A new prompt's search text is written with its row (prompts-repo.ts insertPrompts).
    expect((await core.prompts.list({ q: 'part 301' })).items.map((p) => p.name)).toEqual([name(301)]);

    // One harmless change among the unchanged files.
    writeFileSync(path.join(dir, `prompts/${name(301)}.yaml`), prompt(301, 'part 301, again'));
    // One change that breaks its includer's test: p-0509 includes p-0508 and wants "part".
    writeFileSync(path.join(dir, `prompts/${name(508)}.yaml`), prompt(508, 'nothing left'));
    const again = await importLibrary(core, dir, { activate: true });
    expect(again.counts).toMatchObject({ created: 0, newVersion: 1, unchanged: COUNT - 2, errors: 1 });
    const failed = again.prompts.filter((p) => p.action === 'error');
    expect(failed.map((p) => p.file)).toEqual([`prompts/${name(508)}.yaml`]);
    expect(failed[0]!.errors!.map((e) => e.path)).toEqual([`${name(509)}@1.tests[0]`]);
    expect((await core.prompts.get(name(301))).activeVersion).toBe(2);
    expect((await core.prompts.list({ q: 'part 301, again' })).items.map((p) => p.name)).toEqual([name(301)]);
    expect((await core.prompts.get(name(508))).latestVersion).toBe(1);
  });
});
