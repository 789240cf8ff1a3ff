import type { Tx } from '../prisma.js';
import { resourceIdsMatching } from './search.js';
import { chunks } from './bulk-sql.js';
import type { Resource, ResourceTemplate, ResourceUsage, ResourceWithContent } from '../../core/types.js';
import type { ResourceRepository, TemplateRepository } from '../../core/ports.js';
import type { StoredResourceInfo } from '../../core/validate-version.js';

type ResourceRow = NonNullable<Awaited<ReturnType<Tx['resource']['findFirst']>>>;
type TemplateRow = NonNullable<Awaited<ReturnType<Tx['resourceTemplate']['findFirst']>>>;

export const resourceMetaSelect = {
  id: true, uri: true, name: true, title: true, description: true, mimeType: true, size: true, visibility: true, createdAt: true, updatedAt: true, text: false, blob: false,
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
    visibility: r.visibility === 'public' ? 'public' : 'bound',
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

export async function listResources(tx: Tx, opts: { q?: string; afterUri?: string; limit: number; visibility?: Resource['visibility'] }): Promise<Resource[]> {
  const ids = opts.q ? await resourceIdsMatching(tx, { ...opts, q: opts.q }) : undefined;
  if (ids && !ids.length) return [];
  const vis = opts.visibility ? { visibility: opts.visibility } : {};
  const rows = await tx.resource.findMany({
    where: ids ? { id: { in: ids }, ...vis } : { ...vis, ...(opts.afterUri ? { uri: { gt: opts.afterUri } } : {}) },
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
    // Soft-deleted prompts are absent here as everywhere (docs: SECURITY.md, soft delete).
    where: { OR: [{ resourceId }, { uri }], message: { version: { prompt: { deletedAt: null } } } },
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

// Prisma's Bytes fields want ArrayBuffer-backed arrays; Buffers from the pool are, in practice.
const bytes = (b: Uint8Array | null) => b as Uint8Array<ArrayBuffer> | null;

export function resourceRepository(tx: Tx): ResourceRepository {
  return {
    list: (opts) => listResources(tx, opts),
    byId: (id) => findResourceById(tx, id),
    byUri: (uri) => findResourceByUri(tx, uri),
    usage: (id, uri) => resourceUsage(tx, id, uri),
    async info(uris) {
      const out = new Map<string, StoredResourceInfo>();
      for (const part of chunks(uris)) {
        const rows = await tx.resource.findMany({ where: { uri: { in: part } }, select: { id: true, uri: true, mimeType: true, text: true } });
        for (const r of rows) out.set(r.uri, { id: r.id, binary: r.text === null, mimeType: r.mimeType });
      }
      return out;
    },
    async uris(prefix, limit, visibility) {
      const where = { ...(prefix ? { uri: { startsWith: prefix } } : {}), ...(visibility ? { visibility } : {}) };
      const rows = await tx.resource.findMany({ where, select: { uri: true }, orderBy: { uri: 'asc' }, take: limit });
      return rows.map((r) => r.uri);
    },
    async insert(fields) {
      const row = await tx.resource.create({ data: { ...fields, blob: bytes(fields.blob) } });
      // Bindings saved before this resource existed (by URI) now point at it.
      await tx.resourceBinding.updateMany({ where: { uri: fields.uri, isTemplate: false }, data: { resourceId: row.id } });
      return toResource(row);
    },
    async update(id, fields) {
      return toResource(await tx.resource.update({ where: { id }, data: { ...fields, blob: bytes(fields.blob) } }));
    },
    async remove(id) {
      await tx.resource.delete({ where: { id } });
    },
  };
}

export function templateRepository(tx: Tx): TemplateRepository {
  return {
    list: () => listTemplates(tx),
    async byId(id) {
      const t = await tx.resourceTemplate.findUnique({ where: { id } });
      return t ? toTemplate(t) : null;
    },
    async exists(uriTemplate) {
      return (await tx.resourceTemplate.findUnique({ where: { uriTemplate }, select: { id: true } })) !== null;
    },
    async insert(fields) {
      return toTemplate(await tx.resourceTemplate.create({ data: fields }));
    },
    async update(id, fields) {
      return toTemplate(await tx.resourceTemplate.update({ where: { id }, data: fields }));
    },
    async remove(id) {
      await tx.resourceTemplate.delete({ where: { id } });
    },
  };
}
