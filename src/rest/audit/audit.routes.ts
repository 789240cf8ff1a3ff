import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { safeString } from '../../core/schemas.js';
import { ActivityItemSchema, ENTITIES } from '../activity/activity.routes.js';
import { ListQuerySchema, errorResponses, json, page } from '../schemas.js';

const tags = ['Audit'];
/** Rows a CSV export holds at most (one request; page on with `cursor=` for more). */
export const CSV_MAX_ROWS = 100_000;

const instant = (what: string) => z.iso.datetime({ offset: true }).optional().meta({ description: `${what} (RFC 3339, e.g. 2026-11-24T14:00:00Z)` });

export const AuditQuerySchema = ListQuerySchema.extend({
  actor: safeString().min(1).max(200).optional().meta({ description: 'exactly this actor, e.g. `token:ci-bot#3`, `admin`, `mcp-token`' }),
  action: z.string().max(60).optional().meta({ description: 'an action such as `token.used`, or a pattern such as `prompt.*`' }),
  entity: z.enum(ENTITIES).optional().meta({ description: 'only events about this kind of thing' }),
  key: z.string().min(1).max(2048).optional().meta({ description: 'only events about this one (a prompt name, resource URI, token or webhook id)' }),
  from: instant('at or after this instant'),
  to: instant('before this instant'),
});

// Admin-only: behind adminAuth (src/rest/auth.ts), where the role check that refuses
// non-admin tokens belongs; the audit shows every actor's activity.
export const list = createRoute({
  method: 'get', path: '/audit', tags,
  summary: 'Who changed or used what: the change log plus token use (`token.used`, once per token, face and hour), newest first',
  request: { query: AuditQuerySchema },
  responses: { 200: json(page(ActivityItemSchema, 'AuditPage'), 'A page of events'), 400: errorResponses[400], 401: errorResponses[401] },
});

export const csv = createRoute({
  method: 'get', path: '/audit.csv', tags,
  summary: 'The same events as GET /audit as CSV (RFC 4180; cells that a spreadsheet would run as a formula are prefixed with \')',
  request: {
    query: AuditQuerySchema.extend({
      limit: z.coerce.number().int().min(1).max(CSV_MAX_ROWS).optional().meta({ description: `rows at most (default and maximum ${CSV_MAX_ROWS})` }),
    }),
  },
  responses: {
    200: { description: 'id, at, actor, action, entity, entityKey, details (JSON); newest first', content: { 'text/csv': { schema: z.string() } } },
    400: errorResponses[400],
    401: errorResponses[401],
  },
});
