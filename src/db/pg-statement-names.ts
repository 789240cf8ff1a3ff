// Names for PostgreSQL prepared statements of the write path. @prisma/adapter-pg sends
// every query unnamed: a Parse of its full text on every execution, which PostgreSQL
// parses and plans again, and which pg serialises again (a version's one-statement CTE,
// version-batch.ts, is a few KB). A named statement is parsed once per pooled connection
// and then only bound and executed.
//
// Only data-modifying statements get a name: after five executions PostgreSQL may keep
// a generic plan for a named statement, which for a read (a q= search, a LIKE with its
// pattern as a parameter) can be far worse than the custom plan it gets unnamed; an
// INSERT/UPDATE/DELETE by key plans the same either way. The names are bounded: pg keeps
// every statement a connection prepared until the connection closes, so texts beyond
// MAX_NAMED (and long ones, an import's multi-row statements, which rarely repeat) stay
// unnamed.
import type { SqlQuery } from '@prisma/driver-adapter-utils';

const MAX_NAMED = 128;
const MAX_TEXT = 16_384;
const WRITES = /^\s*(INSERT|UPDATE|DELETE|WITH\s+"v"\s+AS\s+\(\s*INSERT)\b/i;

/** A generator for PrismaPg's `statementNameGenerator`: a stable name per text, or undefined (unnamed). */
export function createStatementNames(max = MAX_NAMED): (query: Pick<SqlQuery, 'sql'>) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined && names.size < max && sql.length <= MAX_TEXT && WRITES.test(sql)) {
      name = `promptd_w${names.size + 1}`;
      names.set(sql, name);
    }
    // The adapter passes it on as pg's `name`; undefined keeps the statement unnamed.
    return name as string;
  };
}
