// The rows of new versions (PromptVersion, PromptArgument, PromptMessage,
// ResourceBinding), the prompts' search text and their change events, as one statement where the dialect
// has data-modifying CTEs (PostgreSQL): one round trip instead of five. Each child row
// finds its version's id (and a binding its message's) by a subquery on the RETURNING
// rows of the CTE before it, so no id has to come back to us in between.
import { Prisma } from '../prisma.js';
import type { NewChangeEvent, NewVersion } from '../../core/ports.js';
import { EVENT_COLUMNS, eventRow } from './events-repo.js';
import type { versionCreateData } from './prompts-repo.js';
import { namedSearchTextUpdate, newestPerPrompt } from './prompt-search.js';

type VersionData = ReturnType<typeof versionCreateData>;
type MessageData = VersionData['messages']['create'][number];

export const VERSION_COLUMNS = ['promptId', 'number', 'title', 'description', 'icons', 'note', 'author', 'createdAt', 'testCases'];
export const ARGUMENT_COLUMNS = ['versionId', 'position', 'name', 'title', 'description', 'required', 'choices', 'maxLength', 'type', 'defaultValue'];
export const MESSAGE_COLUMNS = ['versionId', 'position', 'role', 'type', 'text', 'data', 'mimeType', 'annotations', 'includePrompt', 'includeLabel', 'includeVersion', 'includeArguments', 'mayInclude'];
export const BINDING_COLUMNS = ['messageId', 'uri', 'isTemplate', 'resourceId', 'allow'];

export const versionRow = (v: NewVersion, d: VersionData, at: Date) => [v.promptId, v.number, d.title, d.description, d.icons, d.note, v.author, at, d.testCases];
/** An argument's row after its versionId. */
export const argumentRow = (a: VersionData['arguments']['create'][number]) => [a.position, a.name, a.title, a.description, a.required, a.choices, a.maxLength, a.type, a.defaultValue];
/** A message's row after its versionId. */
export function messageRow(m: MessageData): unknown[] {
  const c = m as { text?: string | null; data?: Uint8Array | null; mimeType?: string | null; includePrompt?: string; includeLabel?: string | null; includeVersion?: number | null; includeArguments?: string | null; mayInclude?: boolean };
  return [m.position, m.role, m.type, c.text ?? null, c.data ?? null, c.mimeType ?? null, m.annotations,
    c.includePrompt ?? null, c.includeLabel ?? null, c.includeVersion ?? null, c.includeArguments ?? null, c.mayInclude ?? false];
}
export const bindingOf = (m: MessageData) => ('binding' in m && m.binding ? m.binding.create : undefined);

/** Bound parameters one batch may hold (PostgreSQL takes 65,535; a typical version needs under 100). */
const MAX_BATCH_PARAMS = 5_000;

const ident = (names: string[]) => Prisma.raw(names.map((n) => `"${n}"`).join(', '));
const values = (rows: Prisma.Sql[]) => Prisma.join(rows.map((r) => Prisma.sql`(${r})`));

/**
 * One statement for insertVersions (prompts-repo.ts) of versions whose prompts are
 * named, answering the new versions' ids; undefined when it would bind too many
 * parameters (an import: the statements one by one then).
 */
export function versionBatch(versions: NewVersion[], data: VersionData[], at: Date, events: NewChangeEvent[] = []): Prisma.Sql | undefined {
  // The parameters the rows bind at least (a child row's version id is a subquery of 2):
  // an import's batch is over the limit, and building its statement only to drop it cost
  // ~0.2 s of a 10,000-prompt import's CPU on PostgreSQL.
  let least = versions.length * VERSION_COLUMNS.length + events.length * EVENT_COLUMNS.length;
  for (const d of data) least += d.arguments.create.length * (ARGUMENT_COLUMNS.length + 1) + d.messages.create.length * (MESSAGE_COLUMNS.length + 1);
  if (least > MAX_BATCH_PARAMS) return undefined;
  const versionId = (v: NewVersion) => Prisma.sql`(SELECT "id" FROM "v" WHERE "promptId" = ${v.promptId} AND "number" = ${v.number})`;
  const ctes: Prisma.Sql[] = [
    Prisma.sql`"v" AS (INSERT INTO "PromptVersion" (${ident(VERSION_COLUMNS)}) VALUES ${values(versions.map((v, i) => Prisma.join(versionRow(v, data[i]!, at))))} RETURNING "id", "promptId", "number")`,
  ];
  const args = versions.flatMap((v, i) => data[i]!.arguments.create.map((a) => Prisma.sql`${versionId(v)}, ${Prisma.join(argumentRow(a))}`));
  if (args.length) ctes.push(Prisma.sql`"a" AS (INSERT INTO "PromptArgument" (${ident(ARGUMENT_COLUMNS)}) VALUES ${values(args)})`);
  const msgs = versions.flatMap((v, i) => data[i]!.messages.create.map((m) => Prisma.sql`${versionId(v)}, ${Prisma.join(messageRow(m))}`));
  if (msgs.length) ctes.push(Prisma.sql`"m" AS (INSERT INTO "PromptMessage" (${ident(MESSAGE_COLUMNS)}) VALUES ${values(msgs)} RETURNING "id", "versionId", "position")`);
  const binds = versions.flatMap((v, i) => data[i]!.messages.create.flatMap((m) => {
    const b = bindingOf(m);
    if (!b) return [];
    const messageId = Prisma.sql`(SELECT "m"."id" FROM "m" JOIN "v" ON "v"."id" = "m"."versionId" WHERE "v"."promptId" = ${v.promptId} AND "v"."number" = ${v.number} AND "m"."position" = ${m.position})`;
    return [Prisma.sql`${messageId}, ${b.uri}, ${b.isTemplate}, ${b.resourceId}, ${b.allow}`];
  }));
  if (binds.length) ctes.push(Prisma.sql`"b" AS (INSERT INTO "ResourceBinding" (${ident(BINDING_COLUMNS)}) VALUES ${values(binds)})`);
  ctes.push(Prisma.sql`"s" AS (${namedSearchTextUpdate([...newestPerPrompt(versions).values()])})`);
  if (events.length) ctes.push(Prisma.sql`"e" AS (INSERT INTO "ChangeEvent" (${ident(EVENT_COLUMNS)}) VALUES ${values(events.map((e) => Prisma.join(eventRow(e, at))))})`);
  const batch = Prisma.sql`WITH ${Prisma.join(ctes, ', ')} SELECT "id", "promptId", "number" FROM "v"`;
  return batch.values.length <= MAX_BATCH_PARAMS ? batch : undefined;
}
