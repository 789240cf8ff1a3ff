// The write path under contention: retryable database failures are retried inside
// the transaction boundary and never reach a client as a 500; writers of one process
// queue in memory instead of holding pooled connections while they wait for the lock
// (the cause of HTTP 500s in a PostgreSQL activation storm: "timeout exceeded when
// trying to connect"), so reads keep working while writers wait.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { DomainError } from '../../src/core/index.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import { openStore, type DbStore } from '../../src/db/store.js';
import { createWriteQueue } from '../../src/db/repositories/tx.js';
import { actor, coreOn, TEST_DB, tempDbUrl, type TestCore } from '../helpers/db.js';
import { waitFor } from '../helpers/spawn.js';

const event = (key: string) => ({ actor: 'test', action: 'probe', entity: 'token' as const, entityKey: key });
// Matches the retryable patterns of both dialects: SQLite's busy error, PostgreSQL's serialization failure.
const retryable = () => Object.assign(new Error('SQLITE_BUSY: database is locked / could not serialize access (40001)'), { code: '40001' });

describe(`retries inside the write transaction (${TEST_DB})`, () => {
  let store: DbStore;
  beforeAll(async () => {
    const url = await tempDbUrl();
    await migrateDatabase(url);
    store = await openStore(url, { poolMax: 3, backoffMs: () => 0 });
  });
  afterAll(() => store?.close());

  const probes = async (key: string) => (await store.read.events.after(0, 1000)).filter((e) => e.entityKey === key).length;

  it('a retryable failure runs the transaction again; its first attempt left nothing behind', async () => {
    let attempts = 0;
    const out = await store.write(async (tx) => {
      attempts++;
      await tx.events.append([event('retried')]);
      if (attempts === 1) throw retryable();
      return 'done';
    });
    expect([out, attempts]).toEqual(['done', 2]);
    expect(await probes('retried')).toBe(1);
  });

  it('when retries run out the write is refused as `unavailable` (503), never as an internal error', async () => {
    let attempts = 0;
    const e = await store.write(async () => {
      attempts++;
      throw retryable();
    }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe('unavailable');
    expect((e as DomainError).message).toMatch(/too busy.*try again/);
    expect(attempts).toBe(4);
  });

  it('anything else fails at once, unchanged', async () => {
    let attempts = 0;
    const e = await store.write(async () => {
      attempts++;
      throw new Error('boom');
    }).catch((err: unknown) => err);
    expect([(e as Error).message, attempts]).toEqual(['boom', 1]);
  });
});

describe('the in-memory write queue', () => {
  it('runs writes one at a time, in order, and refuses one that waited past its limit without running it', async () => {
    let clock = 0;
    {
      const queue = createWriteQueue({ maxWaitMs: 1_000, now: () => clock });
      const ran: string[] = [];
      let release: (() => void) | undefined;
      const first = queue(() => new Promise<void>((r) => (release = () => (ran.push('first'), r()))));
      while (!release) await Promise.resolve(); // the first write is running
      const second = queue(async () => void ran.push('second'));
      clock += 1_500; // the first write takes long: the second waits past its limit
      const third = queue(async () => void ran.push('third'));
      release();
      await first;
      await expect(second).rejects.toMatchObject({ code: 'unavailable' });
      await third;
      expect(ran).toEqual(['first', 'third']);
    }
  });
});

describe.runIf(TEST_DB === 'postgres')('PostgreSQL: writers blocked on the lock hold no pooled connections', () => {
  let url: string;
  let core: TestCore;
  let admin: pg.Client;
  beforeAll(async () => {
    url = await tempDbUrl();
    await migrateDatabase(url);
    // Two pooled connections and a short acquisition timeout: with writers holding
    // connections while they wait, a read (or the 3rd writer) would time out.
    core = await coreOn(url, { poolMax: 2, poolTimeoutMs: 2_000 });
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await core?.close();
  });

  it('20 activations queued behind another instance’s write all succeed, and reads are served meanwhile', async () => {
    await core.prompts.create({ name: 'storm', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'v1' } }], activate: true }, actor);
    for (let i = 2; i <= 5; i++) await core.prompts.createVersion('storm', { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: `v${i}` } }] }, actor);
    // Another instance in the middle of a write: it holds the writers' advisory lock.
    await admin.query('SELECT pg_advisory_lock(7320247)');
    const picks = Array.from({ length: 20 }, (_, i) => (i % 5) + 1);
    const writes = Promise.allSettled(picks.map((n) => core.prompts.activate('storm', n, actor)));
    await waitFor(async () => {
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%pg_advisory_xact_lock%'`);
      return rows[0].n >= 1 || undefined;
    }, 10_000, 'a writer to wait for the lock');
    // The writers wait; the pool still has a connection for a read.
    expect((await core.prompts.get('storm')).latestVersion).toBe(5);
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
    expect(rows[0].n).toBe(1);
    await admin.query('SELECT pg_advisory_unlock(7320247)');
    const results = await writes;
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    expect((await core.prompts.get('storm')).activeVersion).toBe(picks.at(-1));
  });
});
