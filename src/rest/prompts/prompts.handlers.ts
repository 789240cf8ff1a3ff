import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import { etagOf } from '../../core/services/prompt-service.js';
import { versionWarnings } from '../../core/validate-version.js';
import { actorOf, type AuthEnv } from '../auth.js';
import { wire } from '../wire.js';
import { recordHttp } from '../usage-recording.js';
import type * as routes from './prompts.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AuthEnv>;

const archivedFilter = (v: string | undefined) => (v === 'all' ? undefined : v === 'true');

export function createHandlers(core: Core) {
  const list: H<'list'> = async (c) => {
    const q = c.req.valid('query');
    const deleted = q.deleted === 'true';
    // The bin lists archived and unarchived prompts alike unless archived= narrows it.
    const archived = deleted && q.archived === undefined ? undefined : archivedFilter(q.archived);
    const tags = q.tag === undefined ? undefined : Array.isArray(q.tag) ? q.tag : [q.tag];
    return c.json(wire(await core.prompts.list({ q: q.q, archived, label: q.label, tags, deleted, status: q.status, sort: q.sort, unusedFor: q.unusedFor, limit: q.limit, cursor: q.cursor })), 200);
  };
  const create: H<'create'> = async (c) => {
    const input = c.req.valid('json');
    const d = await core.prompts.create(input, actorOf(c));
    c.header('ETag', etagOf(d));
    c.header('Location', `/admin/v1/prompts/${encodeURIComponent(d.name)}`);
    return c.json({ ...wire(d), warnings: versionWarnings(input) }, 201);
  };
  const get: H<'get'> = async (c) => {
    const d = await core.prompts.get(c.req.valid('param').name);
    c.header('ETag', etagOf(d));
    return c.json(wire(d), 200);
  };
  const update: H<'update'> = async (c) => {
    const d = await core.prompts.update(c.req.valid('param').name, c.req.valid('json'), actorOf(c));
    c.header('ETag', etagOf(d));
    return c.json(wire(d), 200);
  };
  const setTags: H<'setTags'> = async (c) => {
    const d = await core.prompts.setTags(c.req.valid('param').name, c.req.valid('json').tags, actorOf(c));
    c.header('ETag', etagOf(d));
    return c.json(wire(d), 200);
  };
  const remove: H<'remove'> = async (c) => {
    await core.prompts.delete(c.req.valid('param').name, actorOf(c));
    return c.body(null, 204);
  };
  const restore: H<'restore'> = async (c) => {
    const d = await core.prompts.restore(c.req.valid('param').name, actorOf(c));
    c.header('ETag', etagOf(d));
    return c.json(wire(d), 200);
  };
  const listVersions: H<'listVersions'> = async (c) => {
    const q = c.req.valid('query');
    return c.json(wire(await core.prompts.listVersions(c.req.valid('param').name, q)), 200);
  };
  const createVersion: H<'createVersion'> = async (c) => {
    const { name } = c.req.valid('param');
    const input = c.req.valid('json');
    const { created: v, etag } = await core.prompts.createVersion(name, input, actorOf(c), { ifMatch: c.req.valid('header')['if-match'] });
    c.header('ETag', etag);
    c.header('Location', `/admin/v1/prompts/${encodeURIComponent(name)}/versions/${v.version}`);
    return c.json({ ...wire(v), warnings: versionWarnings(input) }, 201);
  };
  const getVersion: H<'getVersion'> = async (c) => {
    const { name, n } = c.req.valid('param');
    return c.json(wire(await core.prompts.getVersion(name, n)), 200);
  };
  const activate: H<'activate'> = async (c) => {
    const { version, force } = c.req.valid('json');
    const d = await core.prompts.activate(c.req.valid('param').name, version, actorOf(c), { force });
    c.header('ETag', etagOf(d));
    return c.json(wire(d), 200);
  };
  const deactivate: H<'deactivate'> = async (c) => {
    const d = await core.prompts.deactivate(c.req.valid('param').name, actorOf(c));
    c.header('ETag', etagOf(d));
    return c.json(wire(d), 200);
  };
  const render: H<'render'> = async (c) => {
    const { name } = c.req.valid('param');
    const input = c.req.valid('json');
    // A render without a version previews what production serves.
    const served = { version: input.version ?? 0, label: input.version !== undefined ? '' : 'production' };
    const rendered = input.preview
      ? await core.prompts.render(name, input)
      : await recordHttp(core, c, 'rest', name, served, () => core.prompts.render(name, input, (v) => (served.version = v)));
    return c.json(wire(rendered), 200);
  };
  return { list, create, get, update, setTags, remove, restore, listVersions, createVersion, getVersion, activate, deactivate, render };
}
