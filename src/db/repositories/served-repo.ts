// The served catalog's source (src/core/catalog.ts): per label view, one row per served
// prompt, its name and the version its label points at, and each version as one
// compact JSON array built by the database
// (arguments and messages in position order). Loading 100k prompts through Prisma's
// nested includes took ~8 s, and its relation queries bind one parameter per parent
// row (past the driver's limit beyond ~1,000 rows).
import type { Dialect } from '../dialect.js';
import type { Models } from '../prisma.js';
import type { ServedSource } from '../../core/ports.js';
import { toVersion, type VersionRow } from './prompts-repo.js';

const LOAD_BATCH = 2_000;
/** Shared by every untagged prompt (most of them): never mutated. */
const NO_TAGS: string[] = Object.freeze([]) as unknown as string[];
// Bound parameters per query stay under SQLite's default limit of 999.
const NAMES_BATCH = 500;

interface Row {
  name: string;
  versionId: number;
  /** the prompt's tags, a JSON array as text */
  tags: string;
  /** VersionDoc as JSON text */
  doc: string;
}

/** The version `v` as one compact JSON array, built by the database. */
function docSql(d: Dialect): string {
  const { jsonArray: arr, jsonAgg: agg, hex, jsonText } = d.sql;
  const arg = `${arr}(a."name", a."title", a."description", a."required", a."choices", a."maxLength", a."type", a."defaultValue")`;
  // A plain text message (most) is [role, type, text]: the nine nulls after it were ~8% of
  // each document the catalog holds in memory (45 bytes; 90 with PostgreSQL's ", ").
  const rest = ['m."data"', 'm."mimeType"', 'm."annotations"', 'b."uri"', 'b."allow"', 'm."includePrompt"', 'm."includeLabel"', 'm."includeVersion"', 'm."includeArguments"'];
  const msg = `CASE WHEN ${rest.map((c) => `${c} IS NULL`).join(' AND ')} THEN ${arr}(m."role", m."type", m."text")
    ELSE ${arr}(m."role", m."type", m."text", ${hex('m."data"')}, m."mimeType", m."annotations", b."uri", b."allow", m."includePrompt", m."includeLabel", m."includeVersion", m."includeArguments") END`;
  return `${arr}(
      v."number", v."title", v."description", v."icons", v."note", v."author", v."createdAt",
      (SELECT ${agg(arg, 'a."position"')} FROM "PromptArgument" a WHERE a."versionId" = v."id"),
      (SELECT ${agg(msg, 'm."position"')} FROM "PromptMessage" m LEFT JOIN "ResourceBinding" b ON b."messageId" = m."id" WHERE m."versionId" = v."id")
    )${jsonText}`;
}

/**
 * A view's rows: `latest` joins each prompt's newest version, any other label its
 * PromptLabel row (the label is bound parameter 1). Soft-deleted prompts keep their
 * label rows (a restore serves them again) and are left out of every view. SQLite must
 * walk the name index so that each batch builds only the documents it returns: `NOT
 * archived` (not `archived = false`), the deletedAt test kept off its index, and for a
 * label the prompts as the outer loop (CROSS JOIN fixes SQLite's join order; PostgreSQL
 * plans it as the inner join it is). Through the label's or the deletedAt index SQLite
 * built and sorted every remaining row's document per batch: the cold start at 100,000
 * prompts had crept from 1.3 to 2.8 s.
 */
function viewSql(d: Dialect, label: string, filter: (nextParam: number) => string, withDoc: boolean): { sql: string; params: unknown[] } {
  const latest = label === 'latest';
  const join = latest
    ? `JOIN "PromptVersion" v ON v."promptId" = p."id" AND v."number" = p."latestVersion"`
    : `CROSS JOIN "PromptLabel" l CROSS JOIN "PromptVersion" v`;
  const onLabel = latest ? '' : `l."promptId" = p."id" AND l."name" = ${d.sql.param(1)} AND v."id" = l."versionId" AND `;
  const sql = `SELECT p."name" AS "name", v."id" AS "versionId", p."tags" AS "tags"${withDoc ? `, ${docSql(d)} AS "doc"` : ''}
    FROM "Prompt" p ${join}
    WHERE ${onLabel}NOT p."archived" AND ${d.sql.noIndex('p."deletedAt"')} IS NULL AND ${filter(latest ? 1 : 2)}
    ORDER BY p."name"`;
  return { sql, params: latest ? [] : [label] };
}

type S = string | null;
/** [number, title, description, icons, note, author, createdAt, arguments, messages]; a message without data, binding or include is [role, type, text] */
type VersionDoc = [number, S, S, S, S, S, string | number, [string, S, S, boolean | number, S, number | null, S, S][], [string, string, S, S?, S?, S?, S?, S?, S?, S?, (number | null)?, S?][]];

// SQLite stores Prisma's DateTime as ISO text (or epoch ms); PostgreSQL's
// timestamp(3) comes without a zone and is UTC.
const dbDate = (v: string | number) => new Date(typeof v === 'number' || /(Z|[+-]\d\d:?\d\d)$/i.test(v) ? v : `${v.replace(' ', 'T')}Z`);

/** The shape Prisma's `versionInclude` returns, so toVersion stays the one mapping. */
const versionRow = ([number, title, description, icons, note, author, createdAt, args, messages]: VersionDoc) =>
  ({
    number,
    title,
    description,
    icons,
    note,
    author,
    createdAt: dbDate(createdAt),
    arguments: args.map(([name, title, description, required, choices, maxLength, type, defaultValue]) => ({ name, title, description, required: Boolean(required), choices, maxLength, type, defaultValue })),
    messages: messages.map(([role, type, text, data, mimeType, annotations, uri, allow, includePrompt, includeLabel, includeVersion, includeArguments]) => ({
      role,
      type,
      text,
      data: data ? Buffer.from(data, 'hex') : null,
      mimeType: mimeType ?? null,
      annotations: annotations ?? null,
      binding: uri == null ? null : { uri, allow },
      includePrompt: includePrompt ?? null,
      includeLabel: includeLabel ?? null,
      includeVersion: includeVersion == null ? null : Number(includeVersion),
      includeArguments: includeArguments ?? null,
    })),
  }) as unknown as VersionRow;

export function servedSource(models: Models, dialect: Dialect): ServedSource {
  const ph = dialect.sql.param;
  async function rows(label: string, names: string[] | undefined, withDoc: boolean, each?: (batch: Row[]) => void): Promise<Row[]> {
    const out: Row[] = [];
    const query = async (filter: (n: number) => string, extra: unknown[], suffix = '') => {
      const q = viewSql(dialect, label, filter, withDoc);
      return models.$queryRawUnsafe<Row[]>(q.sql + suffix, ...q.params, ...extra);
    };
    if (names) {
      for (let i = 0; i < names.length; i += NAMES_BATCH) {
        const chunk = names.slice(i, i + NAMES_BATCH);
        out.push(...(await query((n) => `p."name" IN (${chunk.map((_, k) => ph(n + k)).join(', ')})`, chunk)));
      }
    } else {
      for (let after: string | undefined; ; ) {
        const from = after;
        const batch = await query((n) => (from === undefined ? '1 = 1' : `p."name" > ${ph(n)}`), from === undefined ? [] : [from], ` LIMIT ${LOAD_BATCH}`);
        if (each) {
          for (const r of batch) r.versionId = Number(r.versionId);
          each(batch);
        } else for (const r of batch) out.push(r);
        if (batch.length < LOAD_BATCH) break;
        after = batch.at(-1)!.name;
      }
    }
    for (const r of out) r.versionId = Number(r.versionId);
    return out;
  }
  const tagsOf = (t: string) => (t === '[]' ? NO_TAGS : (JSON.parse(t) as string[]));
  return {
    load: async (label, names) => (await rows(label, names, true)).map(({ name, versionId, tags, doc }) => ({ name, versionId, tags: tagsOf(tags), doc })),
    async loadEach(label, each) {
      await rows(label, undefined, true, (batch) => each(batch.map(({ name, versionId, tags, doc }) => ({ name, versionId, tags: tagsOf(tags), doc }))));
    },
    pointers: async (label, names) => (await rows(label, names, false)).map(({ name, versionId, tags }) => ({ name, versionId, tags: tagsOf(tags) })),
    async docs(ids) {
      const out = new Map<number, string>();
      for (let i = 0; i < ids.length; i += NAMES_BATCH) {
        const chunk = ids.slice(i, i + NAMES_BATCH);
        const found = await models.$queryRawUnsafe<{ versionId: number; doc: string }[]>(
          `SELECT v."id" AS "versionId", ${docSql(dialect)} AS "doc" FROM "PromptVersion" v WHERE v."id" IN (${chunk.map((_, k) => ph(k + 1)).join(', ')})`,
          ...chunk,
        );
        for (const r of found) out.set(Number(r.versionId), r.doc);
      }
      return out;
    },
    async pinned(name, number) {
      const [r] = await models.$queryRawUnsafe<{ versionId: number; doc: string }[]>(
        `SELECT v."id" AS "versionId", ${docSql(dialect)} AS "doc" FROM "Prompt" p JOIN "PromptVersion" v ON v."promptId" = p."id"
          WHERE p."name" = ${ph(1)} AND v."number" = ${ph(2)} AND NOT p."archived" AND p."deletedAt" IS NULL`,
        name,
        number,
      );
      return r ? { versionId: Number(r.versionId), doc: r.doc } : null;
    },
    async labels() {
      return (await models.promptLabel.findMany({ where: { prompt: { deletedAt: null } }, distinct: ['name'], select: { name: true }, orderBy: { name: 'asc' } })).map((r) => r.name);
    },
    decode: (doc) => toVersion(versionRow(JSON.parse(doc) as VersionDoc)),
    searchHead,
  };
}

/** After a JSON value at `i` that is a string or null (docSql's title and description), the index past it; -1 if neither. */
function pastStringOrNull(doc: string, i: number): number {
  while (doc[i] === ' ') i++; // PostgreSQL's json_build_array writes ", " between values
  if (doc.startsWith('null', i)) return i + 4;
  if (doc[i] !== '"') return -1;
  for (let j = i + 1; j < doc.length; j++) {
    const c = doc.charCodeAt(j);
    if (c === 0x5c) j++; // a backslash escapes the next character
    else if (c === 0x22) return j + 1;
  }
  return -1;
}

/** docSql's `[number, title, description, …`: the text up to the end of the description (the whole document if it is not that shape). */
function searchHead(doc: string): string {
  const comma = doc.indexOf(',');
  const title = comma < 0 ? -1 : pastStringOrNull(doc, comma + 1);
  const description = title < 0 || doc[title] !== ',' ? -1 : pastStringOrNull(doc, title + 1);
  return description < 0 ? doc : doc.slice(0, description);
}
