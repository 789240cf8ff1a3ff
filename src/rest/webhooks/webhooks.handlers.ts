import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import { actorOf, type AuthEnv } from '../auth.js';
import { wire } from '../wire.js';
import type * as routes from './webhooks.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<Extract<(typeof routes)[R], { method: string }>, AuthEnv>;


export function createHandlers(core: Core) {
  const w = core.webhooks;
  const list: H<'list'> = async (c) => c.json(wire({ items: await w.list(), nextCursor: null }), 200);
  const create: H<'create'> = async (c) => {
    const { webhook, secret } = await w.create(c.req.valid('json'), actorOf(c));
    c.header('Location', `/admin/v1/webhooks/${webhook.id}`);
    return c.json(wire({ ...webhook, secret }), 201);
  };
  const get: H<'get'> = async (c) => c.json(wire(await w.get(c.req.valid('param').id)), 200);
  const update: H<'update'> = async (c) => {
    const { webhook, secret } = await w.update(c.req.valid('param').id, c.req.valid('json'), actorOf(c));
    return c.json(wire({ ...webhook, ...(secret ? { secret } : {}) }), 200);
  };
  const remove: H<'remove'> = async (c) => {
    await w.remove(c.req.valid('param').id, actorOf(c));
    return c.body(null, 204);
  };
  const deliveries: H<'deliveries'> = async (c) => c.json(wire(await w.deliveries(c.req.valid('param').id, c.req.valid('query'))), 200);
  const redeliver: H<'redeliver'> = async (c) => {
    const { id, deliveryId } = c.req.valid('param');
    return c.json(wire(await w.redeliver(id, deliveryId)), 202);
  };
  const ping: H<'ping'> = async (c) => c.json(wire(await w.ping(c.req.valid('param').id, actorOf(c))), 202);
  return { list, create, get, update, remove, deliveries, redeliver, ping };
}
