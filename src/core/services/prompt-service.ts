// One function per use case; the REST API, the MCP server, the CLI and the importer all call these.
import type { Db } from '../../db/create-db.js';
import { DomainError, invalid, notFound } from '../errors.js';
import type { CursorCodec } from '../cursor.js';
import type { ChangeFeed } from '../change-feed.js';
import type { ResourceResolver } from '../render.js';
import { renderVersion } from '../render.js';
import { writeTx, type Tx } from '../repo/tx.js';
import { appendEvents, type NewChangeEvent } from '../repo/events-repo.js';
import { findPromptDetail, findVersion, listPromptSummaries, listVersionSummaries, versionCreateData } from '../repo/prompts-repo.js';
import type { CreatePromptInput, RenderInput, UpdatePromptInput, VersionInput } from '../schemas.js';
import { LIMITS } from '../schemas.js';
import type { Actor, Page, PromptDetail, PromptSummary, RenderedPrompt, Version, VersionSummary } from '../types.js';
import { referencedUris, validateVersion, type StoredResourceInfo } from '../validate-version.js';

export interface PromptServiceDeps {
  db: Db;
  cursors: CursorCodec;
  feed: ChangeFeed;
  resolver: ResourceResolver;
}

export function etagOf(p: Pick<PromptDetail, 'revision' | 'name'>): string {
  return `"${p.revision}"`;
}

export function clampLimit(limit: number | undefined, fallback = 50): number {
  if (limit === undefined) return fallback;
  return Math.max(1, Math.min(LIMITS.pageSizeMax, Math.floor(limit)));
}

async function storedResources(tx: Tx, input: VersionInput): Promise<Map<string, StoredResourceInfo>> {
  const uris = referencedUris(input);
  if (!uris.length) return new Map();
  const rows = await tx.resource.findMany({ where: { uri: { in: uris } }, select: { id: true, uri: true, mimeType: true, text: true } });
  return new Map(rows.map((r) => [r.uri, { id: r.id, binary: r.text === null, mimeType: r.mimeType }]));
}

async function insertVersion(tx: Tx, promptId: number, number: number, input: VersionInput, actor: Actor) {
  const stored = await storedResources(tx, input);
  const errors = validateVersion(input, stored);
  if (errors.length) throw invalid(`the version is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
  const ids = new Map([...stored].map(([uri, r]) => [uri, r.id]));
  return tx.promptVersion.create({ data: { promptId, number, author: actor.name, ...versionCreateData(input, ids) }, select: { id: true } });
}

export function createPromptService({ db, cursors, feed, resolver }: PromptServiceDeps) {
  const mustFind = async (tx: Tx, name: string) => {
    const p = await tx.prompt.findUnique({ where: { name } });
    if (!p) throw notFound(`prompt "${name}"`);
    return p;
  };
  const committed = async <T>(result: T): Promise<T> => {
    await feed.poke();
    return result;
  };
  const event = (actor: Actor, action: string, entityKey: string, served: boolean, details?: Record<string, unknown>): NewChangeEvent => ({
    actor: actor.name, action, entity: 'prompt', entityKey, served, ...(details ? { details } : {}),
  });

  return {
    async create(input: CreatePromptInput, actor: Actor): Promise<PromptDetail> {
      const detail = await writeTx(db, async (tx) => {
        if (await tx.prompt.findUnique({ where: { name: input.name }, select: { id: true } })) {
          throw new DomainError('conflict', `a prompt named "${input.name}" already exists`, [{ path: 'name', message: 'already exists' }]);
        }
        const p = await tx.prompt.create({ data: { name: input.name, latestVersion: 1 } });
        const v = await insertVersion(tx, p.id, 1, input, actor);
        const events = [event(actor, 'prompt.created', p.name, false, { version: 1 })];
        if (input.activate) {
          await tx.prompt.update({ where: { id: p.id }, data: { activeVersionId: v.id, revision: { increment: 1 } } });
          events.push(event(actor, 'prompt.activated', p.name, true, { version: 1 }));
        }
        await appendEvents(tx, events);
        return (await findPromptDetail(tx, p.name))!;
      });
      return committed(detail);
    },

    /** `ifMatch` is the ETag the editor read; a stale one is a 412, never a lost update. */
    async createVersion(name: string, input: VersionInput, actor: Actor, opts: { ifMatch?: string } = {}): Promise<Version> {
      const version = await writeTx(db, async (tx) => {
        const expected = opts.ifMatch !== undefined ? parseEtag(opts.ifMatch) : undefined;
        // Numbering and the If-Match check happen in one conditional UPDATE, so two
        // writers can neither get the same number nor both pass the same ETag.
        const bumped = await tx.prompt.updateMany({
          where: { name, ...(expected !== undefined ? { revision: expected } : {}) },
          data: { latestVersion: { increment: 1 }, revision: { increment: 1 } },
        });
        if (bumped.count === 0) {
          await mustFind(tx, name);
          throw new DomainError('precondition_failed', `prompt "${name}" was changed by someone else since you read it; reload and try again`);
        }
        const p = await mustFind(tx, name);
        const v = await insertVersion(tx, p.id, p.latestVersion, input, actor);
        const events = [event(actor, 'version.created', name, false, { version: p.latestVersion })];
        if (input.activate) {
          await tx.prompt.update({ where: { id: p.id }, data: { activeVersionId: v.id } });
          events.push(event(actor, 'prompt.activated', name, !p.archived, { version: p.latestVersion }));
        }
        await appendEvents(tx, events);
        return (await findVersion(tx, name, p.latestVersion))!;
      });
      return committed(version);
    },

    async get(name: string): Promise<PromptDetail> {
      const d = await findPromptDetail(db.prisma, name);
      if (!d) throw notFound(`prompt "${name}"`);
      return d;
    },

    async list(opts: { q?: string; archived?: boolean; limit?: number; cursor?: string }): Promise<Page<PromptSummary>> {
      const limit = clampLimit(opts.limit);
      const after = opts.cursor ? cursors.decode<string>('admin-prompts', opts.cursor) : undefined;
      const items = await listPromptSummaries(db.prisma, { q: opts.q, archived: opts.archived, after, limit: limit + 1 });
      const more = items.length > limit;
      const page = items.slice(0, limit);
      return { items: page, nextCursor: more ? cursors.encode('admin-prompts', page.at(-1)!.name) : null };
    },

    async listVersions(name: string, opts: { limit?: number; cursor?: string }): Promise<Page<VersionSummary>> {
      const limit = clampLimit(opts.limit);
      const p = await mustFind(db.prisma, name);
      const before = opts.cursor ? cursors.decode<number>(`versions:${p.id}`, opts.cursor) : undefined;
      const items = await listVersionSummaries(db.prisma, p.id, p.activeVersionId, { before, limit: limit + 1 });
      const more = items.length > limit;
      const page = items.slice(0, limit);
      return { items: page, nextCursor: more ? cursors.encode(`versions:${p.id}`, page.at(-1)!.version) : null };
    },

    async getVersion(name: string, number: number): Promise<Version> {
      const v = await findVersion(db.prisma, name, number);
      if (!v) {
        await mustFind(db.prisma, name);
        throw notFound(`version ${number} of prompt "${name}"`);
      }
      return v;
    },

    /** Activates a version, or rolls back to an older one: the same cheap act. */
    async activate(name: string, number: number, actor: Actor): Promise<PromptDetail> {
      const detail = await writeTx(db, async (tx) => {
        const p = await mustFind(tx, name);
        const v = await tx.promptVersion.findUnique({ where: { promptId_number: { promptId: p.id, number } }, select: { id: true } });
        if (!v) throw new DomainError('validation', `prompt "${name}" has no version ${number}`, [{ path: 'version', message: `no version ${number}` }]);
        if (p.activeVersionId !== v.id) {
          await tx.prompt.update({ where: { id: p.id }, data: { activeVersionId: v.id, revision: { increment: 1 } } });
          const prev = p.activeVersionId ? await tx.promptVersion.findUnique({ where: { id: p.activeVersionId }, select: { number: true } }) : null;
          const action = prev && prev.number > number ? 'prompt.rolled_back' : 'prompt.activated';
          await appendEvents(tx, [event(actor, action, name, !p.archived, { version: number, previous: prev?.number ?? null })]);
        }
        return (await findPromptDetail(tx, name))!;
      });
      return committed(detail);
    },

    async deactivate(name: string, actor: Actor): Promise<PromptDetail> {
      const detail = await writeTx(db, async (tx) => {
        const p = await mustFind(tx, name);
        if (p.activeVersionId !== null) {
          await tx.prompt.update({ where: { id: p.id }, data: { activeVersionId: null, revision: { increment: 1 } } });
          await appendEvents(tx, [event(actor, 'prompt.deactivated', name, !p.archived)]);
        }
        return (await findPromptDetail(tx, name))!;
      });
      return committed(detail);
    },

    async update(name: string, input: UpdatePromptInput, actor: Actor): Promise<PromptDetail> {
      const detail = await writeTx(db, async (tx) => {
        const p = await mustFind(tx, name);
        const served = p.activeVersionId !== null;
        const events: NewChangeEvent[] = [];
        let current = name;
        if (input.name !== undefined && input.name !== name) {
          if (await tx.prompt.findUnique({ where: { name: input.name }, select: { id: true } })) {
            throw new DomainError('conflict', `a prompt named "${input.name}" already exists`, [{ path: 'name', message: 'already exists' }]);
          }
          await tx.prompt.update({ where: { id: p.id }, data: { name: input.name, revision: { increment: 1 } } });
          events.push(event(actor, 'prompt.renamed', input.name, served && !p.archived, { from: name, to: input.name }));
          current = input.name;
        }
        if (input.archived !== undefined && input.archived !== p.archived) {
          await tx.prompt.update({ where: { id: p.id }, data: { archived: input.archived, revision: { increment: 1 } } });
          events.push(event(actor, input.archived ? 'prompt.archived' : 'prompt.unarchived', current, served));
        }
        await appendEvents(tx, events);
        return (await findPromptDetail(tx, current))!;
      });
      return committed(detail);
    },

    async delete(name: string, actor: Actor): Promise<void> {
      await writeTx(db, async (tx) => {
        const p = await mustFind(tx, name);
        // The active-version pointer references a version; clear it before the cascade.
        await tx.prompt.update({ where: { id: p.id }, data: { activeVersionId: null } });
        await tx.prompt.delete({ where: { id: p.id } });
        await appendEvents(tx, [event(actor, 'prompt.deleted', name, p.activeVersionId !== null && !p.archived)]);
      });
      await committed(undefined);
    },

    /** Preview: renders the given (or active, else latest) version exactly as prompts/get would. */
    async render(name: string, input: RenderInput): Promise<RenderedPrompt> {
      const p = await mustFind(db.prisma, name);
      let number = input.version;
      if (number === undefined) {
        number = p.activeVersionId
          ? (await db.prisma.promptVersion.findUnique({ where: { id: p.activeVersionId }, select: { number: true } }))!.number
          : p.latestVersion;
      }
      const v = await findVersion(db.prisma, name, number);
      if (!v) throw new DomainError('validation', `prompt "${name}" has no version ${number}`, [{ path: 'version', message: `no version ${number}` }]);
      return renderVersion(name, v, input.arguments, resolver);
    },
  };
}

export type PromptService = ReturnType<typeof createPromptService>;

function parseEtag(etag: string): number {
  const m = /^(?:W\/)?"(\d{1,10})"$/.exec(etag.trim());
  if (!m || Number(m[1]) > LIMITS.intMax) throw new DomainError('precondition_failed', 'If-Match does not hold an ETag issued by this server; reload the prompt and try again');
  return Number(m[1]);
}
