import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { ActivityQuery } from '../../core/services/activity-service.js';
import type { AuthEnv } from '../auth.js';
import { wire } from '../wire.js';
import { csvRow } from './csv.js';
import { CSV_MAX_ROWS } from './audit.routes.js';
import type * as routes from './audit.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<Extract<(typeof routes)[R], { method: string }>, AuthEnv>;

const CSV_COLUMNS = ['id', 'at', 'actor', 'action', 'entity', 'entityKey', 'details'] as const;

/** The audit's query is the activity log's (core.activity), with a kind of entity and a time range. */
function toQuery(q: { actor?: string; action?: string; entity?: ActivityQuery['entity']; key?: string; from?: string; to?: string; cursor?: string }): ActivityQuery {
  return {
    actor: q.actor, action: q.action, entity: q.entity, entityKey: q.key, cursor: q.cursor, withUse: true,
    from: q.from !== undefined ? new Date(q.from) : undefined,
    to: q.to !== undefined ? new Date(q.to) : undefined,
  };
}

export function createHandlers(core: Core) {
  const list: H<'list'> = async (c) => {
    const q = c.req.valid('query');
    return c.json(wire(await core.activity.list({ ...toQuery(q), limit: q.limit })), 200);
  };
  const csv: H<'csv'> = async (c) => {
    const q = c.req.valid('query');
    const rows = core.activity.each(toQuery(q), q.limit ?? CSV_MAX_ROWS);
    // The first page is read before the response starts, so a bad cursor or action is a 400, not a cut-off file.
    let next = await rows.next();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(csvRow(CSV_COLUMNS)));
      },
      async pull(controller) {
        if (next.done) return controller.close();
        const e = next.value;
        controller.enqueue(encoder.encode(csvRow([e.id, e.at, e.actor, e.action, e.entity, e.entityKey, e.details])));
        next = await rows.next();
      },
      async cancel() {
        await rows.return(undefined);
      },
    });
    return c.body(body, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="promptd-audit.csv"' });
  };
  return { list, csv };
}
