// Issue 25.4: the SQLite database (library, token hashes, cursor secret) was created
// world-readable under umask 022. It is now created 0600 (WAL and SHM follow), in a
// 0700 directory when promptd creates it, and a readable existing file is reported.
import { chmodSync, existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, ensureDatabaseDirectory, migrateDatabase } from '../../src/db/create-db.js';
import { coreOn } from '../helpers/db.js';
import { ensurePrivateSqliteFile } from '../../src/db/sqlite-file-mode.js';

const mode = (f: string) => statSync(f).mode & 0o777;
let umask: number;

beforeAll(() => {
  umask = process.umask(0o022);
});
afterAll(() => void process.umask(umask));

it.skipIf(process.platform === 'win32')('a new database, its WAL and SHM files are 0600 and a directory promptd creates is 0700, under umask 022', async () => {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'pd-mode-')), 'data', 'nested');
  const file = path.join(dir, 'promptd.db');
  const url = `file:${file}`;
  await migrateDatabase(url);
  const core = await coreOn(url);
  try {
    await core.tokens.create('mode-check'); // a write, so the WAL and SHM exist
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f).toString(8), f).toBe('600');
    expect(mode(dir).toString(8)).toBe('700');
    expect(mode(path.dirname(dir)).toString(8)).toBe('700');
  } finally {
    await core.close();
  }
});

it.skipIf(process.platform === 'win32')('an existing database readable by others is reported once at start (and left as it is)', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pd-mode-'));
  const file = path.join(dir, 'shared.db');
  writeFileSync(file, '');
  chmodSync(file, 0o644);
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  process.on('warning', onWarning);
  try {
    await migrateDatabase(`file:${file}`);
    const db = await createDb(`file:${file}`);
    await db.close();
    await new Promise((r) => setImmediate(r)); // 'warning' is emitted on the next tick
  } finally {
    process.off('warning', onWarning);
  }
  const ours = warnings.filter((w) => w.name === 'PromptdSecurityWarning');
  expect(ours).toHaveLength(1);
  expect(ours[0]!.message).toContain(file);
  expect(ours[0]!.message).toContain('0644');
  expect(mode(file).toString(8)).toBe('644');
  // A session that only read closed cleanly: no WAL or SHM file (born 0644 here) left behind.
  expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([false, false]);
  expect(ensurePrivateSqliteFile(file)).toEqual([]); // once per process
  expect(ensurePrivateSqliteFile(':memory:')).toEqual([]);
});

it.skipIf(process.platform === 'win32')('opening never creates the directory (only serve/migrate/seed do, through ensureDatabaseDirectory: 0700)', async () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'pd-mode-'));
  const dir = path.join(base, 'typo', 'data');
  const url = `file:${path.join(dir, 'promptd.db')}`;
  await expect(createDb(url)).rejects.toThrow();
  expect(existsSync(path.join(base, 'typo'))).toBe(false);
  expect(ensureDatabaseDirectory(url)).toBe(dir);
  expect(mode(dir).toString(8)).toBe('700');
  expect(mode(path.dirname(dir)).toString(8)).toBe('700');
});
