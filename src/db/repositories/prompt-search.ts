// The text `q=` searches, one column per prompt (Prompt.searchText): the name, then the
// latest version's title, description and message text, one per line, lowercased.
// Written here by the write path, and by the migrations that added and lowercased the
// column (the same layout). Stored lowercased because PostgreSQL's ILIKE lowercases
// every row's whole text for every search (3.5× the cost of LIKE in a 100k-row scan,
// bench/history.md); q is lowercased the same way, so a plain LIKE matches
// case-insensitively on both databases, served by the pg_trgm index on PostgreSQL; on
// SQLite the migration search_trigram's triggers copy every write of the column into an
// FTS5 trigram index (Dialect.searchCandidates, prompt-list.ts).
import { Prisma, type Tx } from '../prisma.js';
import type { RawSql } from '../raw-sql.js';
import type { NewVersion } from '../../core/ports.js';
import { chunks } from './bulk-sql.js';

type Searchable = Pick<NewVersion['input'], 'title' | 'description' | 'messages'>;

export function searchTextOf(name: string, v: Searchable): string {
  const texts = v.messages.flatMap((m) => (m.content.type === 'text' ? [m.content.text] : []));
  return [name, v.title ?? '', v.description ?? '', texts.join('\n')].join('\n').toLowerCase();
}

/** The search text with the name (its first line) replaced. */
export const renamedSearchText = (text: string, name: string) => {
  const nl = text.indexOf('\n');
  return nl < 0 ? name.toLowerCase() : `${name.toLowerCase()}${text.slice(nl)}`;
};

/**
 * The search-text UPDATE of versions whose writer named their prompts (writeVersions
 * does), one per prompt: no read. The "latestVersion" condition keeps the rule of
 * refreshSearchText (only where the written version is the latest).
 */
export function namedSearchTextUpdate(newest: NewVersion[]): Prisma.Sql {
  const cases = Prisma.join(newest.map((v) => Prisma.sql`WHEN ${v.promptId} THEN CAST(${searchTextOf(v.name!, v.input)} AS TEXT)`), ' ');
  const latest = Prisma.join(newest.map((v) => Prisma.sql`WHEN ${v.promptId} THEN CAST(${v.number} AS INTEGER)`), ' ');
  return Prisma.sql`UPDATE "Prompt" SET "searchText" = CASE "id" ${cases} END WHERE "id" IN (${Prisma.join(newest.map((v) => v.promptId))}) AND "latestVersion" = CASE "id" ${latest} END`;
}

/** The newest of `versions` per prompt. */
export function newestPerPrompt(versions: NewVersion[]): Map<number, NewVersion> {
  const newest = new Map<number, NewVersion>();
  for (const v of versions) if ((newest.get(v.promptId)?.number ?? 0) < v.number) newest.set(v.promptId, v);
  return newest;
}

/** After versions are inserted: prompts whose latest version is among them search its text. */
export async function refreshSearchText(tx: Tx, sql: RawSql, versions: NewVersion[]): Promise<void> {
  const newest = newestPerPrompt(versions);
  // One UPDATE per 250 prompts (a CASE on the id, as labels-repo.ts does for the
  // production mirror): one statement per prompt was a tenth of a 10,000-prompt import.
  for (const part of chunks([...newest.keys()], 250)) {
    const known = part.map((id) => newest.get(id)!);
    if (known.every((v) => v.name !== undefined)) {
      await sql.execute(namedSearchTextUpdate(known));
      continue;
    }
    const heads = await tx.prompt.findMany({ where: { id: { in: part } }, select: { id: true, name: true, latestVersion: true } });
    const due = heads.filter((h) => newest.get(h.id)!.number === h.latestVersion);
    if (!due.length) continue;
    const cases = Prisma.join(due.map((h) => Prisma.sql`WHEN ${h.id} THEN CAST(${searchTextOf(h.name, newest.get(h.id)!.input)} AS TEXT)`), ' ');
    // A raw UPDATE: the write that made the version set updatedAt already.
    await sql.execute(Prisma.sql`UPDATE "Prompt" SET "searchText" = CASE "id" ${cases} END WHERE "id" IN (${Prisma.join(due.map((h) => h.id))})`);
  }
}

/** `%q%` (lowercased, for the lowercased search text) for LIKE with `\` as the escape character: q is matched literally. */
export const containsPattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
