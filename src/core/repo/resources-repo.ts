import type { Tx } from './tx.js';
import { resourceIdsMatching } from './search.js';
import type { Resource, ResourceTemplate, ResourceUsage, ResourceWithContent } from '../types.js';

type ResourceRow = NonNullable<Awaited<ReturnType<Tx['resource']['findFirst']>>>;
type TemplateRow = NonNullable<Awaited<ReturnType<Tx['resourceTemplate']['findFirst']>>>;

export const resourceMetaSelect = {
  id: true, uri: true, name: true, title: true, description: true, mimeType: true, size: true, createdAt: true, updatedAt: true, text: false, blob: false,
} as const;

export function toResource(r: Omit<ResourceRow, 'text' | 'blob'> & { text?: string | null; blob?: Uint8Array | null }, binary?: boolean): Resource {
  return {
    id: r.id,
    uri: r.uri,
    name: r.name,
    title: r.title,
    description: r.description,
    mimeType: r.mimeType,
    size: r.size,
    binary: binary ?? (r.blob != null),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function toResourceWithContent(r: ResourceRow): ResourceWithContent {
  return { ...toResource(r), text: r.text, blob: r.blob ? new Uint8Array(r.blob) : null };
}

export function toTemplate(t: TemplateRow): ResourceTemplate {
  return { id: t.id, uriTemplate: t.uriTemplate, name: t.name, title: t.title, description: t.description, mimeType: t.mimeType, text: t.text, createdAt: t.createdAt, updatedAt: t.updatedAt };
}

export async function listResources(tx: Tx, opts: { q?: string; afterUri?: string; limit: number }): Promise<Resource[]> {
  const ids = opts.q ? await resourceIdsMatching(tx, { ...opts, q: opts.q }) : undefined;
  if (ids && !ids.length) return [];
  const rows = await tx.resource.findMany({
    where: ids ? { id: { in: ids } } : { ...(opts.afterUri ? { uri: { gt: opts.afterUri } } : {}) },
    orderBy: { uri: 'asc' },
    take: opts.limit,
    select: { ...resourceMetaSelect, text: false, blob: false },
  });
  // Binary-ness without loading blobs: text is null exactly for binary resources.
  const textIds = new Set(
    (await tx.resource.findMany({ where: { id: { in: rows.map((r) => r.id) }, text: { not: null } }, select: { id: true } })).map((r) => r.id),
  );
  return rows.map((r) => toResource(r, !textIds.has(r.id)));
}

export async function findResourceByUri(tx: Tx, uri: string): Promise<ResourceWithContent | null> {
  const r = await tx.resource.findUnique({ where: { uri } });
  return r ? toResourceWithContent(r) : null;
}

export async function findResourceById(tx: Tx, id: number): Promise<ResourceWithContent | null> {
  const r = await tx.resource.findUnique({ where: { id } });
  return r ? toResourceWithContent(r) : null;
}

export async function resourceUsage(tx: Tx, resourceId: number, uri: string): Promise<ResourceUsage[]> {
  const rows = await tx.resourceBinding.findMany({
    where: { OR: [{ resourceId }, { uri }] },
    select: { message: { select: { version: { select: { id: true, number: true, prompt: { select: { name: true, activeVersionId: true } } } } } } },
  });
  const seen = new Map<string, ResourceUsage>();
  for (const r of rows) {
    const v = r.message.version;
    const key = `${v.prompt.name}@${v.number}`;
    if (!seen.has(key)) seen.set(key, { prompt: v.prompt.name, version: v.number, active: v.prompt.activeVersionId === v.id });
  }
  return [...seen.values()].sort((a, b) => a.prompt.localeCompare(b.prompt) || b.version - a.version);
}

export async function listTemplates(tx: Tx): Promise<ResourceTemplate[]> {
  return (await tx.resourceTemplate.findMany({ orderBy: { uriTemplate: 'asc' } })).map(toTemplate);
}
