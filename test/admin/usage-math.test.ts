// The admin UI's "clients still on vN" rule and error rate (admin/src/components/usage/usage-math.ts).
import { describe, expect, it } from 'vitest';
import { errorRate, staleClients } from '../../admin/src/components/usage/usage-math.js';

const client = (name: string, lastVersion: number | null, lastLabel: string | null) =>
  ({ client: name, fetches: 1, errors: 0, lastVersion, lastLabel, lastServedAt: '2026-11-24T10:00:00.000Z' });

describe('staleClients', () => {
  it('compares with the label the client last used, else production', () => {
    const labels = { production: 3, staging: 4 };
    const got = staleClients([
      client('prod-current', 3, 'production'),
      client('prod-behind', 2, 'production'),
      client('staging-current', 4, 'staging'),
      client('staging-behind', 3, 'staging'),
      client('pinned', 1, null),
      client('never-served', null, null),
    ], labels, 3);
    expect(got.map((s) => [s.client, s.lastVersion, s.label, s.target])).toEqual([
      ['pinned', 1, 'production', 3],
      ['prod-behind', 2, 'production', 3],
      ['staging-behind', 3, 'staging', 4],
    ]);
  });

  it('a label that is gone falls back to production; no production, nothing to compare with', () => {
    expect(staleClients([client('a', 1, 'canary')], { production: 2 }, 2).map((s) => [s.label, s.target])).toEqual([['production', 2]]);
    expect(staleClients([client('a', 1, 'canary')], {}, null)).toEqual([]);
  });
});

describe('errorRate', () => {
  it('rounds, with one decimal under 10 %', () => {
    expect(errorRate(0, 0)).toBe('0 %');
    expect(errorRate(1, 7)).toBe('14 %');
    expect(errorRate(1, 40)).toBe('2.5 %');
    expect(errorRate(3, 3)).toBe('100 %');
  });
});
