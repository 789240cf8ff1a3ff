import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../../core/index.js';
import { PRODUCTION } from '../../../core/schemas.js';
import type { AuthEnv } from '../../auth.js';
import { recordHttp, type ServedRequest } from '../../usage-recording.js';
import { wire } from '../../wire.js';
import { noneMatchHits, setCacheHeaders, strongEtag } from '../etag.js';
import type * as routes from './served.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AuthEnv>;

/** What usage counts before the version is resolved: a pinned version has no label. */
const requested = (q: { label?: string; version?: number }): ServedRequest => ({ version: q.version ?? 0, label: q.version !== undefined ? '' : (q.label ?? PRODUCTION) });

export function createHandlers(core: Core, { onServed }: { onServed?: (label: string) => void } = {}) {
  // Metrics: a pinned version (`?version=`) was asked for by number, through no label: not counted.
  const servedBy = (label: string | null) => {
    if (label !== null) onServed?.(label);
  };

  const definition: H<'definition'> = async (c) => {
    const { name: requestedName } = c.req.valid('param');
    const q = c.req.valid('query');
    const served = requested(q);
    const { name, label, version: v } = await recordHttp(core, c, 'read-api', requestedName, served, async () => {
      const d = await core.served.definition(requestedName, q, c.get('scope'));
      served.version = d.version.version;
      return d;
    });
    servedBy(label);
    const payload = wire({ name, label, version: v.version, title: v.title, description: v.description, icons: v.icons, createdAt: v.createdAt, arguments: v.arguments, messages: v.messages });
    // c.json() serialises the same object the same way: the tag is the body's.
    const etag = strongEtag(JSON.stringify(payload));
    setCacheHeaders(c, etag);
    if (noneMatchHits(c.req.valid('header')['if-none-match'], etag)) return c.body(null, 304);
    return c.json(payload, 200);
  };

  const render: H<'render'> = async (c) => {
    const { name } = c.req.valid('param');
    const q = c.req.valid('query');
    const served = requested(q);
    const r = await recordHttp(core, c, 'read-api', name, served, () =>
      core.served.render(name, q, c.req.valid('json').arguments, (d) => {
        served.version = d.version.version;
      }, c.get('scope')),
    );
    servedBy(r.label);
    const payload = wire({ name: r.name, label: r.label, version: r.version.version, ...r.rendered });
    // Rendered on every request: the output embeds resources and their text may have
    // changed with the version unmoved, so only a hash of the output is a safe tag.
    const etag = strongEtag(JSON.stringify(payload));
    setCacheHeaders(c, etag);
    if (noneMatchHits(c.req.valid('header')['if-none-match'], etag)) return c.body(null, 304);
    return c.json(payload, 200);
  };

  return { definition, render };
}
