// Multi-row INSERTs of the write path (src/db/repositories/bulk-sql.ts), on both
// databases: a few rows go as one VALUES statement, more than one statement takes go
// in chunks (SQLite) or as one statement of one array per column (PostgreSQL, unnest).
// Either way every value must be stored as a VALUES list of Prisma.sql stored it, the
// ids assigned in row order, and RETURNING must answer for every row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/db/prisma.js';
import { insertRows } from '../../src/db/repositories/bulk-sql.js';
import { EVENT_COLUMNS } from '../../src/db/repositories/events-repo.js';
import { MESSAGE_COLUMNS } from '../../src/db/repositories/version-batch.js';
import { makeCore, type TestCore } from '../helpers/db.js';

let core: TestCore;
beforeAll(async () => {
  core = await makeCore();
});
afterAll(() => core.close());

const at = new Date('2026-11-25T02:45:01.123Z');
// Values that an array literal must quote or escape.
const awkward = ['', 'NULL', 'a,b', '{braces}', 'quote " and \\ backslash', 'line\nbreak', 'ünïcödé ✓', ' padded '];

/** Rows written through the transaction's own raw SQL (Db.writeSql), as Store.write runs them. */
async function insert<R extends Record<string, unknown>>(table: string, columns: string[], rows: unknown[][], returning?: string[]): Promise<R[]> {
  return core.db.prisma.$transaction((tx) => insertRows<R>(core.db.writeSql(tx), table, columns, rows, returning));
}

describe('insertRows', () => {
  for (const count of [3, 1_000]) {
    it(`stores ${count} change events exactly, ids in row order`, async () => {
      const before = (await core.db.prisma.changeEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
      const rows = Array.from({ length: count }, (_, i) => [
        at, `actor ${i}`, 'test.bulk', 'prompt', `key-${count}-${i}`, i % 2 === 0, i % 3 === 0 ? null : JSON.stringify({ i, s: awkward[i % awkward.length] }),
      ]);
      await insert('ChangeEvent', EVENT_COLUMNS, rows);
      const stored = await core.db.prisma.changeEvent.findMany({ where: { id: { gt: before } }, orderBy: { id: 'asc' } });
      expect(stored.map((e) => [e.at.toISOString(), e.actor, e.action, e.entity, e.entityKey, e.served, e.details])).toEqual(
        rows.map((r) => [at.toISOString(), ...r.slice(1)]),
      );
      expect(stored.map((e) => e.id)).toEqual(stored.map((_, i) => stored[0]!.id + i));
    });
  }

  it('stores messages with nulls, bytes and awkward text, and returns every row', async () => {
    const p = await core.db.prisma.prompt.create({ data: { name: 'bulk-rows', latestVersion: 1, updatedAt: at } });
    const v = await core.db.prisma.promptVersion.create({ data: { promptId: p.id, number: 1 } });
    const rows = Array.from({ length: 400 }, (_, i) => [
      v.id, i, i % 2 ? 'user' : 'assistant', i % 5 === 0 ? 'image' : 'text',
      i % 5 === 0 ? null : awkward[i % awkward.length]!.repeat(1 + (i % 3)),
      i % 5 === 0 ? Buffer.from([0, i % 256, 255, 92, 34]) : null,
      i % 5 === 0 ? 'image/png' : null, i % 7 === 0 ? '{"audience":["user"]}' : null,
      null, null, i % 11 === 0 ? i : null, null, i % 13 === 0,
    ]);
    const returned = await insert<{ id: number; versionId: number; position: number }>('PromptMessage', MESSAGE_COLUMNS, rows, ['id', 'versionId', 'position']);
    expect(returned.map((r) => Number(r.position)).sort((a, b) => a - b)).toEqual(rows.map((_, i) => i));
    const stored = await core.db.prisma.promptMessage.findMany({ where: { versionId: v.id }, orderBy: { id: 'asc' } });
    expect(stored.map((m) => m.position)).toEqual(rows.map((_, i) => i));
    expect(new Map(returned.map((r) => [Number(r.position), Number(r.id)]))).toEqual(new Map(stored.map((m) => [m.position, m.id])));
    expect(stored.map((m) => [m.role, m.type, m.text, m.data ? [...m.data] : null, m.mimeType, m.annotations, m.includeVersion, m.mayInclude])).toEqual(
      rows.map((r) => [r[2], r[3], r[4], r[5] ? [...(r[5] as Buffer)] : null, r[6], r[7], r[10], r[12]]),
    );
  });

  it('keeps a value that is itself SQL', async () => {
    const before = (await core.db.prisma.changeEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
    await insert('ChangeEvent', EVENT_COLUMNS, [[at, Prisma.sql`${'sql actor'}`, 'test.sql', 'prompt', 'sql-key', false, null]]);
    const [e] = await core.db.prisma.changeEvent.findMany({ where: { id: { gt: before } } });
    expect(e).toMatchObject({ actor: 'sql actor', action: 'test.sql', entityKey: 'sql-key', served: false, details: null });
  });
});
