// Which database a command runs on, said out loud, and what the command may do to it:
// `create` (serve, migrate, seed) may create the directory and the file; `write`
// (import, token create/revoke) needs the directory and may create the file; `read`
// (token list, export, mcp) needs the file and works on one it may not write.
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { describeDatabase, ensureDatabaseDirectory, migrateDatabase, pendingMigrations, sqliteFileOf } from './create-db.js';
import type { AdapterOptions, SqliteOpenOptions } from './dialect.js';

export type Access = 'create' | 'write' | 'read';

export interface PreparedDatabase {
  /** what to show: the absolute SQLite path, or PostgreSQL's host/database (never a password) */
  where: string;
  /** how `openStore` must open it (a SQLite file we may not write opens read-only) */
  open: AdapterOptions;
  /** true when the command works on a database it may not write */
  readOnly: boolean;
  /** true when this command created the database */
  created: boolean;
  /** migrations this command applied */
  applied: string[];
}

/** Why a path cannot be written, or undefined when it can. */
function notWritable(p: string): string | undefined {
  try {
    accessSync(p, constants.W_OK);
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EROFS' ? 'read-only file system' : 'permission denied';
  }
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

/**
 * Checks the database against what the command may do, migrates it when it may,
 * and says which database it is on stderr. `defaulted` marks a URL nobody set
 * (the relative default), for the hint in the errors.
 */
export async function prepareDatabase(url: string, access: Access, opts: { defaulted: boolean; note: (line: string) => void; quiet?: boolean; missingHint?: string }): Promise<PreparedDatabase> {
  const where = describeDatabase(url);
  const file = sqliteFileOf(url);
  const hint = opts.defaulted ? ` (DATABASE_URL is not set: the default ./data/promptd.db, in the current directory)` : '';
  let sqlite: SqliteOpenOptions = {};
  let created = false;
  if (file) {
    const dir = path.dirname(file);
    if (access === 'create') {
      const made = ensureDatabaseDirectory(url);
      if (made) opts.note(`created the directory ${made} for the database`);
    }
    created = !existsSync(file);
    if (created && access === 'read') {
      throw new Error(`no database at ${file}${hint}; set DATABASE_URL to your database (file:/absolute/path.db)${opts.missingHint ?? ', or create one with `promptd migrate`'}`);
    }
    if (!existsSync(dir)) {
      throw new Error(`no database at ${file}${hint}: the directory ${dir} does not exist; set DATABASE_URL to your database, or create one with \`promptd migrate\``);
    }
    const why = created ? notWritable(dir) && `the directory ${dir} is not writable (${notWritable(dir)})` : notWritable(file) ? `the file is not writable (${notWritable(file)})` : notWritable(dir) && `its directory ${dir} is not writable (${notWritable(dir)}; SQLite keeps its -wal and -shm files there)`;
    if (why && access !== 'read') throw new Error(`cannot write the database ${file}: ${why}`);
    if (access === 'read') sqlite = { mustExist: true };
    if (why) sqlite = { mustExist: true, readOnly: true, ...(notWritable(dir) && !existsSync(`${file}-shm`) ? { immutable: true } : {}) };
    if (!opts.quiet) opts.note(`database ${file}${created ? ' (new)' : sqlite.readOnly ? ' (read-only)' : ''}`);
    const pending = created ? [] : await pendingMigrations(url, { sqlite });
    if (pending.length && sqlite.readOnly) {
      throw new Error(`the database ${file} needs ${plural(pending.length, 'migration')} but ${why}; run \`promptd migrate\` as a user who may write it`);
    }
    if (pending.length) opts.note(`applying ${plural(pending.length, 'migration')}…`);
  } else {
    if (!opts.quiet) opts.note(`database ${where}`);
    const pending = await pendingMigrations(url);
    // The first migration of an empty PostgreSQL database takes seconds: say so.
    if (pending.length) opts.note(`applying ${plural(pending.length, 'migration')} to ${where}…`);
  }
  const applied = sqlite.readOnly ? [] : await migrateDatabase(url);
  return { where, open: { sqlite }, readOnly: Boolean(sqlite.readOnly), created, applied };
}
