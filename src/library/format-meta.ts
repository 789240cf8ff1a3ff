// Keeps what a format import read that a version has no field for (PromptMeta: the
// Langfuse name `support/faq`, a Claude command's namespace, roles MCP lacks, labels,
// model settings) so an export in the same format writes it back: a round trip through
// promptd loses nothing the format can hold (docs/formats.md, "Round trips").
import type { Core } from '../core/index.js';
import type { FormatId, ImportedPrompt, PromptMeta } from './formats/index.js';
import type { PromptPlanItem } from './plan.js';

/** Meta that says more than where the file was: the only kind worth a row. */
function worthKeeping(meta: PromptMeta): boolean {
  const { format: _f, source: _s, extra, ...rest } = meta;
  return Object.values(rest).some((v) => v !== undefined) || Object.keys(extra ?? {}).length > 0;
}

/**
 * After an import or sync wrote: records each converted prompt's meta with the version
 * the file now is (created, or found unchanged). Prompts with nothing to keep clear an
 * earlier record, so an export does not restore what the files no longer say.
 */
export async function recordFormatMeta(core: Core, prompts: readonly unknown[], items: readonly PromptPlanItem[]): Promise<void> {
  const metaOf = new Map<string, PromptMeta>();
  for (const p of prompts as Partial<ImportedPrompt>[]) if (p.meta && p.name !== undefined) metaOf.set(p.name, p.meta);
  for (const item of items) {
    if (item.action === 'error' || item.name === undefined) continue;
    const meta = metaOf.get(item.name);
    if (!meta || meta.format === 'promptd') continue;
    const version = item.creates?.at(-1) ?? item.latest;
    if (version === undefined) continue;
    await core.formatMeta.save(item.name, worthKeeping(meta) ? { version, meta: meta as unknown as Record<string, unknown> } : undefined);
  }
}

/**
 * The meta to export `version` of `name` with in `format`: the recorded one when it was
 * read from this format; the roles only when it was read with this very version (a later
 * edit may have added or moved messages).
 */
export async function formatMetaFor(core: Core, name: string, version: number, format: FormatId): Promise<Partial<PromptMeta> | undefined> {
  const rec = await core.formatMeta.load(name);
  if (!rec || rec.meta.format !== format) return undefined;
  const meta = rec.meta as unknown as PromptMeta;
  if (rec.version === version) return meta;
  const { roles: _r, ...rest } = meta;
  return rest;
}
