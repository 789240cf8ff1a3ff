// Reads outside a write transaction see committed rows only, on both databases. On
// SQLite this used to fail: Prisma's adapter had one connection, and a read issued
// while a write transaction was open ran inside it (uncommitted rows, even rows a
// savepoint rolled back afterwards). Now reads go to a second, read-only connection
// and writes wait for the writer (src/db/sqlite-connections.ts, sqlite-write-tx.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/core/index.js';
import { writeVersions } from '../../src/core/services/version-writes.js';
import { openStore, type DbStore } from '../../src/db/store.js';
import { toEvent } from '../../src/db/repositories/events-repo.js';
import { actor, TEST_DB, freshStore, probeCount, probeEvent } from '../helpers/db.js';

const event = probeEvent;
const version = { arguments: [], messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hello' } }] };

/** A promise and the function that settles it: the test decides when a write goes on. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe(`reads outside a write transaction (${TEST_DB})`, () => {
  let store: DbStore;
  beforeAll(async () => {
    store = await freshStore();
  });
  afterAll(() => store?.close());
  const probes = (key: string) => probeCount(store, key);

  it('do not see the rows of a write transaction that is still open; see them once it commits', async () => {
    const inside = gate();
    const go = gate();
    const write = store.write(async (tx) => {
      await tx.events.append([event('open-a')]);
      await writeVersions(tx, [{ name: 'iso-open', mode: 'create', versions: [version] }], actor);
      // The transaction sees its own rows.
      const own = [(await tx.events.after(0, 10_000)).some((e) => e.entityKey === 'open-a'), Boolean(await tx.prompts.head('iso-open'))];
      inside.open();
      await go.opened;
      return own;
    });
    await inside.opened;
    const during = [await probes('open-a'), await store.read.prompts.head('iso-open'), await store.read.prompts.takenNames(['iso-open'])];
    go.open();
    expect(await write).toEqual([true, true]);
    expect(during).toEqual([0, null, []]);
    expect([await probes('open-a'), (await store.read.prompts.head('iso-open'))?.name]).toEqual([1, 'iso-open']);
  });

  it('never see the rows of a writer rolled back to its savepoint (a 412 in a group), before or after', async () => {
    const inside = gate();
    const go = gate();
    // Started in one tick: one group, each writer in a savepoint.
    const results = Promise.allSettled([
      store.write(async (tx) => { await tx.events.append([event('grp-a')]); return 'a'; }),
      store.write(async (tx) => {
        await tx.events.append([event('grp-b')]);
        await writeVersions(tx, [{ name: 'iso-stale', mode: 'create', versions: [version] }], actor);
        inside.open();
        await go.opened;
        throw new DomainError('precondition_failed', 'b is stale');
      }),
      store.write(async (tx) => { await tx.events.append([event('grp-c')]); return 'c'; }),
    ]);
    await inside.opened;
    const during = [await probes('grp-a'), await probes('grp-b'), await store.read.prompts.head('iso-stale')];
    go.open();
    const out = (await results).map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message));
    expect(out).toEqual(['a', 'b is stale', 'c']);
    expect(during).toEqual([0, 0, null]);
    expect([await probes('grp-a'), await probes('grp-b'), await probes('grp-c'), await store.read.prompts.head('iso-stale')]).toEqual([1, 0, 1, null]);
  });

  it('a write outside the transaction waits for it instead of joining it, and survives its rollback', async () => {
    const inside = gate();
    const go = gate();
    const write = store.write(async (tx) => {
      await tx.events.append([event('rb-a')]);
      inside.open();
      await go.opened;
      throw new Error('broke');
    });
    await inside.opened;
    const setting = store.writeSetting('iso-setting', 'kept');
    go.open();
    await expect(write).rejects.toThrow('broke');
    await setting;
    expect([await probes('rb-a'), await store.readSetting('iso-setting')]).toEqual([0, 'kept']);
  });

  it('model calls inside a write run in its transaction, and roll back with it', async () => {
    await expect(
      store.write(async (tx) => {
        await tx.events.append([event('lazy-a')]);
        // tags go through Prisma's models (a Prisma transaction inside ours on SQLite)
        await writeVersions(tx, [{ name: 'iso-lazy', mode: 'create', versions: [version] }], actor);
        const head = (await tx.prompts.head('iso-lazy'))!;
        await tx.prompts.setTags(head.id, ['x']);
        expect(await tx.prompts.tags(head.id)).toEqual(['x']);
        throw new DomainError('precondition_failed', 'changed my mind');
      }),
    ).rejects.toMatchObject({ code: 'precondition_failed' });
    expect([await probes('lazy-a'), await store.read.prompts.head('iso-lazy')]).toEqual([0, null]);
    await store.write(async (tx) => {
      await writeVersions(tx, [{ name: 'iso-lazy', mode: 'create', versions: [version] }], actor);
      const head = (await tx.prompts.head('iso-lazy'))!;
      await tx.prompts.setTags(head.id, ['y']);
    });
    const head = (await store.read.prompts.head('iso-lazy'))!;
    expect(await store.read.prompts.tags(head.id)).toEqual(['y']);
  });

  it('the change feed reads events (below Prisma on SQLite) exactly as Prisma reads them', async () => {
    await store.write((tx) => tx.events.append([{ actor: 'a', action: 'probe', entity: 'prompt', entityKey: 'feed-1', served: true, details: { n: 1, s: 'é' } }, event('feed-2')], new Date('2026-01-02T03:04:05.678Z')));
    // A row left to the column defaults (CURRENT_TIMESTAMP on SQLite, now() on PostgreSQL).
    await store.db.prisma.$executeRawUnsafe(`INSERT INTO "ChangeEvent" ("actor", "action", "entity", "entityKey") VALUES ('a', 'probe', 'token', 'feed-3')`);
    const viaPrisma = (await store.db.prisma.changeEvent.findMany({ orderBy: { id: 'asc' } })).map(toEvent);
    const viaFeed = await store.read.events.after(0, 10_000);
    expect(viaFeed).toEqual(viaPrisma);
    const last = viaFeed.slice(-3);
    expect(last.map((e) => [e.entityKey, e.served, e.details])).toEqual([['feed-1', true, { n: 1, s: 'é' }], ['feed-2', false, null], ['feed-3', false, null]]);
    expect(last[0]!.at.toISOString()).toBe('2026-01-02T03:04:05.678Z');
    expect(Math.abs(last[2]!.at.getTime() - Date.now())).toBeLessThan(60_000);
    expect((await store.read.events.after(viaFeed.at(-2)!.id, 10)).map((e) => e.entityKey)).toEqual(['feed-3']);
  });

  it('the change marker moves when another store on the same database commits', async () => {
    const other = await openStore(store.db.url);
    try {
      const before = await store.changeMarker();
      expect(await store.changeMarker()).toBe(before);
      await other.write((tx) => tx.events.append([event('marker-1')]));
      expect(await store.changeMarker()).not.toBe(before);
      expect(await probes('marker-1')).toBe(1);
    } finally {
      await other.close();
    }
  });
});
