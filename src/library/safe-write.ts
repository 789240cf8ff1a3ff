// Writes an export into a directory that may already hold anything, including
// symbolic links planted by someone else (a shared checkout, a cloned repository).
// Nothing is ever written or deleted through a link:
//   - every folder below the export root must be a real directory (not a link) whose
//     real path stays under the real root; otherwise the export stops with an error
//     naming it, before anything is written;
//   - files are written to a new temp file (O_CREAT | O_EXCL | O_NOFOLLOW) in the same
//     folder and renamed over the target, which replaces a link that is there rather
//     than following it;
//   - prune removes only regular files whose folder passes the same checks.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync, readdirSync, realpathSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { lstatOrUndefined } from './safe-read.js';

export class UnsafeExportError extends Error {}

export interface ExportWriter {
  /** Throws UnsafeExportError listing every path of `rels` that cannot be written safely. */
  check(rels: Iterable<string>): void;
  write(rel: string, content: string | Buffer): void;
  /** Deletes regular files under `tops` not in `keep`; returns removed and left-alone paths. */
  prune(tops: string[], keep: Set<string>): { removed: string[]; kept: string[] };
}

export function createExportWriter(root: string): ExportWriter {
  mkdirSync(root, { recursive: true });
  // The root is the user's choice (it may itself be a link); below it, nothing may be.
  const realRoot = realpathSync(root);
  const safeDirs = new Set<string>();

  const within = (real: string) => real === realRoot || real.startsWith(realRoot + path.sep);

  /** Problem with folder `relDir` ('' = root), or undefined; `create` makes missing folders. */
  function dirProblem(relDir: string, create: boolean): string | undefined {
    if (relDir === '' || safeDirs.has(relDir)) return undefined;
    const parts = relDir.split('/');
    let at = root;
    for (let i = 0; i < parts.length; i++) {
      at = path.join(at, parts[i]!);
      const shown = parts.slice(0, i + 1).join('/');
      let st = lstatOrUndefined(at);
      if (!st) {
        if (!create) return undefined; // created later, by us, as a real directory
        try {
          mkdirSync(at);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        }
        st = lstatOrUndefined(at);
      }
      if (!st || st.isSymbolicLink()) return `${shown} is a symbolic link; export never writes through links (remove it, or export to another directory)`;
      if (!st.isDirectory()) return `${shown} exists and is not a directory`;
      if (!within(realpathSync(at))) return `${shown} resolves outside ${root}`;
    }
    if (create) safeDirs.add(relDir);
    return undefined;
  }

  const dirOf = (rel: string) => path.posix.dirname(rel).replace(/^\.$/, '');

  return {
    check(rels) {
      const dirs = new Set<string>();
      const problems: string[] = [];
      for (const rel of rels) {
        dirs.add(dirOf(rel));
        const st = lstatOrUndefined(path.join(root, rel));
        if (st && !st.isFile() && !st.isSymbolicLink()) problems.push(`${rel} exists and is not a regular file`);
      }
      for (const d of [...dirs].sort()) {
        const p = dirProblem(d, false);
        if (p) problems.push(p);
      }
      const uniq = [...new Set(problems)];
      if (uniq.length) throw new UnsafeExportError(`refusing to export to ${root}:\n  ${uniq.join('\n  ')}`);
    },

    write(rel, content) {
      const dir = dirOf(rel);
      const problem = dirProblem(dir, true);
      if (problem) throw new UnsafeExportError(`refusing to write ${rel}: ${problem}`);
      const target = path.join(root, rel);
      const existing = lstatOrUndefined(target);
      if (existing && !existing.isFile() && !existing.isSymbolicLink()) throw new UnsafeExportError(`refusing to write ${rel}: it exists and is not a regular file`);
      // Checked again right before writing: the folder must still be ours.
      const realDir = realpathSync(path.join(root, dir));
      if (!within(realDir)) throw new UnsafeExportError(`refusing to write ${rel}: its folder resolves outside ${root}`);
      const tmp = path.join(realDir, `.${path.posix.basename(rel)}.${randomBytes(6).toString('hex')}.tmp`);
      const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
      try {
        const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
        for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
      } catch (e) {
        closeSync(fd);
        unlinkSync(tmp);
        throw e;
      }
      closeSync(fd);
      try {
        renameSync(tmp, path.join(realDir, path.posix.basename(rel)));
      } catch (e) {
        unlinkSync(tmp);
        throw e;
      }
    },

    prune(tops, keep) {
      const removed: string[] = [];
      const kept: string[] = [];
      const walk = (rel: string) => {
        const st = lstatOrUndefined(path.join(root, rel));
        if (!st) return;
        if (!st.isDirectory()) {
          kept.push(`${rel} (${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; prune only enters real directories)`);
          return;
        }
        if (dirProblem(rel, false)) {
          kept.push(`${rel} (resolves outside the export directory)`);
          return;
        }
        for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
          const child = `${rel}/${entry.name}`;
          if (entry.isDirectory()) walk(child);
          else if (keep.has(child)) continue;
          else if (entry.isFile()) {
            unlinkSync(path.join(root, child));
            removed.push(child);
          } else kept.push(`${child} (${entry.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; prune only removes regular files)`);
        }
      };
      for (const top of tops) walk(top);
      return { removed: removed.sort(), kept: kept.sort() };
    },
  };
}
