// Reads files from a library directory that may come from anyone (a git clone, a
// tarball). A library is data, never a way to reach the rest of the host, so:
//   - no symbolic link anywhere below the library root (prompt files, folders, media,
//     resource files, resources.yaml), whatever it points at;
//   - only regular files: never a FIFO, device, socket or directory;
//   - opened with O_NOFOLLOW | O_NONBLOCK and checked again on the open handle
//     (fstat: same file as checked, regular, size), so a swap between check and open
//     neither follows a link nor blocks on a FIFO;
//   - where the open file really is (/proc/self/fd on Linux, else realpath) stays under the real library root;
//   - a size cap per file and per import, checked on the handle before reading.
// Every refusal is a per-file error naming the field; the rest of the library proceeds.
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { FieldError } from '../core/errors.js';

export const MiB = 1024 * 1024;
export const DEFAULT_MAX_FILE_BYTES = 16 * MiB;
export const DEFAULT_MAX_TOTAL_BYTES = 256 * MiB;

export interface ReadLimits {
  /** largest single file read from a library (default 16 MiB) */
  maxFileBytes?: number;
  /** all files of one import together (default 256 MiB) */
  maxTotalBytes?: number;
}

export class FileError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  }
}

function human(n: number): string {
  const [unit, div] = n >= MiB ? ['MiB', MiB] : n >= 1024 ? ['KiB', 1024] : ['bytes', 1];
  return `${(n / div).toFixed(n % div ? 1 : 0)} ${unit}`;
}

function kindOf(s: Stats): string {
  if (s.isSymbolicLink()) return 'a symbolic link';
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** lstat that answers undefined for a missing path instead of throwing. */
export function lstatOrUndefined(abs: string): Stats | undefined {
  try {
    return lstatSync(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** The path of an open file as the kernel has it (Linux); undefined where there is no /proc. */
function handlePath(fd: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const p = readlinkSync(`/proc/self/fd/${fd}`);
    // A pseudo-file ("pipe:[…]") or a file unlinked meanwhile: let realpath decide.
    return p.startsWith('/') && !p.endsWith(' (deleted)') ? p : undefined;
  } catch {
    return undefined;
  }
}

export interface LibraryReader {
  readonly root: string;
  /** bytes of `rel` (relative to the root); throws FileError with `field` as the path */
  read(rel: string, field: string): Buffer;
  /** what is at `rel` without following links: 'file', 'dir', 'missing', or a refusal message */
  probe(rel: string): 'file' | 'dir' | 'missing' | { refused: string };
  /** lstat of a regular file at `rel` under the same rules as read, without opening it; throws FileError like read */
  stat(rel: string, field: string): Stats;
  /**
   * Counts `size` bytes of `rel`, read by another reader under the same rules (the
   * parse-ahead worker's), against this reader's total; throws FileError like read
   * when they would take the import over it.
   */
  account(rel: string, size: number, field: string): void;
}

export function createLibraryReader(root: string, limits: ReadLimits = {}): LibraryReader {
  const maxFile = limits.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxTotal = limits.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  // The root is the user's choice (it may itself sit behind a link, e.g. /tmp on macOS);
  // everything below it is the library's content and is held to the rules above.
  const realRoot = realpathSync.native(root);
  const cache = new Map<string, Buffer>();
  // Directories already walked (lstat: a directory, no link). A library's 10,000 files sit
  // in a few folders, so this halves the lstat calls; a folder swapped for a link after
  // its check is still caught on each file by the realpath check after open.
  const dirs = new Set<string>();
  let total = 0;

  /** Lexically inside, and no symlink or non-directory on the way. Returns the absolute path. */
  function walk(rel: string, field: string): { abs: string; shown: string; stat: Stats | undefined } {
    const abs = path.resolve(root, rel);
    const back = path.relative(root, abs);
    if (back === '' || back.startsWith('..') || path.isAbsolute(back)) throw new FileError([{ path: field, message: `"${rel}" is outside the library directory` }]);
    const parts = back.split(path.sep);
    let at = root;
    let stat: Stats | undefined;
    for (let i = 0; i < parts.length; i++) {
      at = path.join(at, parts[i]!);
      const last = i === parts.length - 1;
      if (!last && dirs.has(at)) continue;
      const shown = parts.slice(0, i + 1).join('/');
      stat = lstatOrUndefined(at);
      if (!stat) return { abs, shown: parts.join('/'), stat: undefined };
      if (stat.isSymbolicLink()) throw new FileError([{ path: field, message: `${shown} is a symbolic link; a library may not contain symbolic links` }]);
      if (!last && !stat.isDirectory()) throw new FileError([{ path: field, message: `${shown} is not a directory` }]);
      if (!last) dirs.add(at);
    }
    return { abs, shown: parts.join('/'), stat };
  }

  function contained(abs: string, fd: number, shown: string, field: string): void {
    // Where the open handle really is. On Linux the kernel says it in one readlink of
    // /proc/self/fd/N, and it is the file that was opened, not the path resolved again;
    // realpath(3) elsewhere (glibc's issues a readlink per path component: five per file
    // of a library under /tmp, a third of the reader's system calls).
    const real = handlePath(fd) ?? realpathSync.native(abs);
    if (real !== realRoot && !real.startsWith(realRoot + path.sep)) throw new FileError([{ path: field, message: `${shown} resolves outside the library directory` }]);
  }

  function checkTotal(shown: string, size: number, field: string): void {
    if (total + size > maxTotal) {
      throw new FileError([{ path: field, message: `${shown} (${human(size)}) would take this import over its ${human(maxTotal)} limit for all files together (--max-total-size)` }]);
    }
  }

  return {
    root,
    account(rel, size, field) {
      checkTotal(rel.split(path.sep).join('/'), size, field);
      total += size;
    },
    probe(rel) {
      try {
        const { stat } = walk(rel, '(file)');
        if (!stat) return 'missing';
        if (stat.isDirectory()) return 'dir';
        if (stat.isFile()) return 'file';
        return { refused: `${rel} is ${kindOf(stat)}` };
      } catch (e) {
        if (e instanceof FileError) return { refused: e.errors[0]!.message };
        throw e;
      }
    },
    stat(rel, field) {
      const { shown, stat } = walk(rel, field);
      if (!stat) throw new FileError([{ path: field, message: `cannot read ${rel}: ENOENT` }]);
      if (!stat.isFile()) throw new FileError([{ path: field, message: `${shown} is ${kindOf(stat)}; only regular files are read` }]);
      return stat;
    },
    read(rel, field) {
      // Bytes already read passed every check below (the import hash reads each file a second time).
      const hit = cache.get(path.resolve(root, rel));
      if (hit) return hit;
      const { abs, shown, stat } = walk(rel, field);
      if (!stat) throw new FileError([{ path: field, message: `cannot read ${rel}: ENOENT` }]);
      if (!stat.isFile()) throw new FileError([{ path: field, message: `${shown} is ${kindOf(stat)}; only regular files are read` }]);
      let fd: number;
      try {
        // O_NONBLOCK: if a FIFO was swapped in after the lstat, open must not wait for a writer.
        fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        const why = code === 'ELOOP' ? `${shown} is a symbolic link; a library may not contain symbolic links` : `cannot read ${rel}: ${code ?? (e as Error).message}`;
        throw new FileError([{ path: field, message: why }]);
      }
      try {
        const h = fstatSync(fd);
        if (!h.isFile()) throw new FileError([{ path: field, message: `${shown} is ${kindOf(h)}; only regular files are read` }]);
        if (h.dev !== stat.dev || h.ino !== stat.ino) throw new FileError([{ path: field, message: `${shown} changed while it was being read` }]);
        contained(abs, fd, shown, field);
        if (h.size > maxFile) {
          throw new FileError([{ path: field, message: `${shown} is ${human(h.size)}, over the ${human(maxFile)} limit for one file (--max-file-size)` }]);
        }
        checkTotal(shown, h.size, field);
        // Read at most the size checked above, even if the file grows meanwhile.
        // Unfilled: every byte handed out is read from the file (a short read is cut off below).
        const buf = Buffer.allocUnsafe(h.size);
        let off = 0;
        while (off < buf.length) {
          const n = readSync(fd, buf, off, buf.length - off, off);
          if (n === 0) break;
          off += n;
        }
        const bytes = off === buf.length ? buf : buf.subarray(0, off);
        total += bytes.length;
        cache.set(abs, bytes);
        return bytes;
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** `16MiB`, `512KiB`, `1G`, `1048576` → bytes; undefined for anything else. */
export function parseSize(s: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?\s*$/i.exec(s);
  if (!m) return undefined;
  const unit = { '': 1, k: 1024, m: MiB, g: 1024 * MiB }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  const n = Math.floor(Number(m[1]) * unit);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
