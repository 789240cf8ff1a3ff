import { DomainError, notFound, invalid } from '../errors.js';
import type { CursorCodec } from '../cursor.js';
import type { ChangeFeed } from '../change-feed.js';
import type { Store, TemplateFields } from '../ports.js';
import { LIMITS, type ResourceInput, type ResourceTemplateInput } from '../schemas.js';
import type { Actor, Page, Resource, ResourceTemplate, ResourceUsage, ResourceVisibility, ResourceWithContent } from '../types.js';
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

const templateFields = (input: ResourceTemplateInput): TemplateFields => ({ ...input, title: input.title ?? null, description: input.description ?? null });

export function createResourceService({ store, cursors, feed }: { store: Pick<Store, 'read' | 'write'>; cursors: CursorCodec; feed: ChangeFeed }) {
  const { read } = store;
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
    /** `visibility: 'public'`: what MCP clients may list (resources/list). */
    async list(opts: { q?: string; limit?: number; cursor?: string; visibility?: ResourceVisibility }): Promise<Page<Resource>> {
      const limit = clampLimit(opts.limit);
      const scope = opts.visibility ? `resources-${opts.visibility}` : 'admin-resources';
      const afterUri = opts.cursor ? cursors.decode<string>(scope, opts.cursor) : undefined;
      const items = await read.resources.list({ q: opts.q, afterUri, limit: limit + 1, visibility: opts.visibility });
      const page = items.slice(0, limit);
      return { items: page, nextCursor: items.length > limit ? cursors.encode(scope, page.at(-1)!.uri) : null };
    },

    async get(id: number): Promise<ResourceWithContent & { usedBy: ResourceUsage[] }> {
      const r = await read.resources.byId(id);
      if (!r) throw notFound(`resource ${id}`);
      return { ...r, usedBy: await read.resources.usage(r.id, r.uri) };
    },

    async create(input: ResourceInput, actor: Actor): Promise<Resource> {
      checkUri(input.uri);
      const content = contentOf(input);
      const r = await store.write(async (tx) => {
        if ((await tx.resources.info([input.uri])).size) {
          throw new DomainError('conflict', `a resource with URI "${input.uri}" already exists`, [{ path: 'uri', message: 'already exists' }]);
        }
        // Bindings saved before this resource existed (by URI) now point at it.
        const row = await tx.resources.insert({ uri: input.uri, name: input.name, title: input.title ?? null, description: input.description ?? null, mimeType: input.mimeType, ...content, visibility: input.visibility ?? 'bound' });
        await tx.events.append([ev(actor, 'resource.created', 'resource', row.uri, { visibility: row.visibility })]);
        return row;
      });
      return done(r);
    },

    async update(id: number, input: ResourceInput, actor: Actor): Promise<Resource> {
      checkUri(input.uri);
      const content = contentOf(input);
      const r = await store.write(async (tx) => {
        const old = await tx.resources.byId(id);
        if (!old) throw notFound(`resource ${id}`);
        // Visibility left out keeps what it was: an editor unaware of it cannot publish or hide a resource by accident.
        const visibility = input.visibility ?? old.visibility;
        const row = await tx.resources.update(id, { uri: input.uri, name: input.name, title: input.title ?? null, description: input.description ?? null, mimeType: input.mimeType, ...content, visibility });
        // `visibility` always: MCP sessions hear of a change only when a listing changed (mcp-scope.ts).
        const details = { ...(old.uri !== row.uri ? { from: old.uri } : {}), visibility, ...(old.visibility !== visibility ? { previousVisibility: old.visibility } : {}) };
        await tx.events.append([ev(actor, 'resource.updated', 'resource', row.uri, details)]);
        return row;
      });
      return done(r);
    },

    async delete(id: number, actor: Actor): Promise<void> {
      await store.write(async (tx) => {
        const r = await tx.resources.byId(id);
        if (!r) throw notFound(`resource ${id}`);
        const active = (await tx.resources.usage(r.id, r.uri)).filter((u) => u.active);
        if (active.length) {
          throw new DomainError('conflict', `resource "${r.uri}" is embedded by active prompts: ${active.map((u) => `${u.prompt} v${u.version}`).join(', ')}; activate versions without it first`);
        }
        await tx.resources.remove(id);
        await tx.events.append([ev(actor, 'resource.deleted', 'resource', r.uri, { visibility: r.visibility })]);
      });
      await done(undefined);
    },

    // Resource templates
    async listTemplates(): Promise<ResourceTemplate[]> {
      return read.templates.list();
    },
    async getTemplate(id: number): Promise<ResourceTemplate> {
      const t = await read.templates.byId(id);
      if (!t) throw notFound(`resource template ${id}`);
      return t;
    },
    async createTemplate(input: ResourceTemplateInput, actor: Actor): Promise<ResourceTemplate> {
      validateTemplate(input);
      const t = await store.write(async (tx) => {
        if (await tx.templates.exists(input.uriTemplate)) {
          throw new DomainError('conflict', `a resource template "${input.uriTemplate}" already exists`, [{ path: 'uriTemplate', message: 'already exists' }]);
        }
        const row = await tx.templates.insert(templateFields(input));
        await tx.events.append([ev(actor, 'resource_template.created', 'resource_template', row.uriTemplate)]);
        return row;
      });
      return done(t);
    },
    async updateTemplate(id: number, input: ResourceTemplateInput, actor: Actor): Promise<ResourceTemplate> {
      validateTemplate(input);
      const t = await store.write(async (tx) => {
        if (!(await tx.templates.byId(id))) throw notFound(`resource template ${id}`);
        const row = await tx.templates.update(id, templateFields(input));
        await tx.events.append([ev(actor, 'resource_template.updated', 'resource_template', row.uriTemplate)]);
        return row;
      });
      return done(t);
    },
    async deleteTemplate(id: number, actor: Actor): Promise<void> {
      await store.write(async (tx) => {
        const t = await tx.templates.byId(id);
        if (!t) throw notFound(`resource template ${id}`);
        await tx.templates.remove(id);
        await tx.events.append([ev(actor, 'resource_template.deleted', 'resource_template', t.uriTemplate)]);
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
  for (const message of t.errors) errors.push({ path: 'text', message });
  for (const v of t.variables) if (!vars.has(v)) errors.push({ path: 'text', message: `{{${v}}} is not a variable of the URI template` });
  if (errors.length) throw invalid('the resource template is invalid', errors);
}

export type ResourceService = ReturnType<typeof createResourceService>;
