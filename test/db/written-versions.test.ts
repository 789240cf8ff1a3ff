// A label move in the transaction that wrote the version (a create with activation, an
// import batch) takes the version's id from the insert, not from a read of
// PromptVersion; a move to a version written before reads it. Both point the label at
// the right row, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../src/db/prisma.js';
import { repositories } from '../../src/db/store.js';
import { actor, makeCore, type TestCore } from '../helpers/db.js';

let core: TestCore;
beforeAll(async () => {
  core = await makeCore();
  await core.prompts.create({ name: 'older', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'v1' } }] }, actor);
});
afterAll(() => core.close());

/** `tx` with a count of the PromptVersion reads made through it. */
function counting(tx: Tx): { tx: Tx; reads: () => number } {
  let n = 0;
  const versions = new Proxy(tx.promptVersion, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (prop === 'findMany' || prop === 'findFirst' || prop === 'findUnique') n++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const proxied = new Proxy(tx, { get: (target, prop, receiver) => (prop === 'promptVersion' ? versions : Reflect.get(target, prop, receiver)) });
  return { tx: proxied as Tx, reads: () => n };
}

const input = (text: string) => ({ arguments: [], messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });

describe('label moves in the transaction that wrote the version', () => {
  it('take the id from the insert; a version written earlier is read', async () => {
    const db = core.db;
    const older = (await db.prisma.prompt.findUnique({ where: { name: 'older' } }))!;
    const at = new Date();
    const counts = await db.transaction(async (tx) => {
      const c = counting(tx);
      const repos = repositories(c.tx, db.dialect, db.writeSql(tx));
      const ids = await repos.prompts.insertPrompts([{ name: 'fresh', latestVersion: 1, latest: input('fresh v1') }], at);
      const fresh = ids.get('fresh')!;
      await repos.prompts.insertVersions([
        { promptId: fresh, name: 'fresh', number: 1, input: input('fresh v1'), author: 'test' },
        { promptId: older.id, name: 'older', number: 2, input: input('older v2'), author: 'test' },
      ], new Map(), at);
      const before = c.reads();
      await repos.labels.move([{ promptId: fresh, label: 'production', number: 1 }, { promptId: older.id, label: 'staging', number: 2 }], at);
      const written = c.reads() - before;
      await repos.labels.move([{ promptId: older.id, label: 'production', number: 1 }], at);
      return { written, earlier: c.reads() - before - written };
    });
    expect(counts).toEqual({ written: 0, earlier: 1 });
    const labels = await db.prisma.promptLabel.findMany({ include: { version: { include: { prompt: true } } }, orderBy: [{ promptId: 'asc' }, { name: 'asc' }] });
    expect(labels.map((l) => [l.version.prompt.name, l.name, l.version.number])).toEqual([
      ['older', 'production', 1],
      ['older', 'staging', 2],
      ['fresh', 'production', 1],
    ]);
    const fresh = (await db.prisma.prompt.findUnique({ where: { name: 'fresh' }, include: { activeVersion: true } }))!;
    expect(fresh.activeVersion?.number).toBe(1);
  });
});
