// Keeps what a format import read that a version has no field for (PromptMeta: the
// Langfuse name `support/faq`, a Claude command's namespace, roles MCP lacks, labels,
// model settings) so an export in the same format writes it back: a round trip through
// promptd loses nothing the format can hold (docs/formats.md, "Round trips").
import { createHash } from 'node:crypto';
import type { Core, MessageInput } from '../core/index.js';
import type { FormatId, ImportedPrompt, PromptMeta } from './formats/index.js';
import type { PromptPlanItem } from './plan.js';

/** Roles and texts of a version's messages: the roles in meta describe exactly these. */
function messagesDigest(messages: readonly Pick<MessageInput, 'role' | 'content'>[]): string {
  const h = createHash('sha256');
  for (const m of messages) h.update(m.role).update('\0').update(m.content.type === 'text' ? m.content.text : m.content.type).update('\0');
  return h.digest('base64url');
}

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
  const byName = new Map<string, ImportedPrompt>();
  for (const p of prompts as Partial<ImportedPrompt>[]) if (p.meta && p.name !== undefined) byName.set(p.name, p as ImportedPrompt);
  for (const item of items) {
    if (item.action === 'error' || item.name === undefined) continue;
    const p = byName.get(item.name);
    if (!p || p.meta.format === 'promptd') continue;
    const version = item.creates?.at(-1) ?? item.latest;
    const input = p.versions.at(-1)?.input;
    if (version === undefined || !input) continue;
    await core.formatMeta.save(item.name, worthKeeping(p.meta) ? { version, messages: messagesDigest(input.messages), meta: p.meta as unknown as Record<string, unknown> } : undefined);
  }
}

/**
 * The meta to export `version` of `name` with in `format`: the recorded one when it was
 * read from this format; the roles only onto the very messages they were read with (a
 * later version that added or moved messages keeps MCP's roles; one that changed only
 * the title or the arguments keeps the restored ones).
 */
export async function formatMetaFor(core: Core, name: string, version: { messages: readonly Pick<MessageInput, 'role' | 'content'>[] }, format: FormatId): Promise<Partial<PromptMeta> | undefined> {
  const rec = await core.formatMeta.load(name);
  if (!rec || rec.meta.format !== format) return undefined;
  const meta = rec.meta as unknown as PromptMeta;
  if (rec.messages === messagesDigest(version.messages)) return meta;
  const { roles: _r, ...rest } = meta;
  return rest;
}
