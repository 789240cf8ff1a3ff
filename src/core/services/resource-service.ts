import type { Db } from '../../db/create-db.js';
import { DomainError, notFound, invalid } from '../errors.js';
import type { CursorCodec } from '../cursor.js';
import type { ChangeFeed } from '../change-feed.js';
import { writeTx } from '../repo/tx.js';
import { appendEvents } from '../repo/events-repo.js';
import { findResourceById, listResources, listTemplates, resourceUsage, toResource, toTemplate } from '../repo/resources-repo.js';
import { LIMITS, type ResourceInput, type ResourceTemplateInput } from '../schemas.js';
import type { Actor, Page, Resource, ResourceTemplate, ResourceUsage, ResourceWithContent } from '../types.js';
import { clampLimit } from './prompt-service.js';
import { analyzeTemplate } from '../template.js';
import { parseUriTemplate, isUriTemplate, reverseMatchProblem } from '../uri-template.js';

function contentOf(input: ResourceInput) {
  if (input.blob !== undefined) {
    const bytes = Buffer.from(input.blob, 'base64');
    if (bytes.length > LIMITS.resourceBytes) throw new DomainError('payload_too_large', `resource content is ${bytes.length} bytes; the limit is ${LIMITS.resourceBytes}`);
    return { text: null, blob: bytes, size: bytes.length };
  }
  return { text: input.text!, blob: null, size: Buffer.byteLength(input.text!) };
}

export function createResourceService({ db, cursors, feed }: { db: Db; cursors: CursorCodec; feed: ChangeFeed }) {
  const ev = (actor: Actor, action: string, entity: 'resource' | 'resource_template', key: string, details?: Record<string, unknown>) => ({
    actor: actor.name, action, entity, entityKey: key, served: false, ...(details ? { details } : {}),
  });
  const done = async <T>(v: T) => {
    await feed.poke();
    return v;
  };
  const checkUri = (uri: string) => {
    if (isUriTemplate(uri)) throw invalid('a stored resource needs a concrete URI; use a resource template for URI templates', [{ path: 'uri', message: 'must not contain "{"' }]);
  };

  return {
    async list(opts: { q?: string; limit?: number; cursor?: string }): Promise<Page<Resource>> {
      const limit = clampLimit(opts.limit);
      const afterUri = opts.cursor ? cursors.decode<string>('admin-resources', opts.cursor) : undefined;
      const items = await listResources(db.prisma, { q: opts.q, afterUri, limit: limit + 1 });
      const page = items.slice(0, limit);
      return { items: page, nextCursor: items.length > limit ? cursors.encode('admin-resources', page.at(-1)!.uri) : null };
    },

    async get(id: number): Promise<ResourceWithContent & { usedBy: ResourceUsage[] }> {
      const r = await findResourceById(db.prisma, id);
      if (!r) throw notFound(`resource ${id}`);
      return { ...r, usedBy: await resourceUsage(db.prisma, r.id, r.uri) };
    },

    async create(input: ResourceInput, actor: Actor): Promise<Resource> {
      checkUri(input.uri);
      const content = contentOf(input);
      const r = await writeTx(db, async (tx) => {
        if (await tx.resource.findUnique({ where: { uri: input.uri }, select: { id: true } })) {
          throw new DomainError('conflict', `a resource with URI "${input.uri}" already exists`, [{ path: 'uri', message: 'already exists' }]);
        }
        const row = await tx.resource.create({
          data: { uri: input.uri, name: input.name, title: input.title ?? null, description: input.description ?? null, mimeType: input.mimeType, ...content },
        });
        // Bindings saved before this resource existed (by URI) now point at it.
        await tx.resourceBinding.updateMany({ where: { uri: input.uri, isTemplate: false }, data: { resourceId: row.id } });
        await appendEvents(tx, [ev(actor, 'resource.created', 'resource', row.uri)]);
        return toResource(row);
      });
      return done(r);
    },

    async update(id: number, input: ResourceInput, actor: Actor): Promise<Resource> {
      checkUri(input.uri);
      const content = contentOf(input);
      const r = await writeTx(db, async (tx) => {
        const old = await tx.resource.findUnique({ where: { id }, select: { uri: true } });
        if (!old) throw notFound(`resource ${id}`);
        const row = await tx.resource.update({
          where: { id },
          data: { uri: input.uri, name: input.name, title: input.title ?? null, description: input.description ?? null, mimeType: input.mimeType, ...content },
        });
        await appendEvents(tx, [ev(actor, 'resource.updated', 'resource', row.uri, old.uri !== row.uri ? { from: old.uri } : undefined)]);
        return toResource(row);
      });
      return done(r);
    },

    async delete(id: number, actor: Actor): Promise<void> {
      await writeTx(db, async (tx) => {
        const r = await tx.resource.findUnique({ where: { id }, select: { id: true, uri: true } });
        if (!r) throw notFound(`resource ${id}`);
        const active = (await resourceUsage(tx, r.id, r.uri)).filter((u) => u.active);
        if (active.length) {
          throw new DomainError('conflict', `resource "${r.uri}" is embedded by active prompts: ${active.map((u) => `${u.prompt} v${u.version}`).join(', ')}; activate versions without it first`);
        }
        await tx.resource.delete({ where: { id } });
        await appendEvents(tx, [ev(actor, 'resource.deleted', 'resource', r.uri)]);
      });
      await done(undefined);
    },

    // Resource templates
    async listTemplates(): Promise<ResourceTemplate[]> {
      return listTemplates(db.prisma);
    },
    async getTemplate(id: number): Promise<ResourceTemplate> {
      const t = await db.prisma.resourceTemplate.findUnique({ where: { id } });
      if (!t) throw notFound(`resource template ${id}`);
      return toTemplate(t);
    },
    async createTemplate(input: ResourceTemplateInput, actor: Actor): Promise<ResourceTemplate> {
      validateTemplate(input);
      const t = await writeTx(db, async (tx) => {
        if (await tx.resourceTemplate.findUnique({ where: { uriTemplate: input.uriTemplate }, select: { id: true } })) {
          throw new DomainError('conflict', `a resource template "${input.uriTemplate}" already exists`, [{ path: 'uriTemplate', message: 'already exists' }]);
        }
        const row = await tx.resourceTemplate.create({ data: { ...input, title: input.title ?? null, description: input.description ?? null } });
        await appendEvents(tx, [ev(actor, 'resource_template.created', 'resource_template', row.uriTemplate)]);
        return toTemplate(row);
      });
      return done(t);
    },
    async updateTemplate(id: number, input: ResourceTemplateInput, actor: Actor): Promise<ResourceTemplate> {
      validateTemplate(input);
      const t = await writeTx(db, async (tx) => {
        if (!(await tx.resourceTemplate.findUnique({ where: { id }, select: { id: true } }))) throw notFound(`resource template ${id}`);
        const row = await tx.resourceTemplate.update({ where: { id }, data: { ...input, title: input.title ?? null, description: input.description ?? null } });
        await appendEvents(tx, [ev(actor, 'resource_template.updated', 'resource_template', row.uriTemplate)]);
        return toTemplate(row);
      });
      return done(t);
    },
    async deleteTemplate(id: number, actor: Actor): Promise<void> {
      await writeTx(db, async (tx) => {
        const t = await tx.resourceTemplate.findUnique({ where: { id } });
        if (!t) throw notFound(`resource template ${id}`);
        await tx.resourceTemplate.delete({ where: { id } });
        await appendEvents(tx, [ev(actor, 'resource_template.deleted', 'resource_template', t.uriTemplate)]);
      });
      await done(undefined);
    },
  };
}

function validateTemplate(input: ResourceTemplateInput) {
  const errors = [];
  const { expressions, error } = parseUriTemplate(input.uriTemplate);
  if (error) errors.push({ path: 'uriTemplate', message: error });
  else if (!expressions.length) errors.push({ path: 'uriTemplate', message: 'a resource template needs at least one {variable}; store a plain resource instead' });
  else if (reverseMatchProblem(input.uriTemplate)) errors.push({ path: 'uriTemplate', message: reverseMatchProblem(input.uriTemplate)! });
  const vars = new Set(expressions.flatMap((e) => e.names));
  const t = analyzeTemplate(input.text);
  if (t.error) errors.push({ path: 'text', message: `template does not parse: ${t.error}` });
  for (const v of t.variables) if (!vars.has(v)) errors.push({ path: 'text', message: `{{${v}}} is not a variable of the URI template` });
  if (errors.length) throw invalid('the resource template is invalid', errors);
}

export type ResourceService = ReturnType<typeof createResourceService>;
