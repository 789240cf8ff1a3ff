// The SQLite file holds the library, token hashes and the cursor secret: it is
// created private (0600, in a 0700 directory when we create that too) whatever the
// umask. SQLite gives the -wal and -shm files the main file's mode. An existing
// file that others can read is left alone (it may be shared on purpose) but
// reported once per process. Only a caller allowed to create a database asks for the
// directory (migrateDatabase, reached from serve/migrate/seed or once
// src/db/prepare-database.ts has checked the directory exists); a read never creates the file.
import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';

const warned = new Set<string>();

/**
 * Prepares `file` (not ":memory:") before SQLite opens it, creating what `may` allows
 * (by default only an existing file is checked); returns warnings about existing
 * files readable or writable by group or others (each reported once).
 */
export function ensurePrivateSqliteFile(file: string, may: { createDirectory?: boolean; createFile?: boolean } = {}): string[] {
  if (file === ':memory:' || file === '' || file.startsWith('file:')) return [];
  const abs = path.resolve(file);
  const dir = path.dirname(abs);
  if (!existsSync(dir)) {
    if (!may.createDirectory) return [];
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  if (!existsSync(abs) && (may.createFile || may.createDirectory)) {
    // O_EXCL: never chmod a file someone else created in between.
    try {
      closeSync(openSync(abs, 'wx', 0o600));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  if (process.platform === 'win32') return [];
  const warnings: string[] = [];
  for (const f of [abs, `${abs}-wal`, `${abs}-shm`]) {
    if (warned.has(f) || !existsSync(f)) continue;
    const mode = statSync(f).mode & 0o777;
    if (mode & 0o077) {
      warned.add(f);
      warnings.push(`${f} is accessible to other users (mode ${mode.toString(8).padStart(4, '0')}); it holds token hashes and the cursor secret: chmod 600 it`);
    }
  }
  return warnings;
}
