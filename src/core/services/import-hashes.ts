// Re-importing an unchanged library should cost little more than reading it. An import
// records, per prompt file, a hash of what it read (the library face computes it: the
// file's bytes, the media files it names, the manifest, the import options and the
// reader's own version) and the prompt's revision right after. The next import skips
// parsing and comparing a file whose hash matches while its prompt is still at that
// revision. Any write to the prompt since (a version, a label move, tags, archiving,
// deletion, a rename) bumps or removes the revision, so the file is parsed and
// compared as before: the hash never hides a divergence (docs/library-format.md).
import type { ImportHashRow, Store } from '../ports.js';

/** A file the last import read whose prompt has not moved since. */
export interface UnchangedSource {
  hash: string;
  /** the stat fingerprint recorded with the hash ('' when the file was too fresh to trust) */
  stat: string;
  deps: string[];
  name: string;
  /** the prompt's latest version (what the report shows as unchanged) */
  latest: number;
}

export interface ImportedSource {
  file: string;
  hash: string;
  stat: string;
  deps: string[];
  name: string;
  /** the latest version the import left the prompt at; not recorded if it moved on meanwhile */
  latest: number;
}

export function createImportHashService(store: Pick<Store, 'loadImportHashes' | 'promptRevisions' | 'saveImportHashes'>) {
  return {
    /**
     * The recorded files of `root` (an absolute path): every file with a row, and the
     * rows still valid (the prompt exists, under the same name and id, at the recorded revision).
     */
    async load(root: string): Promise<{ files: Set<string>; unchanged: Map<string, UnchangedSource> }> {
      const rows = await store.loadImportHashes(root);
      const unchanged = new Map<string, UnchangedSource>();
      for (const r of rows) {
        if (r.current && r.current.id === r.promptId && r.current.revision === r.revision) {
          unchanged.set(r.file, { hash: r.hash, stat: r.stat, deps: r.deps, name: r.name, latest: r.current.latestVersion });
        }
      }
      return { files: new Set(rows.map((r) => r.file)), unchanged };
    },

    /**
     * Records what an import read and wrote; `drop` are files whose rows go (gone,
     * failed). A prompt that moved past what the import wrote (another writer got in
     * between) is not recorded, so its file is parsed next time.
     */
    async record(root: string, sources: ImportedSource[], drop: string[]): Promise<void> {
      const now = await store.promptRevisions(sources.map((s) => s.name));
      const rows: ImportHashRow[] = [];
      const stale: string[] = [];
      for (const s of sources) {
        const p = now.get(s.name);
        if (p && p.latestVersion === s.latest) rows.push({ file: s.file, hash: s.hash, stat: s.stat, deps: s.deps, name: s.name, promptId: p.id, revision: p.revision });
        else stale.push(s.file);
      }
      await store.saveImportHashes(root, rows, [...drop, ...stale]);
    },
  };
}

export type ImportHashService = ReturnType<typeof createImportHashService>;
