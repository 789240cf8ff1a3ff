// Label pointers (PromptLabel rows) ↔ the core's LabelRepository. The `production`
// label is also mirrored into Prompt.activeVersionId, in the same statements' transaction,
// so the summary, detail and "active" reads that predate labels stay one join.
import { Prisma, type Tx } from '../prisma.js';
import { chunks, hasPair, pairsWhere } from './bulk-sql.js';
import { prismaSql, type RawSql } from '../raw-sql.js';
import type { LabelPointer, LabelRepository } from '../../core/ports.js';
import type { WrittenVersions } from './prompts-repo.js';

export const PRODUCTION = 'production';

type Move = { promptId: number; label: string; number: number | null };

async function versionIds(tx: Tx, items: { promptId: number; number: number }[], written: WrittenVersions): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  // Versions this transaction wrote are known; only older ones are read.
  const unknown = items.filter((i) => {
    const k = `${i.promptId}:${i.number}`;
    const id = written.get(k);
    if (id !== undefined) ids.set(k, id);
    return id === undefined;
  });
  for (const part of chunks(unknown)) {
    const rows = await tx.promptVersion.findMany({ where: pairsWhere(part), select: { id: true, promptId: true, number: true } });
    for (const r of rows.filter(hasPair(part))) ids.set(`${r.promptId}:${r.number}`, r.id);
  }
  return ids;
}

async function move(tx: Tx, sql: RawSql, items: Move[], at: Date, written: WrittenVersions): Promise<void> {
  if (!items.length) return;
  const sets = items.filter((i): i is Move & { number: number } => i.number !== null);
  const ids = await versionIds(tx, sets, written);
  // One statement per label name (an `in` list keeps one query shape; see pairsWhere).
  const removals = new Map<string, number[]>();
  for (const i of items) if (i.number === null) removals.set(i.label, [...(removals.get(i.label) ?? []), i.promptId]);
  for (const [name, promptIds] of removals) {
    for (const part of chunks(promptIds)) await tx.promptLabel.deleteMany({ where: { name, promptId: { in: part } } });
  }
  for (const part of chunks(sets)) {
    const values = Prisma.join(part.map((i) => {
      const versionId = ids.get(`${i.promptId}:${i.number}`);
      if (versionId === undefined) throw new Error(`label move to a missing version ${i.promptId}:${i.number}`);
      return Prisma.sql`(${i.promptId}, ${i.label}, ${versionId}, ${at})`;
    }));
    // ON CONFLICT … DO UPDATE is the same statement on SQLite (3.24+) and PostgreSQL.
    await sql.execute(Prisma.sql`INSERT INTO "PromptLabel" ("promptId", "name", "versionId", "updatedAt") VALUES ${values}
      ON CONFLICT ("promptId", "name") DO UPDATE SET "versionId" = excluded."versionId", "updatedAt" = excluded."updatedAt"`);
  }
  // The production mirror and the revision, in one UPDATE of each prompt row (on
  // PostgreSQL every UPDATE writes a new row version and its index entries).
  // Prompt.pending (status=pending) follows the same move: the label's version is older
  // than the latest (SET reads the row's latestVersion as it was, which a move leaves).
  const production = new Map<number, number | null>();
  const numbers = new Map<number, number | null>();
  for (const i of items) {
    if (i.label !== PRODUCTION) continue;
    production.set(i.promptId, i.number === null ? null : ids.get(`${i.promptId}:${i.number}`)!);
    numbers.set(i.promptId, i.number);
  }
  for (const part of chunks([...new Set(items.map((i) => i.promptId))], 250)) {
    const mirrored = part.filter((id) => production.has(id));
    const pendingOf = (id: number) => (numbers.get(id) === null ? Prisma.sql`false` : Prisma.sql`CAST(${numbers.get(id)} AS INTEGER) < "latestVersion"`);
    const active = mirrored.length
      ? Prisma.sql`"activeVersionId" = CASE "id" ${Prisma.join(mirrored.map((id) => Prisma.sql`WHEN ${id} THEN CAST(${production.get(id)} AS INTEGER)`), ' ')} ELSE "activeVersionId" END,
        "pending" = CASE "id" ${Prisma.join(mirrored.map((id) => Prisma.sql`WHEN ${id} THEN ${pendingOf(id)}`), ' ')} ELSE "pending" END, `
      : Prisma.empty;
    await sql.execute(Prisma.sql`UPDATE "Prompt" SET ${active}"revision" = "revision" + 1, "updatedAt" = ${at} WHERE "id" IN (${Prisma.join(part)})`);
  }
}

/** `written`: the ids of versions the same transaction inserted (prompts-repo.ts), shared with its prompt repository. */
export function labelRepository(tx: Tx, sql: RawSql = prismaSql(tx), written: WrittenVersions = new Map()): LabelRepository {
  return {
    async ofPrompts(promptIds) {
      const out = new Map<number, { label: string; version: number }[]>();
      for (const part of chunks(promptIds, 500)) {
        const rows = await tx.promptLabel.findMany({ where: { promptId: { in: part } }, orderBy: [{ promptId: 'asc' }, { name: 'asc' }], select: { promptId: true, name: true, version: { select: { number: true } } } });
        for (const r of rows) {
          const list = out.get(r.promptId) ?? [];
          list.push({ label: r.name, version: r.version.number });
          out.set(r.promptId, list);
        }
      }
      return out;
    },
    async carrying(label, prompts) {
      const select = { promptId: true, name: true, prompt: { select: { name: true, archived: true } }, version: { select: { number: true } } } as const;
      const rows = [];
      if (prompts) {
        for (const part of chunks(prompts, 500)) rows.push(...(await tx.promptLabel.findMany({ where: { name: label, prompt: { name: { in: part }, deletedAt: null } }, select })));
      } else rows.push(...(await tx.promptLabel.findMany({ where: { name: label, prompt: { deletedAt: null } }, select })));
      return rows
        .map((r): LabelPointer => ({ promptId: r.promptId, prompt: r.prompt.name, label: r.name, version: r.version.number, archived: r.prompt.archived }))
        .sort((a, b) => (a.prompt < b.prompt ? -1 : a.prompt > b.prompt ? 1 : 0));
    },
    async counts() {
      const rows = await tx.promptLabel.groupBy({ by: ['name'], where: { prompt: { deletedAt: null } }, _count: { _all: true }, orderBy: { name: 'asc' } });
      return rows.map((r) => ({ label: r.name, prompts: r._count._all }));
    },
    move: (items, at) => move(tx, sql, items, at, written),
  };
}
