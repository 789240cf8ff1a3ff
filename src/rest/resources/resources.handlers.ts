import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import { actorOf, type AuthEnv } from '../auth.js';
import { wire } from '../wire.js';
import type * as routes from './resources.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AuthEnv>;


export function createHandlers(core: Core) {
  const list: H<'list'> = async (c) => c.json(wire(await core.resources.list(c.req.valid('query'))), 200);
  const create: H<'create'> = async (c) => {
    const r = await core.resources.create(c.req.valid('json'), actorOf(c));
    c.header('Location', `/admin/v1/resources/${r.id}`);
    return c.json(wire(r), 201);
  };
  const get: H<'get'> = async (c) => {
    const { text, blob, ...r } = await core.resources.get(c.req.valid('param').id);
    const content = blob ? { blob: Buffer.from(blob).toString('base64') } : { text: text ?? '' };
    return c.json(wire({ ...r, ...content }), 200);
  };
  const update: H<'update'> = async (c) => c.json(wire(await core.resources.update(c.req.valid('param').id, c.req.valid('json'), actorOf(c))), 200);
  const remove: H<'remove'> = async (c) => {
    await core.resources.delete(c.req.valid('param').id, actorOf(c));
    return c.body(null, 204);
  };
  return { list, create, get, update, remove };
}
