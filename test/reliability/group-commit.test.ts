// Group commit (src/db/repositories/tx.ts createGroupWriter): writers of one process
// that wait together share one transaction, each in a savepoint. A failing writer
// loses only its own writes and gets its own error; the others commit; numbering stays
// gapless; nobody hears of success before the COMMIT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/core/index.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import { type DbStore } from '../../src/db/store.js';
import { createGroupWriter } from '../../src/db/repositories/tx.js';
import { actor, coreOn, TEST_DB, tempDbUrl, type TestCore, freshStore, probeCount, probeEvent } from '../helpers/db.js';

const event = probeEvent;

describe(`group commit (${TEST_DB})`, () => {
  let store: DbStore;
  beforeAll(async () => {
    store = await freshStore();
  });
  afterAll(() => store?.close());
  const probes = (key: string) => probeCount(store, key);

  it('writers started together: the failing ones lose only their own writes, with their own errors', async () => {
    // Started in one tick: they join one group.
    const results = await Promise.allSettled([
      store.write(async (tx) => { await tx.events.append([event('g-a')]); return 'a'; }),
      store.write(async (tx) => { await tx.events.append([event('g-b')]); throw new DomainError('precondition_failed', 'b is stale'); }),
      store.write(async (tx) => { await tx.events.append([event('g-c')]); return 'c'; }),
      store.write(async (tx) => { await tx.events.append([event('g-d')]); throw new Error('d broke'); }),
      store.write(async (tx) => { await tx.events.append([event('g-e')]); return 'e'; }),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['a', 'b is stale', 'c', 'd broke', 'e']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'precondition_failed' });
    expect(await Promise.all(['g-a', 'g-b', 'g-c', 'g-d', 'g-e'].map(probes))).toEqual([1, 0, 1, 0, 1]);
  });

  it('a writer that waited past the limit is refused (503) without running; the others run, in order', async () => {
    let clock = 0;
    const write = createGroupWriter(store.db, { queueMaxWaitMs: 1_000, now: () => clock });
    const ran: string[] = [];
    let release: (() => void) | undefined;
    const first = write(() => new Promise<void>((r) => (release = () => (ran.push('first'), r()))));
    while (!release) await new Promise((r) => setImmediate(r)); // the first group is running
    const second = write(async () => void ran.push('second'));
    clock += 1_500; // the first write takes long: the second waits past its limit
    const third = write(async () => void ran.push('third'));
    const fourth = write(async () => void ran.push('fourth'));
    release();
    await first;
    await expect(second).rejects.toMatchObject({ code: 'unavailable' });
    await Promise.all([third, fourth]);
    expect(ran).toEqual(['first', 'third', 'fourth']);
  });

  it('writers started together share one transaction: the second sees the first’s write, other connections do not yet', async () => {
    const seen = await Promise.all([
      store.write(async (tx) => { await tx.events.append([event('s-a')]); return 0; }),
      store.write(async (tx) => {
        const inside = (await tx.events.after(0, 10_000)).some((e) => e.entityKey === 's-a');
        const outside = await probes('s-a'); // another pooled connection
        return [inside, outside];
      }),
    ]);
    expect(seen[1]).toEqual([true, 0]);
    expect(await probes('s-a')).toBe(1);
  });

  it('a retryable failure of one writer runs the whole group again; each write lands once', async () => {
    let attempts = 0;
    const retryable = () => Object.assign(new Error('SQLITE_BUSY: database is locked / could not serialize access (40001)'), { code: '40001' });
    const out = await Promise.all([
      store.write(async (tx) => { await tx.events.append([event('r-a')]); return 'a'; }),
      store.write(async (tx) => { attempts++; await tx.events.append([event('r-b')]); if (attempts === 1) throw retryable(); return 'b'; }),
      store.write(async (tx) => { await tx.events.append([event('r-c')]); return 'c'; }),
    ]);
    expect([out, attempts]).toEqual([['a', 'b', 'c'], 2]);
    expect(await Promise.all(['r-a', 'r-b', 'r-c'].map(probes))).toEqual([1, 1, 1]);
  });
});

describe(`8 concurrent writers through the prompt service (${TEST_DB})`, () => {
  let core: TestCore;
  beforeAll(async () => {
    const url = await tempDbUrl();
    await migrateDatabase(url);
    core = await coreOn(url);
  });
  afterAll(() => core?.close());
  const v = (t: string) => ({ arguments: [], messages: [{ role: 'user' as const, content: { type: 'text' as const, text: t } }] });

  it('numbering is gapless per prompt; a stale If-Match in a group is a 412 that costs no number', async () => {
    const names = Array.from({ length: 8 }, (_, k) => `gc-${k}`);
    for (const n of names) await core.prompts.create({ name: n, ...v('v1') }, actor);
    const shared = 'gc-shared';
    await core.prompts.create({ name: shared, ...v('v1') }, actor);
    const stale = '"1"'; // the revision at creation; every write below moves it on
    const results = await Promise.all(
      names.map(async (n, k) => {
        const out: string[] = [];
        for (let i = 0; i < 10; i++) {
          out.push(String((await core.prompts.createVersion(n, v(`${n} ${i}`), actor)).created.version));
          // Every writer also writes to one shared prompt, some with a stale ETag.
          const r = await core.prompts.createVersion(shared, v(`${k} ${i}`), actor, i % 3 === 0 && i > 0 ? { ifMatch: stale } : {}).then(() => 'ok', (e: DomainError) => e.code);
          out.push(r);
        }
        return out;
      }),
    );
    for (const [k, out] of results.entries()) {
      expect(out.filter((_, i) => i % 2 === 0)).toEqual(Array.from({ length: 10 }, (_, i) => String(i + 2)));
      expect(out.filter((_, i) => i % 2 === 1), `writer ${k}`).toEqual(Array.from({ length: 10 }, (_, i) => (i % 3 === 0 && i > 0 ? 'precondition_failed' : 'ok')));
    }
    const list = await core.prompts.listVersions(shared, { limit: 200 });
    const numbers = list.items.map((x) => x.version).sort((a, b) => a - b);
    // 1 + 8 writers × 7 successful writes, numbered 1..57 without a gap.
    expect(numbers).toEqual(Array.from({ length: 57 }, (_, i) => i + 1));
    expect((await core.prompts.get(shared)).latestVersion).toBe(57);
  });
});
