// What `promptd sync` last wrote from a directory, kept in the database (a Setting row
// per directory) so the synced directory, often a git checkout, stays clean. The
// record is how sync tells a UI/API edit (latest version moved on since the sync) from
// a file change, and which prompts a deleted file archives.
import { z } from 'zod';
import type { Store } from '../ports.js';

const SyncRecordSchema = z.object({
  /** the file the prompt was read from, relative to the directory, `/`-separated */
  file: z.string(),
  /** the prompt's latest version right after the sync wrote (or checked) it */
  version: z.number().int().min(0),
  /** archived by sync because its file went away */
  archived: z.boolean().optional(),
});
const SyncStateSchema = z.object({ prompts: z.record(z.string(), SyncRecordSchema) });

export type SyncRecord = z.infer<typeof SyncRecordSchema>;
export type SyncState = z.infer<typeof SyncStateSchema>;

const keyOf = (dir: string) => `sync:${dir}`;

export function createSyncStateService(store: Store) {
  return {
    /** The state of the last sync of `dir` (an absolute path); empty before the first one. */
    async load(dir: string): Promise<SyncState> {
      const raw = await store.readSetting(keyOf(dir));
      if (raw === undefined) return { prompts: {} };
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        json = undefined;
      }
      const parsed = SyncStateSchema.safeParse(json);
      // An unreadable record is treated as no record: the next sync adopts the files
      // like an import (never archives anything on its account).
      return parsed.success ? parsed.data : { prompts: {} };
    },
    async save(dir: string, state: SyncState): Promise<void> {
      await store.writeSetting(keyOf(dir), JSON.stringify(SyncStateSchema.parse(state)));
    },
  };
}
