// What a format import read that a version has no field for (the original file path or
// name, the roles MCP lacks, labels, model settings; src/library/formats/types.ts
// PromptMeta), kept per prompt in a Setting row so `export --format` in the same format
// writes it back (docs/formats.md, "Round trips"). The record names the version it was
// read with and a digest of its messages: what describes messages (roles) applies only
// to a version with those very messages.
import { z } from 'zod';
import type { Store } from '../ports.js';

const FormatMetaRecordSchema = z.object({
  /** the version the import wrote or found unchanged */
  version: z.number().int().min(1),
  /** a digest of the imported messages' roles and texts: roles are restored only onto these messages */
  messages: z.string().max(100).optional(),
  /** the converter's metadata, opaque to the core (bounded by the import's file size caps) */
  meta: z.record(z.string(), z.unknown()),
});
export type FormatMetaRecord = z.infer<typeof FormatMetaRecordSchema>;

const keyOf = (name: string) => `format-meta:${name}`;

export function createFormatMetaService(store: Store) {
  return {
    async load(name: string): Promise<FormatMetaRecord | undefined> {
      const raw = await store.readSetting(keyOf(name));
      if (raw === undefined || raw === '') return undefined;
      try {
        const parsed = FormatMetaRecordSchema.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : undefined; // unreadable: as if none (export writes defaults)
      } catch {
        return undefined;
      }
    },
    /** Stores the record (undefined clears it); writes only what changed. */
    async save(name: string, record: FormatMetaRecord | undefined): Promise<void> {
      const value = record === undefined ? '' : JSON.stringify(FormatMetaRecordSchema.parse(record));
      const before = await store.readSetting(keyOf(name));
      if ((before ?? '') === value) return;
      await store.writeSetting(keyOf(name), value);
    },
  };
}
