import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import type * as routes from './includes.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<Extract<(typeof routes)[R], { method: string }>, AuthEnv>;

export function createHandlers(core: Core) {
  const dependents: H<'dependents'> = async (c) => c.json({ items: await core.prompts.dependents(c.req.valid('param').name) }, 200);
  const includes: H<'includes'> = async (c) => {
    const r = await core.prompts.includes(c.req.valid('param').name, c.req.valid('query').version);
    return c.json({ version: r.version, items: r.includes }, 200);
  };
  return { dependents, includes };
}
