import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../helpers/db.js';
import { importLibrary } from '../../src/library/apply.js';
import { planImport } from '../../src/library/plan.js';
import { readLibrary } from '../../src/library/read-library.js';
import { freshCore, snapshot, tempDir, writeFiles } from './helpers.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const greet = (greeting = 'Hello') => `name: greet
description: Greets someone.
note: first
arguments:
  - name: who
    description: Who to greet.
    required: true
    choices: [world, team]
messages:
  - role: user
    text: |
      ${greeting} {{who}}!
  - role: user
    resource: notes://greeting/{who}
    allow: ["notes://greeting/"]
`;

const LIB = {
  'resources.yaml': `resources:
  - uri: notes://greeting/world
    name: world-note
    mimeType: text/plain
    file: resources/world.txt
  - uri: notes://greeting/team
    name: team-note
    mimeType: text/plain
    text: The team.
  - uri: image://logo.png
    name: logo
    mimeType: image/png
    file: resources/logo.png
`,
  'resources/world.txt': 'The whole world.\n',
  'resources/logo.png': PNG,
  'prompts/greet.yaml': greet(),
  'prompts/logo.yaml': `name: logo
description: Describes the logo.
messages:
  - role: user
    image: image://logo.png
  - role: user
    text: What is this?
`,
};

let core: TestCore;
let dir: string;
beforeEach(async () => {
  core = await freshCore();
  dir = writeFiles(tempDir('pd-lib-'), LIB);
});
afterEach(() => core.close());

describe('promptd import', () => {
  it('creates resources and prompts, reads binaries as bytes, and is idempotent', async () => {
    const r = await importLibrary(core, dir, { activate: true });
    expect(r.failed).toBe(false);
    expect(r.counts).toMatchObject({ created: 2, newVersion: 0, activated: 2, resourcesCreated: 3 });
    const logo = (await core.resources.list({})).items.find((x) => x.uri === 'image://logo.png')!;
    expect(Buffer.from((await core.resources.get(logo.id)).blob!)).toEqual(PNG);
    await core.catalog.ready();
    const out = await core.catalog.render('greet', { who: 'world' });
    expect(out.messages[1]!.content).toMatchObject({ type: 'resource', resource: { text: 'The whole world.\n' } });

    const before = await snapshot(core);
    const again = await importLibrary(core, dir, { activate: true });
    expect(again.counts).toMatchObject({ created: 0, newVersion: 0, unchanged: 2, activated: 0, resourcesUnchanged: 3 });
    expect(await snapshot(core)).toEqual(before);
  });

  it('a changed file creates exactly one new version; an unchanged one none; a note alone is no change', async () => {
    await importLibrary(core, dir);
    writeFileSync(path.join(dir, 'prompts/greet.yaml'), greet('Hi'));
    let r = await importLibrary(core, dir);
    expect(r.prompts.find((p) => p.name === 'greet')).toMatchObject({ action: 'new-version', latest: 1, creates: [2] });
    expect(r.prompts.find((p) => p.name === 'logo')).toMatchObject({ action: 'unchanged' });
    expect((await core.prompts.get('greet')).latestVersion).toBe(2);
    expect((await core.prompts.get('logo')).latestVersion).toBe(1);
    // Not activated without --activate: v1 was never served, nothing is now.
    expect((await core.prompts.get('greet')).activeVersion).toBeNull();

    writeFileSync(path.join(dir, 'prompts/greet.yaml'), greet('Hi').replace('note: first', 'note: only the note changed'));
    r = await importLibrary(core, dir, { activate: true });
    expect(r.counts).toMatchObject({ created: 0, newVersion: 0, unchanged: 2, activated: 2 });
    expect((await core.prompts.get('greet')).latestVersion).toBe(2);
    expect((await core.prompts.get('greet')).activeVersion).toBe(2);
  });

  it('--dry-run prints the plan and writes nothing', async () => {
    await importLibrary(core, dir);
    writeFileSync(path.join(dir, 'prompts/greet.yaml'), greet('Hey'));
    writeFiles(dir, { 'prompts/new.yaml': 'name: new\ndescription: d\nmessages: [{role: user, text: hi}]\n', 'resources/world.txt': 'Changed.\n' });
    const before = await snapshot(core);
    const r = await importLibrary(core, dir, { dryRun: true, activate: true });
    expect(r.dryRun).toBe(true);
    expect(r.prompts.map((p) => [p.name, p.action])).toEqual([['greet', 'new-version'], ['logo', 'unchanged'], ['new', 'create']]);
    expect(r.resources.find((x) => x.key === 'notes://greeting/world')!.action).toBe('update');
    expect(await snapshot(core)).toEqual(before);
  });

  it('rejects a file with an undeclared variable by path and field; the rest still applies', async () => {
    writeFiles(dir, {
      'prompts/bad.yaml': 'name: bad\ndescription: d\nmessages:\n  - role: user\n    text: "Hi {{nope}}"\n',
      'prompts/wrong-name.yaml': 'name: other\ndescription: d\nmessages: [{role: user, text: hi}]\n',
    });
    const r = await importLibrary(core, dir, { activate: true });
    expect(r.failed).toBe(true);
    const bad = r.prompts.find((p) => p.file === 'prompts/bad.yaml')!;
    expect(bad.action).toBe('error');
    expect(bad.errors).toContainEqual({ path: 'messages[0].content.text', message: '{{nope}} is not a declared argument' });
    expect(r.prompts.find((p) => p.file === 'prompts/wrong-name.yaml')!.errors![0]!.path).toBe('name');
    expect(r.counts).toMatchObject({ created: 2, errors: 2 });
    await expect(core.prompts.get('bad')).rejects.toThrow(/not found/);
    expect((await core.prompts.get('greet')).activeVersion).toBe(1);
  });

  it('is atomic per prompt when a write fails mid-batch: only that prompt is left out', async () => {
    const plan = await planImport(core, readLibrary(dir), { activate: true });
    // Someone creates "greet" between planning and writing: its create now conflicts.
    await core.prompts.create({ name: 'greet', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'theirs' } }] }, { name: 'someone' });
    const { applyPlan } = await import('../../src/library/apply.js');
    const r = await applyPlan(core, plan);
    expect(r.prompts.find((p) => p.name === 'greet')).toMatchObject({ action: 'error' });
    expect(r.prompts.find((p) => p.name === 'greet')!.errors![0]!.message).toMatch(/already exists/);
    expect(r.prompts.find((p) => p.name === 'logo')).toMatchObject({ action: 'create' });
    const greetNow = await core.prompts.get('greet');
    expect([greetNow.latestVersion, greetNow.activeVersion]).toEqual([1, null]);
    expect(greetNow.latest.messages[0]!.content).toEqual({ type: 'text', text: 'theirs' });
    expect((await core.prompts.get('logo')).activeVersion).toBe(1);
  });

  it('reports manifest problems per entry and updates a resource only when it changed', async () => {
    await importLibrary(core, dir);
    writeFiles(dir, {
      'resources/world.txt': 'Now smaller.\n',
      'resources.yaml': `${LIB['resources.yaml']}  - uri: notes://missing
    name: missing
    mimeType: text/plain
    file: resources/nope.txt
  - uri: notes://escape
    name: escape
    mimeType: text/plain
    file: ../outside.txt
`,
    });
    const r = await importLibrary(core, dir);
    expect(r.failed).toBe(true);
    expect(r.resources.filter((x) => x.action === 'update').map((x) => x.key)).toEqual(['notes://greeting/world']);
    const errors = r.resources.flatMap((x) => x.errors ?? []);
    expect(errors.map((e) => e.path)).toEqual(['resources[3].file', 'resources[4].file']);
    expect(errors[0]!.message).toMatch(/ENOENT/);
    expect(errors[1]!.message).toMatch(/outside the library/);
    await core.catalog.ready();
    const greetVersion = await core.prompts.render('greet', { arguments: { who: 'world' } });
    expect(greetVersion.messages[1]!.content).toMatchObject({ resource: { text: 'Now smaller.\n' } });
  });

  it('imports a single prompt file', async () => {
    await importLibrary(core, dir);
    writeFileSync(path.join(dir, 'prompts/greet.yaml'), greet('Yo'));
    const r = await importLibrary(core, path.join(dir, 'prompts/greet.yaml'));
    expect(r.prompts).toHaveLength(1);
    expect(r.prompts[0]).toMatchObject({ action: 'new-version', creates: [2] });
    expect(readFileSync(path.join(dir, 'prompts/greet.yaml'), 'utf8')).toContain('Yo {{who}}');
  });
});
