// Usage buckets (model UsageBucket). Flushes append rows and queries add them up, so
// instances sharing a database never touch each other's rows and a flush is one insert.
import type { Tx } from '../prisma.js';
import { chunks, insertRows } from './bulk-sql.js';
import { prismaSql } from '../raw-sql.js';
import type { UsageRepository } from '../../core/ports.js';
import type { UsageOutcome, UsageRow, UsageTransport } from '../../core/usage/types.js';

const HOUR_MS = 3_600_000;
const COLUMNS = ['instance', 'grain', 'start', 'prompt', 'version', 'label', 'client', 'token', 'transport', 'outcome', 'fetches', 'latencyMs', 'lastAt'] as const;

/** Multi-row INSERTs (bulk-sql.ts): createMany costs ~2 ms per row here, under the write lock. */
const insert = (tx: Tx, rows: UsageRow[]) => insertRows(prismaSql(tx), 'UsageBucket', [...COLUMNS], rows.map((r) => COLUMNS.map((k) => r[k])));
/** Minute rows read per rollup step. */
const ROLLUP_CHUNK = 5_000;

export function usageRepository(tx: Tx): UsageRepository {
  return {
    async append(rows) {
      await insert(tx, rows);
    },

    async sums(f) {
      const groups = await tx.usageBucket.groupBy({
        by: ['start', 'prompt', 'version', 'label', 'client', 'outcome'],
        where: {
          start: { gte: f.from, lte: f.to },
          ...(f.prompt !== undefined ? { prompt: f.prompt } : {}),
          ...(f.label !== undefined ? { label: f.label } : {}),
          ...(f.client !== undefined ? { client: f.client } : {}),
        },
        _sum: { fetches: true },
        _max: { lastAt: true },
      });
      return groups.map((g) => ({
        start: g.start,
        prompt: g.prompt,
        version: g.version,
        label: g.label,
        client: g.client,
        outcome: g.outcome as UsageOutcome,
        fetches: Number(g._sum.fetches ?? 0),
        lastAt: g._max.lastAt ?? g.start,
      }));
    },

    async rollUp(before) {
      let moved = 0;
      for (;;) {
        const minutes = await tx.usageBucket.findMany({ where: { grain: 'minute', start: { lt: before } }, orderBy: { id: 'asc' }, take: ROLLUP_CHUNK });
        if (!minutes.length) return moved;
        const hours = new Map<string, UsageRow>();
        for (const m of minutes) {
          const start = m.start.getTime() - (m.start.getTime() % HOUR_MS);
          const key = [m.instance, start, m.prompt, m.version, m.label, m.client, m.token, m.transport, m.outcome].join('\u0000');
          const h = hours.get(key);
          if (h) {
            h.fetches += m.fetches;
            h.latencyMs += m.latencyMs;
            if (m.lastAt > h.lastAt) h.lastAt = m.lastAt;
          } else {
            hours.set(key, {
              instance: m.instance, grain: 'hour', start: new Date(start), prompt: m.prompt, version: m.version, label: m.label, client: m.client, token: m.token,
              transport: m.transport as UsageTransport, outcome: m.outcome as UsageOutcome, fetches: m.fetches, latencyMs: m.latencyMs, lastAt: m.lastAt,
            });
          }
        }
        for (const ids of chunks(minutes.map((m) => m.id), 500)) await tx.usageBucket.deleteMany({ where: { id: { in: ids } } });
        await insert(tx, [...hours.values()]);
        moved += minutes.length;
      }
    },

    async prune(before) {
      return (await tx.usageBucket.deleteMany({ where: { start: { lt: before } } })).count;
    },

    async lastServed(prompts) {
      if (!prompts.length) return new Map();
      const groups = await tx.usageBucket.groupBy({ by: ['prompt'], where: { prompt: { in: prompts } }, _max: { lastAt: true } });
      return new Map(groups.flatMap((g) => (g._max.lastAt ? [[g.prompt, g._max.lastAt] as const] : [])));
    },
  };
}
