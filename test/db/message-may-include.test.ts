// PromptMessage.mayInclude: what the check gate's "may anything include X?" reads instead of
// every message's text (issue 21). Every write path sets it (one version, a batch of
// versions, an import), the migration marks the rows already stored by the same rule,
// and include lookups still find every includer. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLibrary } from '../../src/library/apply.js';
import { actor, makeCore, TEST_DB, type TestCore } from '../helpers/db.js';
import { acrossMigration } from '../helpers/migrations.js';
import { tempDir, writeFiles } from '../library/helpers.js';

const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });

/** [prompt, version, position, type, mayInclude] of every stored message, in that order. */
async function flags(core: TestCore) {
  const rows = await core.db.prisma.promptMessage.findMany({
    select: { position: true, type: true, mayInclude: true, version: { select: { number: true, prompt: { select: { name: true } } } } },
  });
  return rows
    .map((m) => [m.version.prompt.name, m.version.number, m.position, m.type, m.mayInclude] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2]));
}

let core: TestCore;
beforeAll(async () => {
  core = await makeCore();
});
afterAll(() => core.close());

describe(`messages that may include another prompt (${TEST_DB})`, () => {
  it('are marked by every write path: a new prompt, a new version, an import', async () => {
    await core.resources.create({ uri: 'docs://style', name: 'style', mimeType: 'text/plain', text: 'be brief' }, actor);
    await core.prompts.create({ name: 'leaf', arguments: [], messages: [text('plain leaf')] }, actor);
    await core.prompts.create({ name: 'texty', arguments: [], messages: [text('before {{> leaf}} after'), text('a > b and {c} are not includes')] }, actor);
    await core.prompts.create({ name: 'mixed', arguments: [], messages: [text('plain mixed')] }, actor);
    await core.prompts.createVersion('mixed', {
      arguments: [],
      messages: [
        { role: 'user', content: { type: 'resource', uri: 'docs://style' } },
        { role: 'user', content: { type: 'include', prompt: 'leaf' } },
        text('{{>leaf}}'),
      ],
    }, actor);
    const dir = writeFiles(tempDir('pd-may-include-'), {
      'prompts/lib-a.yaml': 'name: lib-a\nmessages:\n  - role: user\n    text: "{{> leaf}} and more"\n',
      'prompts/lib-b.yaml': 'name: lib-b\nmessages:\n  - role: user\n    text: just words\n  - role: user\n    include:\n      prompt: leaf\n',
    });
    const report = await importLibrary(core, dir, { activate: true });
    expect(report.failed).toBeFalsy();
    expect(await flags(core)).toEqual([
      ['leaf', 1, 0, 'text', false],
      ['lib-a', 1, 0, 'text', true],
      ['lib-b', 1, 0, 'text', false],
      ['lib-b', 1, 1, 'include', true],
      ['mixed', 1, 0, 'text', false],
      ['mixed', 2, 0, 'resource', false],
      ['mixed', 2, 1, 'include', true],
      ['mixed', 2, 2, 'text', true],
      ['texty', 1, 0, 'text', true],
      ['texty', 1, 1, 'text', false],
    ]);
  });

  it('and the include lookups still find every includer (they read the flag first)', async () => {
    const dependents = async (name: string) => (await core.prompts.dependents(name)).map((d) => `${d.prompt}@${d.version}`);
    expect(await dependents('leaf')).toEqual(['lib-a@1', 'lib-b@1', 'mixed@2', 'texty@1']);
    expect(await dependents('texty')).toEqual([]);
  });
});

// The migration over rows written before the column existed, by the real migration files.
const seed = (now: string) => `
  INSERT INTO "Prompt" ("id", "name", "latestVersion", "revision", "createdAt", "updatedAt") VALUES (1, 'p', 1, 1, ${now}, ${now});
  INSERT INTO "PromptVersion" ("id", "promptId", "number", "createdAt") VALUES (10, 1, 1, ${now});
  INSERT INTO "PromptMessage" ("id", "versionId", "position", "role", "type", "text", "includePrompt") VALUES
    (100, 10, 0, 'user', 'text', 'plain {{x}}', NULL),
    (101, 10, 1, 'user', 'text', 'see {{> other}}', NULL),
    (102, 10, 2, 'user', 'include', NULL, 'other'),
    (103, 10, 3, 'user', 'resource', NULL, NULL);`;
const expected = [[100, false], [101, true], [102, true], [103, false]];

const ASK = 'SELECT "id", "mayInclude" FROM "PromptMessage" ORDER BY "id"';
const asFlags = (rows: unknown[][]) => rows.map(([id, may]) => [Number(id), may === true || Number(may) === 1]);

describe('the message_may_include migration', () => {
  it('SQLite: marks the includes and the texts holding {{> already stored', async () => {
    expect(asFlags(await acrossMigration('sqlite', 'message_may_include', seed, ASK))).toEqual(expected);
  });

  it('PostgreSQL: the same', async () => {
    expect(asFlags(await acrossMigration('postgresql', 'message_may_include', seed, ASK))).toEqual(expected);
  });
});
