import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import { actorOf, type AuthEnv } from '../auth.js';
import { wire } from '../wire.js';
import type * as routes from './resource-templates.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AuthEnv>;


export function createHandlers(core: Core) {
  const list: H<'list'> = async (c) => c.json(wire({ items: await core.resources.listTemplates(), nextCursor: null }), 200);
  const create: H<'create'> = async (c) => {
    const t = await core.resources.createTemplate(c.req.valid('json'), actorOf(c));
    c.header('Location', `/admin/v1/resource-templates/${t.id}`);
    return c.json(wire(t), 201);
  };
  const get: H<'get'> = async (c) => c.json(wire(await core.resources.getTemplate(c.req.valid('param').id)), 200);
  const update: H<'update'> = async (c) => c.json(wire(await core.resources.updateTemplate(c.req.valid('param').id, c.req.valid('json'), actorOf(c))), 200);
  const remove: H<'remove'> = async (c) => {
    await core.resources.deleteTemplate(c.req.valid('param').id, actorOf(c));
    return c.body(null, 204);
  };
  return { list, create, get, update, remove };
}
