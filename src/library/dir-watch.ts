// Watches a directory tree for any change to its entries, for `sync --watch`.
// Node 20's `fs.watch(dir, { recursive: true })` on Linux watches each *file's inode*:
// a save that writes a new file and renames it over the old one (most editors, `sed -i`,
// `mv`, git) detaches the watch, and later edits or the file's deletion go unseen. So on
// Linux every directory gets a watch of its own (inotify reports its entries' creation,
// change, rename and deletion whatever their inode), and directories that appear or go
// are watched or dropped as their events arrive. macOS (FSEvents) and Windows watch the
// path natively, so they keep the recursive watch.
import { lstatSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Directories never watched (and never synced). */
export const IGNORED_DIRS = new Set(['.git', 'node_modules']);

export interface TreeWatcher {
  close(): void;
  /** Directories watched (relative to the root, '' for it); for tests. */
  readonly watched: string[];
}

const nativeRecursive = process.platform === 'darwin' || process.platform === 'win32';

/**
 * Calls `onChange(relativePath)` for every change under `root`. A new directory's
 * contents written before its watch started are not reported one by one: the caller
 * rereads the whole tree on the directory's own event.
 */
export function watchTree(root: string, onChange: (rel: string) => void, onError: (e: unknown) => void): TreeWatcher {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  const ignored = (rel: string) => rel.split(/[\\/]/).some((s) => IGNORED_DIRS.has(s));

  if (nativeRecursive) {
    const w = watch(root, { recursive: true }, (_e, f) => {
      const rel = f ? f.toString() : '';
      if (!closed && !ignored(rel)) onChange(rel);
    });
    w.on('error', onError);
    return { close: () => ((closed = true), w.close()), watched: [''] };
  }

  const isDir = (abs: string) => {
    try {
      return lstatSync(abs).isDirectory(); // lstat: symbolic links are not followed, as in sync
    } catch {
      return false;
    }
  };
  const drop = (rel: string) => {
    for (const [k, w] of watchers) {
      if (k === rel || k.startsWith(rel + path.sep)) {
        w.close();
        watchers.delete(k);
      }
    }
  };
  const add = (rel: string) => {
    if (closed || watchers.has(rel) || ignored(rel)) return;
    const abs = path.join(root, rel);
    let w: FSWatcher;
    try {
      w = watch(abs, (_e, f) => {
        if (closed) return;
        const child = f ? path.join(rel, f.toString()) : rel;
        if (ignored(child)) return;
        // A directory that appeared (mkdir, a rename, git) gets watched; one that went is dropped.
        if (f && child !== rel) {
          if (isDir(path.join(root, child))) add(child);
          else if (watchers.has(child)) drop(child);
        }
        onChange(child);
      });
    } catch (e) {
      // Gone between the listing and the watch: its parent's event reports it.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      if (rel === '') throw e;
      onError(e);
      return;
    }
    w.on('error', (e) => {
      drop(rel);
      if (rel === '') onError(e);
    });
    watchers.set(rel, w);
    let entries;
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of entries) if (d.isDirectory()) add(path.join(rel, d.name));
  };
  add('');
  return {
    close() {
      closed = true;
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
    get watched() {
      return [...watchers.keys()].sort();
    },
  };
}
