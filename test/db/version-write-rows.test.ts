// The rows one version write leaves, on both databases: PostgreSQL writes them as one
// statement of data-modifying CTEs (src/db/repositories/version-batch.ts), SQLite as
// statements run straight on its connection (src/db/sqlite-direct.ts). Either way the
// version, its arguments, messages and bindings, the search text and the change event
// must be what the statement-by-statement path wrote.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/db/prisma.js';
import { sqliteDirectSql } from '../../src/db/sqlite-direct.js';
import { actor, makeCore, type TestCore } from '../helpers/db.js';

// better-sqlite3 ships no types; the connection as sqlite-direct.ts sees it, plus what the test calls.
type Connection = Parameters<typeof sqliteDirectSql>[0] & {
  exec(sql: string): void;
  defaultSafeIntegers(on: boolean): void;
  close(): void;
};
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => Connection;

let core: TestCore;
beforeAll(async () => {
  core = await makeCore();
  await core.resources.create({ uri: 'docs://style', name: 'style', mimeType: 'text/plain', text: 'be brief' }, actor);
  await core.prompts.create({ name: 'rows', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'first' } }] }, actor);
});
afterAll(() => core.close());

describe('a version write', () => {
  it('stores the version, its arguments, messages and bindings, the search text and its event', async () => {
    const { created } = await core.prompts.createVersion('rows', {
      title: 'Second', arguments: [{ name: 'topic', required: true }, { name: 'n', type: 'number', default: 2, required: false }],
      messages: [
        { role: 'user', content: { type: 'text', text: 'Write about Zebrafish {{topic}} {{n}}' } },
        { role: 'user', content: { type: 'resource', uri: 'docs://style' } },
        { role: 'user', content: { type: 'resource', uri: 'docs://guide/{topic}', allow: ['docs://guide/'] } },
      ],
    }, actor);
    expect(created.version).toBe(2);
    const p = (await core.db.prisma.prompt.findUnique({ where: { name: 'rows' } }))!;
    expect(p).toMatchObject({ latestVersion: 2, revision: 2 });
    expect(p.searchText).toBe('rows\nsecond\n\nwrite about zebrafish {{topic}} {{n}}');
    const v = (await core.db.prisma.promptVersion.findFirst({
      where: { promptId: p.id, number: 2 },
      include: { arguments: { orderBy: { position: 'asc' } }, messages: { orderBy: { position: 'asc' }, include: { binding: true } } },
    }))!;
    expect(v.title).toBe('Second');
    expect(v.arguments.map((a) => [a.position, a.name, a.required, a.type, a.defaultValue])).toEqual([[0, 'topic', true, 'string', null], [1, 'n', false, 'number', '2']]);
    const style = await core.db.prisma.resource.findFirst({ where: { uri: 'docs://style' } });
    expect(v.messages.map((m) => [m.position, m.type, m.binding?.uri ?? null, m.binding?.resourceId ?? null, m.binding?.isTemplate ?? null])).toEqual([
      [0, 'text', null, null, null],
      [1, 'resource', 'docs://style', style!.id, false],
      [2, 'resource', 'docs://guide/{topic}', null, true],
    ]);
    const events = await core.db.prisma.changeEvent.findMany({ where: { entityKey: 'rows' }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.action, e.served, e.details && JSON.parse(e.details)])).toEqual([
      ['prompt.created', true, { version: 1, labels: ['latest'] }],
      ['version.created', true, { version: 2, labels: ['latest'] }],
    ]);
    expect((await core.prompts.list({ q: 'zebrafish' })).items.map((i) => i.name)).toEqual(['rows']);
  });

  it('with activate: the event and the label move follow the version', async () => {
    await core.prompts.createVersion('rows', { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'third' } }], activate: true }, actor);
    const events = await core.db.prisma.changeEvent.findMany({ where: { entityKey: 'rows' }, orderBy: { id: 'asc' } });
    expect(events.slice(2).map((e) => e.action)).toEqual(['version.created', 'prompt.activated']);
    expect((await core.prompts.get('rows')).activeVersion).toBe(3);
  });
});

describe('SQLite statements run below Prisma', () => {
  it('refuse to run outside a transaction, and encode values as the adapter does', async () => {
    const db = new Database(':memory:');
    db.defaultSafeIntegers(true);
    const sql = sqliteDirectSql(db, (s) => db.prepare(s) as never);
    db.exec('CREATE TABLE t (at TEXT, ok INTEGER, n INTEGER)');
    await expect(sql.execute(Prisma.sql`INSERT INTO t VALUES (${new Date(0)}, ${true}, ${1})`)).rejects.toThrow(/outside a write transaction/);
    expect((db.prepare('SELECT COUNT(*) AS c FROM t') as { get(): unknown }).get()).toEqual({ c: 0n });
    db.exec('BEGIN');
    expect(await sql.execute(Prisma.sql`INSERT INTO t VALUES (${new Date(0)}, ${true}, ${1})`)).toBe(1);
    expect(await sql.query(Prisma.sql`SELECT at, ok, n FROM t`)).toEqual([{ at: '1970-01-01T00:00:00.000+00:00', ok: 1, n: 1 }]);
    db.exec('ROLLBACK');
    db.close();
  });
});
