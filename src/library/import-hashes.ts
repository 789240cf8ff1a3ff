// The library face of the import hashes (src/core/services/import-hashes.ts): what a
// file's hash covers. The file's bytes, the media files it names (path and bytes), the
// manifest (prompts validate against its resources), the options that change what an
// import does with the same file (--activate, --label) and this reader's own identity,
// so a promptd that reads the same bytes differently (a new format field) parses again.
import { createHash } from 'node:crypto';
import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UnchangedSource } from '../core/services/import-hashes.js';
import type { PlanOptions } from './plan.js';

export interface SkipSources {
  /** options, reader identity */
  salt: string;
  /** file → what the last import read from it, for files whose prompt has not moved since */
  unchanged: Map<string, UnchangedSource>;
  /** when the import started (ms since the epoch; default now): files changed after FRESH_MS before it are not trusted by their stat */
  startedMs?: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));
// The modules that turn bytes into a version (built or run from source alike). Their
// size and time change with any rebuild or upgrade; an installed package whose times
// are normalised still changes size or version.
const READER_MODULES = ['read-library', 'format', 'plan', '../core/schemas', '../core/validate-version'];

let identity: string | undefined;
function readerIdentity(): string {
  if (identity !== undefined) return identity;
  const ext = path.extname(fileURLToPath(import.meta.url));
  identity = READER_MODULES.map((m) => {
    try {
      const s = statSync(path.join(here, `${m}${ext}`));
      return `${m}:${s.size}:${s.mtimeMs}`;
    } catch {
      return `${m}:?`;
    }
  }).join('|');
  return identity;
}

/** The salt of one import: the hash of a file read under other options never matches. */
export function importSalt(opts: PlanOptions): string {
  return JSON.stringify({ v: 1, activate: Boolean(opts.activate), label: opts.label ?? null, reader: readerIdentity() });
}

export function sourceHash(salt: string, file: string, bytes: Buffer, deps: (readonly [string, Buffer])[]): string {
  const h = createHash('sha256').update(salt).update('\0').update(file).update('\0').update(String(bytes.length)).update('\0').update(bytes);
  for (const [d, b] of deps) h.update('\0').update(d).update('\0').update(String(b.length)).update('\0').update(b);
  return h.digest('base64url');
}

/**
 * Files changed this close to the start of an import (or after it) are not trusted by
 * their stat: a write within the file system's timestamp granularity (1–2 s on some)
 * could leave size and times as they were.
 */
export const FRESH_MS = 2_000;

/**
 * The stat fingerprint of a prompt file and its media files under one salt, as git's
 * index does it: size, modification and change times, inode and device. ctime cannot be
 * set from user space, so a rewrite that restores mtime still shows. Plain text (no
 * digest per file: 10,000 of them were a tenth of an unchanged re-import); `saltKey` is
 * the salt's digest, computed once per import. '' when a file is too fresh to trust
 * (then its bytes are hashed next time).
 */
export function statPrint(saltKey: string, stats: readonly Stats[], importStartedMs: number): string {
  let out = saltKey;
  for (const s of stats) {
    if (s.mtimeMs > importStartedMs - FRESH_MS || s.ctimeMs > importStartedMs - FRESH_MS) return '';
    out += `|${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}:${s.dev}`;
  }
  return out;
}

/** A short digest of the salt, the prefix of every stat fingerprint of one import. */
export const saltKey = (salt: string) => createHash('sha256').update(salt).digest('base64url').slice(0, 16);
