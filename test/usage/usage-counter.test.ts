// A session's usage counter (recorder.ts `counter`, used by prompts/get) stores exactly
// what record() stores for the same fetches: random sequences of fetches, minute
// changes and flushes on two cores, one counting each way, compared row by row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { migrateDatabase } from '../../src/db/create-db.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';

const T0 = Date.parse('2026-11-01T10:00:00.000Z');
const FIXED = { label: 'production', client: 'claude-desktop', clientVersion: '1.2.0', token: 'ci', transport: 'http' as const };

type Step = { fetch: [prompt: string, version: number, latencyMs: number] } | { advanceMs: number } | { flush: true };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 50 })).map((fetch) => ({ fetch })) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 90_000 }).map((advanceMs) => ({ advanceMs })) },
  { weight: 1, arbitrary: fc.constant({ flush: true as const }) },
);

describe('usage counter', () => {
  const clock = { t: T0 };
  let byRecord: TestCore;
  let byCounter: TestCore;
  beforeAll(async () => {
    const make = async (instance: string) => {
      const url = await tempDbUrl();
      await migrateDatabase(url);
      return coreOn(url, { poolMax: 2, now: () => new Date(clock.t), usage: { flushMs: 0, instance, retentionDays: 90 } });
    };
    [byRecord, byCounter] = [await make('x'), await make('x')];
  }, 60_000);
  afterAll(async () => {
    await byRecord?.close();
    await byCounter?.close();
  });

  const stored = async (c: TestCore) =>
    (await c.db.prisma.usageBucket.findMany()).map(({ id: _id, ...r }) => r).sort((p, q) => JSON.stringify(p).localeCompare(JSON.stringify(q)));

  it('stores what record() stores, through minute changes and flushes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60 }), async (steps) => {
        await byRecord.db.prisma.usageBucket.deleteMany();
        await byCounter.db.prisma.usageBucket.deleteMany();
        clock.t = T0;
        const counter = byCounter.usage.counter(FIXED);
        for (const s of steps) {
          if ('fetch' in s) {
            const [prompt, version, latencyMs] = s.fetch;
            byRecord.usage.record({ prompt, version, ...FIXED, outcome: 'ok', latencyMs });
            counter(prompt, version, latencyMs);
          } else if ('advanceMs' in s) clock.t += s.advanceMs;
          else await Promise.all([byRecord.usage.flush(), byCounter.usage.flush()]);
        }
        await Promise.all([byRecord.usage.flush(), byCounter.usage.flush()]);
        const [a, b] = [await stored(byRecord), await stored(byCounter)];
        expect(b).toEqual(a);
        expect(b.reduce((n, r) => n + r.fetches, 0)).toBe(steps.filter((s) => 'fetch' in s).length);
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('counts nothing when recording is off', async () => {
    const url = await tempDbUrl();
    await migrateDatabase(url);
    const off = await coreOn(url, { poolMax: 2, usage: { flushMs: 0, instance: 'off', retentionDays: 90, enabled: false } });
    try {
      off.usage.counter(FIXED)('a', 1, 3);
      await off.usage.flush();
      expect(await off.db.prisma.usageBucket.count()).toBe(0);
    } finally {
      await off.close();
    }
  });
});
