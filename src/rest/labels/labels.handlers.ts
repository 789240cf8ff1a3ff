import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import { actorOf, type AuthEnv } from '../auth.js';
import { badRequest } from '../../core/errors.js';
import { wire } from '../wire.js';
import type * as routes from './labels.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<Extract<(typeof routes)[R], { method: string }>, AuthEnv>;


export function createHandlers(core: Core) {
  const listForPrompt: H<'listForPrompt'> = async (c) => c.json(wire(await core.labels.list(c.req.valid('param').name)), 200);
  const set: H<'set'> = async (c) => {
    const { name, label } = c.req.valid('param');
    const { version, force } = c.req.valid('json');
    const r = await core.labels.set(name, label, version, actorOf(c), { ifMatch: c.req.valid('header')['if-match'], force });
    c.header('ETag', r.etag);
    return c.json({ label: r.label, version: r.version, impact: r.impact }, 200);
  };
  const remove: H<'remove'> = async (c) => {
    const { name, label } = c.req.valid('param');
    const r = await core.labels.remove(name, label, actorOf(c), { ifMatch: c.req.valid('header')['if-match'] });
    c.header('ETag', r.etag);
    return c.body(null, 204);
  };
  const history: H<'history'> = async (c) => {
    const { limit, cursor } = c.req.valid('query');
    const before = cursor === undefined ? undefined : Number(cursor);
    if (before !== undefined && !(Number.isSafeInteger(before) && before > 0)) throw badRequest('bad cursor', [{ path: 'cursor', message: 'not a cursor from a previous page' }]);
    return c.json(wire(await core.labels.history(c.req.valid('param').name, { before, limit })), 200);
  };
  const summary: H<'summary'> = async (c) => c.json(wire(await core.labels.summary()), 200);
  const promote: H<'promote'> = async (c) => c.json(wire(await core.labels.promote(c.req.valid('param').from, c.req.valid('json'), actorOf(c))), 200);
  return { listForPrompt, set, remove, history, summary, promote };
}
