import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { AuthEnv } from '../auth.js';
import { wire } from '../wire.js';
import type * as routes from './usage.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<Extract<(typeof routes)[R], { method: string }>, AuthEnv>;
const instant = (s: string | undefined) => (s === undefined ? undefined : new Date(s));

export function createHandlers(core: Core) {
  const query = (q: { from?: string; to?: string; prompt?: string; label?: string; client?: string; clientVersion?: string; bucket?: 'minute' | 'hour' | 'day' }) => ({ ...q, from: instant(q.from), to: instant(q.to) });
  const report: H<'report'> = async (c) => c.json(wire(await core.usage.report(query(c.req.valid('query')))), 200);
  const csv: H<'csv'> = async (c) => {
    const text = await core.usage.csv(query(c.req.valid('query')));
    return c.text(text, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="usage.csv"' });
  };
  const ofPrompt: H<'ofPrompt'> = async (c) => c.json(wire(await core.usage.ofPrompt(c.req.valid('param').name, query(c.req.valid('query')))), 200);
  return { report, csv, ofPrompt };
}
