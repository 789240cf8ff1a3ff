// Multi-row INSERTs of the write path (every version write, an import's batches), run
// through a RawSql (raw-sql.ts: on SQLite straight on the connection, on PostgreSQL
// through Prisma). Prisma's createMany costs ~0.4 ms of CPU per row (every row goes
// through the query interpreter); one multi-row INSERT costs ~0.02 ms per row; on
// PostgreSQL an import's batch is one statement of one array per column (unnest).
// Identifiers are constants from this file, values are always bound parameters, and
// Prisma.Sql emits the right placeholders for SQLite and PostgreSQL.
import { Prisma } from '../prisma.js';
import type { RawSql } from '../raw-sql.js';

// Prisma caps bound parameters per query (below SQLite's own limit); an OR of 400
// (promptId, number) pairs already exceeds it, so reads go in chunks of 100.
const CHUNK = 100;
export const chunks = <T>(xs: T[], n = CHUNK): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/**
 * A where clause for rows whose (promptId, number) is among `pairs`, as two `in` lists:
 * an OR of n pairs is a new query shape for every n, and Prisma keeps one compiled plan
 * per shape (an LRU of 1,000; ~185 KiB each at 150 pairs, bench/plan-cache.ts), which
 * grew a serving process's heap for hours. `in` lists of any length share one plan.
 * The rows can include pairs not asked for (the cross product): keep them with `hasPair`.
 */
export function pairsWhere(pairs: { promptId: number; number: number }[]) {
  return { promptId: { in: [...new Set(pairs.map((p) => p.promptId))] }, number: { in: [...new Set(pairs.map((p) => p.number))] } };
}

export function hasPair(pairs: { promptId: number; number: number }[]): (r: { promptId: number; number: number }) => boolean {
  const wanted = new Set(pairs.map((p) => `${p.promptId}:${p.number}`));
  return (r) => wanted.has(`${r.promptId}:${r.number}`);
}

// Well under SQLite's and PostgreSQL's bound-parameter limits.
const MAX_PARAMS = 900;

/**
 * The SQL text around the values of one multi-row INSERT, per table, columns and row
 * count: a full chunk's shape repeats for every chunk of an import. Building the
 * statement as one flat Prisma.Sql from these pieces and a flat array of values
 * replaces a nested Prisma.sql per row and two joins (each copying every value again),
 * and hands the same SQL text to the statement cache every time.
 */
const shapes = new Map<string, { strings: string[]; text: string }>();
const SHAPES_MAX = 64;

function shapeOf(table: string, columns: string[], rows: number, returning: string[] | undefined): { strings: string[]; text: string } {
  const key = `${table}\0${columns.join(',')}\0${rows}\0${returning?.join(',') ?? ''}`;
  let shape = shapes.get(key);
  if (shape) return shape;
  const head = `INSERT INTO "${table}" (${columns.map((n) => `"${n}"`).join(', ')}) VALUES (`;
  const tail = `)${returning ? ` RETURNING ${returning.map((n) => `"${n}"`).join(', ')}` : ''}`;
  const strings: string[] = [head];
  for (let r = 0; r < rows; r++) {
    for (let c = 1; c < columns.length; c++) strings.push(',');
    strings.push(r === rows - 1 ? tail : '),(');
  }
  shape = { strings, text: strings.join('?') };
  if (shapes.size >= SHAPES_MAX) shapes.delete(shapes.keys().next().value!);
  shapes.set(key, shape);
  return shape;
}

/** A Prisma.Sql of known strings and flat values; `sql` (the `?` text SQLite runs) is computed once per shape. */
function flatSql(shape: { strings: string[]; text: string }, values: unknown[], nested: boolean): Prisma.Sql {
  const s = new Prisma.Sql(shape.strings, values);
  // A value that is itself SQL is spliced in by the constructor: then the text is its own.
  if (!nested) Object.defineProperty(s, 'sql', { value: shape.text });
  return s;
}

/**
 * PostgreSQL types of the columns the write path inserts in bulk, for `unnest` of one
 * array per column. A table or column missing here is inserted with VALUES.
 */
const INT = 'int', TEXT = 'text', BOOL = 'boolean', TIME = 'timestamp(3)', BYTES = 'bytea';
const ARRAY_TYPES: Record<string, Record<string, string>> = {
  Prompt: { name: TEXT, latestVersion: INT, revision: INT, createdAt: TIME, updatedAt: TIME, searchText: TEXT },
  PromptVersion: { promptId: INT, number: INT, title: TEXT, description: TEXT, icons: TEXT, note: TEXT, author: TEXT, createdAt: TIME, testCases: TEXT },
  PromptArgument: { versionId: INT, position: INT, name: TEXT, title: TEXT, description: TEXT, required: BOOL, choices: TEXT, maxLength: INT, type: TEXT, defaultValue: TEXT },
  PromptMessage: {
    versionId: INT, position: INT, role: TEXT, type: TEXT, text: TEXT, data: BYTES, mimeType: TEXT, annotations: TEXT,
    includePrompt: TEXT, includeLabel: TEXT, includeVersion: INT, includeArguments: TEXT, mayInclude: BOOL,
  },
  ResourceBinding: { messageId: INT, uri: TEXT, isTemplate: BOOL, resourceId: INT, allow: TEXT },
  ImportHash: { root: TEXT, file: TEXT, hash: TEXT, deps: TEXT, promptId: INT, name: TEXT, revision: INT, stat: TEXT },
  ChangeEvent: { at: TIME, actor: TEXT, action: TEXT, entity: TEXT, entityKey: TEXT, served: BOOL, details: TEXT },
};

// A timestamp without time zone ignores the zone of an ISO literal: the UTC time is
// stored, as Prisma stores a Date bound in VALUES.
const arrayValue = (v: unknown) => (v === undefined ? null : v instanceof Date ? v.toISOString() : v);

/**
 * One INSERT of many rows as one array per column (PostgreSQL): the rows go in array
 * order (ORDER BY the ordinality), so ids are assigned as a VALUES list assigns them.
 * Undefined when the table or a column has no known type.
 */
function arrayInsert(table: string, columns: string[], rows: unknown[][], returning: string[] | undefined): Prisma.Sql | undefined {
  const types = ARRAY_TYPES[table];
  if (!types || !columns.every((c) => types[c] !== undefined) || rows.some((r) => r.length !== columns.length)) return undefined;
  const arrays = columns.map((_, c) => rows.map((r) => arrayValue(r[c])));
  if (arrays.some((a) => a.some((v) => v instanceof Prisma.Sql))) return undefined;
  const names = columns.map((c) => `"${c}"`).join(', ');
  const aliases = columns.map((_, c) => `c${c}`);
  const strings = [`INSERT INTO "${table}" (${names}) SELECT ${aliases.join(', ')} FROM unnest(`];
  columns.forEach((c, i) => strings.push(`::${types[c]}[]${i === columns.length - 1 ? '' : ', '}`));
  strings[strings.length - 1] += `) WITH ORDINALITY AS u(${aliases.join(', ')}, ord) ORDER BY ord${returning ? ` RETURNING ${returning.map((n) => `"${n}"`).join(', ')}` : ''}`;
  return new Prisma.Sql(strings, arrays);
}

/** Inserts rows (values in `columns` order); returns the `returning` columns of every row. */
export async function insertRows<R extends Record<string, unknown>>(
  sql: RawSql,
  table: string,
  columns: string[],
  rows: unknown[][],
  returning?: string[],
): Promise<R[]> {
  const out: R[] = [];
  const per = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  // More rows than one VALUES statement takes (an import's batch): one statement of arrays where the dialect has them.
  const arrays = sql.arrays && rows.length > per ? arrayInsert(table, columns, rows, returning) : undefined;
  if (arrays) {
    if (returning) return sql.query<R>(arrays);
    await sql.execute(arrays);
    return out;
  }
  for (let i = 0; i < rows.length; i += per) {
    const n = Math.min(per, rows.length - i);
    const values: unknown[] = [];
    let nested = false;
    for (let r = i; r < i + n; r++) {
      const row = rows[r]!;
      if (row.length !== columns.length) throw new Error(`insertRows ${table}: a row of ${row.length} values for ${columns.length} columns`);
      for (const v of row) {
        if (v instanceof Prisma.Sql) nested = true;
        values.push(v);
      }
    }
    const statement = flatSql(shapeOf(table, columns, n, returning), values, nested);
    if (returning) for (const r of await sql.query<R>(statement)) out.push(r);
    else await sql.execute(statement);
  }
  return out;
}
