import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { LIMITS } from '../../../core/schemas.js';
import { errorResponses, json } from '../../schemas.js';
import { ChangePageSchema, problem } from '../schemas.js';

const tags = ['Changes'];

export const list = createRoute({
  method: 'get', path: '/changes', tags,
  summary: 'Change log entries that move what is served or rendered (label moves, new versions, renames, archives, deletes, resource edits), oldest first',
  request: {
    query: z.object({
      since: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional()
        .meta({ description: 'Entries after this id (`next` of the previous page; 0 for the whole log). Omitted: none, with `next` at the newest entry, to start following now' }),
      limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).optional().meta({ description: `At most this many entries (default 100, at most ${LIMITS.pageSizeMax})` }),
    }),
  },
  responses: { 200: json(ChangePageSchema, 'A page of changes'), 400: errorResponses[400], 401: errorResponses[401] },
});

export const stream = createRoute({
  method: 'get', path: '/changes/stream', tags,
  summary: 'Server-sent events: `ready`, then one `change` event (a Change as JSON, id = its id) per entry; resumes after Last-Event-ID; capped per token and in total, ended after a maximum lifetime',
  request: {
    query: z.object({ lastEventId: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().meta({ description: 'Resume after this id, where the Last-Event-ID header cannot be set' }) }),
  },
  responses: {
    200: { description: 'text/event-stream of Change JSON', content: { 'text/event-stream': { schema: { type: 'string' } } } },
    400: errorResponses[400],
    401: errorResponses[401],
    429: problem('Too many open event streams for this token or on this instance'),
  },
});
