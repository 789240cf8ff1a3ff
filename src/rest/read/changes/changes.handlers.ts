import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../../core/index.js';
import { affectsServed, describeChange } from '../../../core/services/served-reads.js';
import type { ChangeEvent } from '../../../core/types.js';
import type { AuthEnv } from '../../auth.js';
import { wire } from '../../wire.js';
import { lastEventIdOf, refusedStream, streamChanges } from '../../events/change-stream.js';
import type { EventStreamLimits, StreamRegistry } from '../../events/stream-registry.js';
import type * as routes from './changes.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AuthEnv>;

const DEFAULT_LIMIT = 100;
const encode = (e: ChangeEvent) => (affectsServed(e) ? JSON.stringify(wire(describeChange(e))) : undefined);

export function createHandlers(core: Core, deps: { registry: StreamRegistry; limits: EventStreamLimits }) {
  const { registry, limits } = deps;

  const list: H<'list'> = async (c) => {
    const { since, limit } = c.req.valid('query');
    c.header('Cache-Control', 'no-store');
    if (since === undefined) return c.json({ items: [], next: await core.served.lastId(), more: false }, 200);
    return c.json(wire(await core.served.changes(since, limit ?? DEFAULT_LIMIT, c.get('scope'))), 200);
  };

  const stream: H<'stream'> = async (c) => {
    // An app token hears only of changes in its scope (issue 36.12).
    const scope = c.get('scope');
    const affects = scope ? await core.served.changeFilter(scope) : undefined;
    const handle = registry.open({ actor: c.get('actor'), tokenId: c.get('tokenId') ?? null });
    if ('refused' in handle) return refusedStream(c, handle.refused, limits) as never;
    const scoped = affects ? (e: ChangeEvent) => (affects(e) ? encode(e) : undefined) : encode;
    return streamChanges(c, core, { handle, limits, lastEventId: lastEventIdOf(c, c.req.valid('query').lastEventId), encode: scoped, subscribe: core.served.subscribe }) as never;
  };

  return { list, stream };
}
