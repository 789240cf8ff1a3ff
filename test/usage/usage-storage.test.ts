// Usage storage: one batched write per flush, rollup of old minutes to hours, retention,
// and two cores (instances) on one database whose counts add up. The clock is injected
// and flushes are explicit.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import type { UsageHit } from '../../src/core/usage/types.js';
import { OVERFLOW } from '../../src/core/usage/recorder.js';

const T0 = Date.parse('2026-11-01T10:00:00.000Z');
const DAY = 86_400_000;
const cores: TestCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

const MAX_CELLS = 50;

async function twoCoresOn(url: string, clock: { t: number }, retentionDays = 90) {
  const make = async (instance: string) => {
    const c = await coreOn(url, { poolMax: 2, now: () => new Date(clock.t), usage: { flushMs: 0, instance, retentionDays, maxCells: MAX_CELLS } });
    cores.push(c);
    return c;
  };
  return [await make('a'), await make('b')] as const;
}

const hit = (over: Partial<UsageHit> = {}): UsageHit => ({
  prompt: 'greet', version: 1, label: 'production', client: 'claude-desktop', clientVersion: '1.2.0', token: null, transport: 'stdio', outcome: 'ok', latencyMs: 1, ...over,
});

const rows = (c: TestCore) => c.db.prisma.usageBucket.findMany({ orderBy: { id: 'asc' } });

describe('usage storage', () => {
  it('writes one row per minute and dimension per flush, and two instances add up', async () => {
    const url = await tempDbUrl();
    await migrateDatabase(url);
    const clock = { t: T0 };
    const [a, b] = await twoCoresOn(url, clock);
    for (let i = 0; i < 1000; i++) a.usage.record(hit());
    a.usage.record(hit({ outcome: 'invalid_arguments' }));
    for (let i = 0; i < 7; i++) b.usage.record(hit({ client: 'cursor', clientVersion: '0.42', version: 2, label: 'staging', transport: 'http' }));
    expect(await rows(a)).toHaveLength(0); // nothing is written per request
    await a.usage.flush();
    await b.usage.flush();
    const stored = await rows(a);
    expect(stored.map((r) => [r.instance, r.client, r.outcome, r.fetches])).toEqual([
      ['a', 'claude-desktop', 'ok', 1000],
      ['a', 'claude-desktop', 'invalid_arguments', 1],
      ['b', 'cursor', 'ok', 7],
    ]);
    // A second flush in the same minute appends; answers add the rows up.
    a.usage.record(hit());
    await a.usage.flush();
    for (const c of [a, b]) {
      const r = await c.usage.report({ bucket: 'minute', from: new Date(T0) });
      expect(r.totals.fetches).toBe(1009);
      expect(r.totals.errors).toBe(1);
      expect(r.totals.byClient).toEqual([
        { client: 'claude-desktop', fetches: 1002, errors: 1, versions: [{ clientVersion: '1.2.0', fetches: 1002 }] },
        { client: 'cursor', fetches: 7, errors: 0, versions: [{ clientVersion: '0.42', fetches: 7 }] },
      ]);
      expect(r.totals.byVersion).toEqual([{ prompt: 'greet', version: 1, fetches: 1002 }, { prompt: 'greet', version: 2, fetches: 7 }]);
    }
  });

  it('the 10 s timer takes the counts and writes them (fake timers)', async () => {
    const url = await tempDbUrl();
    await migrateDatabase(url);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const c = await coreOn(url, { poolMax: 2, now: () => new Date(T0), usage: { instance: 'timed', flushMs: 10_000 } });
      cores.push(c);
      for (let i = 0; i < 5; i++) c.usage.record(hit());
      await vi.advanceTimersByTimeAsync(9_999);
      expect((await c.usage.report({})).totals.fetches).toBe(5);
      expect(await rows(c)).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      // Written by the tick alone (nothing here calls flush()).
      await vi.waitFor(async () => expect((await rows(c)).map((r) => [r.instance, r.fetches])).toEqual([['timed', 5]]), { timeout: 10_000 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts not flushed yet are in the answers of their own instance', async () => {
    const url = await tempDbUrl();
    await migrateDatabase(url);
    const clock = { t: T0 };
    const [a, b] = await twoCoresOn(url, clock);
    a.usage.record(hit());
    expect((await a.usage.report({})).totals.fetches).toBe(1);
    expect((await b.usage.report({})).totals.fetches).toBe(0);
  });

  it('invented prompt names past the cap are counted under one overflow row', async () => {
    const url = await tempDbUrl();
    await migrateDatabase(url);
    const [a] = await twoCoresOn(url, { t: T0 });
    for (let i = 0; i < MAX_CELLS + 500; i++) a.usage.record(hit({ prompt: `made-up-${i}`, version: 0, outcome: 'not_found' }));
    await a.usage.flush();
    const overflow = await a.db.prisma.usageBucket.findMany({ where: { prompt: OVERFLOW } });
    expect(overflow.map((r) => [r.client, r.outcome, r.fetches])).toEqual([[OVERFLOW, 'not_found', 500]]);
    expect(await a.db.prisma.usageBucket.count()).toBe(MAX_CELLS + 1);
    expect((await a.usage.report({})).totals.fetches).toBe(MAX_CELLS + 500);
  });

  it('a failed flush keeps its counts for the next one', async () => {
    const url = await tempDbUrl();
    await migrateDatabase(url);
    const clock = { t: T0 };
    const [a] = await twoCoresOn(url, clock);
    a.usage.record(hit());
    // The table gone for a moment: the flush fails and keeps its counts.
    await a.db.prisma.$executeRawUnsafe('ALTER TABLE "UsageBucket" RENAME TO "UsageBucketAway"');
    try {
      await expect(a.usage.flush()).rejects.toThrow();
    } finally {
      await a.db.prisma.$executeRawUnsafe('ALTER TABLE "UsageBucketAway" RENAME TO "UsageBucket"');
    }
    a.usage.record(hit());
    await a.usage.flush();
    expect((await rows(a)).reduce((n, r) => n + r.fetches, 0)).toBe(2);
  });

  it('rolls minutes older than 7 days up to hours and deletes rows past retention', async () => {
    const url = await tempDbUrl();
    await migrateDatabase(url);
    const clock = { t: T0 };
    const [a, b] = await twoCoresOn(url, clock, 30);
    // Three minutes of the 10:00 hour, one of 11:00, from two instances.
    for (const [offset, n] of [[0, 2], [60_000, 3], [59 * 60_000, 4], [60 * 60_000, 5]] as const) {
      clock.t = T0 + offset;
      for (let i = 0; i < n; i++) a.usage.record(hit());
      b.usage.record(hit({ outcome: 'not_found', version: 0, prompt: 'nope' }));
      await a.usage.flush();
      await b.usage.flush();
    }
    const before = await a.usage.report({ bucket: 'hour', from: new Date(T0 - DAY) });
    expect(before.totals.fetches).toBe(18);

    clock.t = T0 + 7 * DAY + 90 * 60_000; // all of the 10:00 hour is 7 days old, 11:00 not yet
    expect((await a.usage.maintain()).rolledUp).toBe(6);
    let stored = await rows(a);
    expect(stored.filter((r) => r.grain === 'hour').map((r) => [r.instance, r.prompt, r.start.toISOString(), r.fetches])).toEqual(
      expect.arrayContaining([['a', 'greet', new Date(T0).toISOString(), 9], ['b', 'nope', new Date(T0).toISOString(), 3]]),
    );
    expect(stored.filter((r) => r.grain === 'hour')).toHaveLength(2);
    expect(stored.filter((r) => r.grain === 'minute')).toHaveLength(2);
    const after = await b.usage.report({ bucket: 'hour', from: new Date(T0 - DAY) });
    expect(after.totals).toEqual(before.totals);
    expect(after.series.filter((p) => p.fetches).map((p) => [p.start.toISOString(), p.fetches])).toEqual([
      [new Date(T0).toISOString(), 12],
      [new Date(T0 + 3_600_000).toISOString(), 6],
    ]);

    clock.t = T0 + 30 * DAY + 30 * 60_000; // 10:00 is past 30 days' retention, 11:00 not
    expect((await b.usage.maintain()).pruned).toBe(2);
    stored = await rows(a);
    expect(stored.every((r) => r.grain === 'hour' && r.start.getTime() === T0 + 3_600_000)).toBe(true);
    expect((await a.usage.report({ from: new Date(T0 - DAY) })).totals.fetches).toBe(6);
  });
});
