// Which database a command runs on, said out loud, and what the command may do to it:
// `create` (serve, migrate, seed) may create the directory and the file; `write`
// (import, token create/revoke) needs the directory and may create the file; `read`
// (token list, export, mcp) needs the file and works on one it may not write.
import { accessSync, closeSync, constants, existsSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { describeDatabase, ensureDatabaseDirectory, migrateDatabase, migrationState, sqliteFileOf } from './create-db.js';
import { dialectFor } from './dialects.js';
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

const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * What is at `file` when something is: a directory, an empty file, or a file that is
 * not SQLite's (its first 16 bytes say so). Checked before SQLite or the schema engine
 * sees it, which reported "file is not a database" with a backtrace after announcing
 * migrations, or silently turned an empty file into a database.
 */
function fileKind(file: string): 'directory' | 'empty' | 'sqlite' | 'other' {
  const st = statSync(file);
  if (st.isDirectory()) return 'directory';
  if (st.size === 0) {
    // A WAL database whose first commit is still in the -wal file is not empty.
    return existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 0 ? 'sqlite' : 'empty';
  }
  const head = Buffer.alloc(16);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    readSync(fd, head, 0, 16, 0);
  } catch {
    return 'sqlite'; // unreadable: SQLite's own open says why (permission, …)
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return head.toString('latin1') === SQLITE_HEADER ? 'sqlite' : 'other';
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
    const kind = existsSync(file) ? fileKind(file) : undefined;
    if (kind === 'directory') throw new Error(`${file} is a directory, not a database file; set DATABASE_URL to a file (e.g. file:${path.join(file, 'promptd.db')})`);
    if (kind === 'other') throw new Error(`${file} is not a database (not a SQLite file); check DATABASE_URL${hint}`);
    // Read-only commands never create or migrate a database: an empty file is not one of ours.
    if (kind === 'empty' && access === 'read') throw new Error(`${file} is an empty file, not a promptd database; create one with \`promptd migrate\` (same DATABASE_URL)`);
    if (access === 'create') {
      const made = ensureDatabaseDirectory(url);
      if (made) opts.note(`created the directory ${made} for the database`);
    }
    // An empty file is initialised like a new one by the commands that may write.
    created = !existsSync(file) || kind === 'empty';
    if (!existsSync(file) && access === 'read') {
      throw new Error(`no database at ${file}${hint}; set DATABASE_URL to your database (file:/absolute/path.db)${opts.missingHint ?? ', or create one with `promptd migrate`'}`);
    }
    if (!existsSync(dir)) {
      throw new Error(`no database at ${file}${hint}: the directory ${dir} does not exist; set DATABASE_URL to your database, or create one with \`promptd migrate\``);
    }
    const why = !existsSync(file) ? notWritable(dir) && `the directory ${dir} is not writable (${notWritable(dir)})` : notWritable(file) ? `the file is not writable (${notWritable(file)})` : notWritable(dir) && `its directory ${dir} is not writable (${notWritable(dir)}; SQLite keeps its -wal and -shm files there)`;
    if (why && access !== 'read') throw new Error(`cannot write the database ${file}: ${why}`);
    if (access === 'read') sqlite = { mustExist: true };
    if (why) sqlite = { mustExist: true, readOnly: true, ...(notWritable(dir) && !existsSync(`${file}-shm`) ? { immutable: true } : {}) };
    const state = created ? { migrated: false, pending: [] } : await migrationState(url, { sqlite });
    if (access === 'read' && !state.migrated) throw new Error(`${file} is not a promptd database (a SQLite file without promptd's tables); check DATABASE_URL${hint}`);
    if (!opts.quiet) opts.note(`database ${file}${created ? ' (new)' : sqlite.readOnly ? ' (read-only)' : ''}`);
    if (state.pending.length && sqlite.readOnly) {
      throw new Error(`the database ${file} needs ${plural(state.pending.length, 'migration')} but ${why}; run \`promptd migrate\` as a user who may write it`);
    }
    if (state.pending.length && access === 'read') {
      throw new Error(`the database ${file} needs ${plural(state.pending.length, 'migration')} (made by an older promptd); run \`promptd migrate\` first: read-only commands never migrate`);
    }
    if (state.pending.length) opts.note(`applying ${plural(state.pending.length, 'migration')}…`);
  } else {
    // Connect first: an unreachable server is one line, before anything is announced.
    await dialectFor(url).checkConnection?.(url);
    if (!opts.quiet) opts.note(`database ${where}`);
    const { pending } = await migrationState(url);
    if (pending.length && access === 'read') {
      throw new Error(`the database ${where} needs ${plural(pending.length, 'migration')}; run \`promptd migrate\` first: read-only commands never migrate`);
    }
    // The first migration of an empty PostgreSQL database takes seconds: say so.
    if (pending.length) opts.note(`applying ${plural(pending.length, 'migration')} to ${where}…`);
  }
  const applied = sqlite.readOnly ? [] : await migrateDatabase(url);
  return { where, open: { sqlite }, readOnly: Boolean(sqlite.readOnly), created, applied };
}
