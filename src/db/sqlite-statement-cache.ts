// Prisma's better-sqlite3 adapter prepares every query anew (`prepare(sql).bind(args)`),
// so SQLite compiles the same few dozen statements again on every request: ~10% of a
// version write's CPU (bench/writes-profile.ts, "native Statement"). This keeps the
// compiled statements per connection (least recently used out past `max`) and hands
// the adapter a one-shot view of one: a better-sqlite3 statement can be bound once
// only, so the arguments are passed per call instead. The adapter uses `reader`,
// `run()`, `columns()` and `raw().all()` of a bound statement, and `run()` of an
// unbound one (BEGIN); nothing else calls prepare() on the connection.
export interface Statement {
  readonly reader: boolean;
  run(...args: unknown[]): unknown;
  all(...args: unknown[]): unknown[];
  get(...args: unknown[]): unknown;
  columns(): unknown[];
  raw(on?: boolean): Statement;
}

export interface Connection {
  prepare(sql: string): unknown;
  readonly inTransaction: boolean;
}

/** Returns the cache's own lookup: the compiled statement for `sql` (sqlite-direct.ts runs it). */
export function cacheStatements(db: Connection | undefined, max = 500): (sql: string) => Statement {
  // The adapter's connection is not public API (@prisma/adapter-better-sqlite3 keeps it
  // in `client`): if a new adapter version moves it, refuse to start rather than run uncached
  // or half-patched.
  if (typeof db?.prepare !== 'function') {
    throw new Error('@prisma/adapter-better-sqlite3 no longer exposes its better-sqlite3 connection as `client`: update src/db/sqlite-statement-cache.ts for this adapter version');
  }
  const prepare = db.prepare.bind(db) as (sql: string) => Statement;
  const cache = new Map<string, Statement>();
  const compiled = (sql: string): Statement => {
    let s = cache.get(sql);
    if (s) cache.delete(sql);
    else {
      s = prepare(sql);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, s);
    return s;
  };
  db.prepare = (sql: string) => {
    const stmt = compiled(sql);
    return {
      reader: stmt.reader,
      run: () => stmt.run(),
      bind: (args: unknown[]) => ({
        reader: stmt.reader,
        run: () => stmt.run(args),
        columns: () => stmt.columns(),
        raw: () => ({ all: () => stmt.raw(true).all(args) }),
      }),
    };
  };
  return compiled;
}
