// Usage buckets (model UsageBucket). Flushes append rows and queries add them up, so
// instances sharing a database never touch each other's rows and a flush is one insert.
import type { Tx } from '../prisma.js';
import { chunks, insertRows } from './bulk-sql.js';
import { prismaSql } from '../raw-sql.js';
import type { UsageRepository } from '../../core/ports.js';
import type { UsageOutcome, UsageRow, UsageTransport } from '../../core/usage/types.js';

const HOUR_MS = 3_600_000;
const COLUMNS = ['instance', 'grain', 'start', 'prompt', 'promptId', 'version', 'label', 'client', 'clientVersion', 'token', 'transport', 'outcome', 'fetches', 'latencyMs', 'lastAt'] as const;

/** Multi-row INSERTs (bulk-sql.ts): createMany costs ~2 ms per row here, under the write lock. */
const insert = (tx: Tx, rows: UsageRow[]) => insertRows(prismaSql(tx), 'UsageBucket', [...COLUMNS], rows.map((r) => COLUMNS.map((k) => r[k])));
/** Minute rows read per rollup step. */
const ROLLUP_CHUNK = 5_000;

export function usageRepository(tx: Tx): UsageRepository {
  /** Prompt ids by name (deleted prompts keep their names until purged, so they resolve too). */
  async function promptIds(names: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const part of chunks([...new Set(names)], 500)) {
      for (const p of await tx.prompt.findMany({ where: { name: { in: part } }, select: { id: true, name: true } })) out.set(p.name, p.id);
    }
    return out;
  }

  /** The current name of each of these prompts (a purged one is absent). */
  async function promptNames(ids: number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (const part of chunks([...new Set(ids)], 500)) {
      for (const p of await tx.prompt.findMany({ where: { id: { in: part } }, select: { id: true, name: true } })) out.set(p.id, p.name);
    }
    return out;
  }

  /** The prompt of each of these version ids. */
  async function promptIdsOfVersions(versionIds: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const part of chunks([...new Set(versionIds)], 500)) {
      for (const v of await tx.promptVersion.findMany({ where: { id: { in: part } }, select: { id: true, promptId: true } })) out.set(v.id, v.promptId);
    }
    return out;
  }

  return {
    promptIds,
    promptIdsOfVersions,
    promptNames,

    async append(rows) {
      // Keyed by the prompt's id, resolved in the flush's transaction from the name it
      // was served under (the catalog holds names): its history then follows renames.
      // A served version's id names its prompt even after a rename; a name is resolved as it is now.
      const served = rows.filter((r) => r.promptId === null && r.version > 0);
      const byVersion = await promptIdsOfVersions(served.flatMap((r) => (r.versionId !== undefined ? [r.versionId] : [])));
      const byName = await promptIds(served.filter((r) => r.versionId === undefined || !byVersion.has(r.versionId)).map((r) => r.prompt));
      const promptIdOf = (r: UsageRow) => (r.versionId !== undefined ? byVersion.get(r.versionId) : undefined) ?? byName.get(r.prompt) ?? null;
      await insert(tx, rows.map((r) => (r.promptId === null && r.version > 0 ? { ...r, promptId: promptIdOf(r) } : r)));
    },

    async sums(f) {
      const groups = await tx.usageBucket.groupBy({
        by: ['start', 'promptId', 'prompt', 'version', 'label', 'client', 'clientVersion', 'outcome'],
        where: {
          start: { gte: f.from, lte: f.to },
          ...(f.promptId !== undefined ? { promptId: f.promptId } : {}),
          ...(f.promptName !== undefined ? { prompt: f.promptName, promptId: null } : {}),
          ...(f.label !== undefined ? { label: f.label } : {}),
          ...(f.client !== undefined ? { client: f.client } : {}),
          ...(f.clientVersion !== undefined ? { clientVersion: f.clientVersion } : {}),
        },
        _sum: { fetches: true },
        _max: { lastAt: true },
      });
      // Answers name a prompt by its current name, whatever it was called when served.
      const names = await promptNames(groups.flatMap((g) => (g.promptId === null ? [] : [g.promptId])));
      return groups.map((g) => ({
        start: g.start,
        prompt: (g.promptId !== null ? names.get(g.promptId) : undefined) ?? g.prompt,
        promptId: g.promptId,
        version: g.version,
        label: g.label,
        client: g.client,
        clientVersion: g.clientVersion,
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
          const key = [m.instance, start, m.promptId, m.prompt, m.version, m.label, m.client, m.clientVersion, m.token, m.transport, m.outcome].join('\u0000');
          const h = hours.get(key);
          if (h) {
            h.fetches += m.fetches;
            h.latencyMs += m.latencyMs;
            if (m.lastAt > h.lastAt) h.lastAt = m.lastAt;
          } else {
            hours.set(key, {
              instance: m.instance, grain: 'hour', start: new Date(start), prompt: m.prompt, promptId: m.promptId, version: m.version, label: m.label,
              client: m.client, clientVersion: m.clientVersion, token: m.token,
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

    async lastServed(promptIds) {
      if (!promptIds.length) return new Map();
      const groups = await tx.usageBucket.groupBy({ by: ['promptId'], where: { promptId: { in: promptIds } }, _max: { lastAt: true } });
      return new Map(groups.flatMap((g) => (g._max.lastAt && g.promptId !== null ? [[g.promptId, g._max.lastAt] as const] : [])));
    },
  };
}
