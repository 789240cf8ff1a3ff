// The labels migration on data: every prompt's active pointer becomes a `production`
// label, on SQLite and on PostgreSQL, by running the real migration files in order
// over a database that holds prompts written before labels existed.
import { describe, expect, it } from 'vitest';
import { acrossMigration } from '../helpers/migrations.js';

// Two prompts served (one of them at an older version), one never activated.
const seed = (now: string) => `
  INSERT INTO "Prompt" ("id", "name", "latestVersion", "revision", "createdAt", "updatedAt") VALUES
    (1, 'served', 2, 3, ${now}, ${now}), (2, 'rolled-back', 2, 4, ${now}, ${now}), (3, 'draft', 1, 1, ${now}, ${now});
  INSERT INTO "PromptVersion" ("id", "promptId", "number", "createdAt") VALUES
    (10, 1, 1, ${now}), (11, 1, 2, ${now}), (20, 2, 1, ${now}), (21, 2, 2, ${now}), (30, 3, 1, ${now});
  UPDATE "Prompt" SET "activeVersionId" = 11 WHERE "id" = 1;
  UPDATE "Prompt" SET "activeVersionId" = 20 WHERE "id" = 2;`;

const expected = [
  { promptId: 1, name: 'production', versionId: 11 },
  { promptId: 2, name: 'production', versionId: 20 },
];

const ASK = 'SELECT "promptId", "name", "versionId" FROM "PromptLabel" ORDER BY "promptId"';
const asLabels = (rows: unknown[][]) => rows.map(([promptId, name, versionId]) => ({ promptId: Number(promptId), name, versionId: Number(versionId) }));

describe('labels migration', () => {
  it('SQLite: active pointers become production labels', async () => {
    expect(asLabels(await acrossMigration('sqlite', 'labels', seed, ASK))).toEqual(expected);
  });

  it('PostgreSQL: the same', async () => {
    expect(asLabels(await acrossMigration('postgresql', 'labels', seed, ASK))).toEqual(expected);
  });
});
