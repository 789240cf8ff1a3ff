// Which PostgreSQL statements become named prepared statements (src/db/pg-statement-names.ts):
// the write path's data-modifying ones, each text always under the same name, within a bound;
// never a read (a generic plan could serve a search far worse than its custom plan).
import { describe, expect, it } from 'vitest';
import { createStatementNames } from '../../src/db/pg-statement-names.js';

const q = (sql: string) => ({ sql });

describe('PostgreSQL statement names', () => {
  it('names data-modifying statements, the same name for the same text', () => {
    const names = createStatementNames();
    const batch = 'WITH "v" AS (INSERT INTO "PromptVersion" ("promptId") VALUES ($1) RETURNING "id") SELECT 1';
    const bump = 'UPDATE "Prompt" SET "latestVersion" = "latestVersion" + $1 WHERE "name" = $2 RETURNING "id"';
    const insert = 'INSERT INTO "ChangeEvent" ("actor") VALUES ($1)';
    const remove = 'DELETE FROM "PromptLabel" WHERE "id" = $1';
    const got = [batch, bump, insert, remove].map((s) => names(q(s)));
    expect(got.every((n) => typeof n === 'string' && n.length > 0 && n.length <= 63)).toBe(true);
    expect(new Set(got).size).toBe(4);
    expect([batch, bump, insert, remove].map((s) => names(q(s)))).toEqual(got);
  });

  it('leaves reads, locks and other statements unnamed', () => {
    const names = createStatementNames();
    for (const sql of [
      'SELECT "id" FROM "Prompt" WHERE "searchText" LIKE $1',
      'WITH "x" AS (SELECT 1) SELECT * FROM "x"',
      'SELECT pg_advisory_xact_lock(7320247), pg_notify(\'promptd_changes\', \'\')',
      'SAVEPOINT w0',
      'BEGIN',
    ]) expect(names(q(sql))).toBeUndefined();
  });

  it('names at most its bound of texts, and no long text', () => {
    const names = createStatementNames(3);
    const texts = Array.from({ length: 5 }, (_, i) => `INSERT INTO "T${i}" ("a") VALUES ($1)`);
    const got = texts.map((t) => names(q(t)));
    expect(got.slice(0, 3).every((n) => typeof n === 'string')).toBe(true);
    expect(got.slice(3)).toEqual([undefined, undefined]);
    // The first three keep their names.
    expect(texts.slice(0, 3).map((t) => names(q(t)))).toEqual(got.slice(0, 3));
    expect(createStatementNames()(q(`INSERT INTO "T" ("a") VALUES ${'($1), '.repeat(5000)}($1)`))).toBeUndefined();
  });
});
