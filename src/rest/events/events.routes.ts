import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ProblemSchema, errorResponses, json } from '../schemas.js';

const tags = ['Events'];
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ProblemSchema } } });

export const EventsQuerySchema = z.object({
  ticket: z.string().max(100).optional().meta({ description: 'A stream ticket from POST /events/ticket (single use); or send Authorization: Bearer' }),
  lastEventId: z.coerce.number().int().min(0).optional().meta({ description: 'Resume after this event id (as the Last-Event-ID header does)' }),
});

export const stream = createRoute({
  method: 'get', path: '/events', tags,
  summary: 'Server-sent events of the change log (event: change); capped per token and in total, ended after a maximum lifetime',
  request: { query: EventsQuerySchema },
  responses: {
    200: { description: 'text/event-stream of ChangeEvent JSON', content: { 'text/event-stream': { schema: { type: 'string' } } } },
    401: errorResponses[401],
    429: problem('Too many open event streams for this token or on this instance'),
  },
});

export const StreamTicketSchema = z.object({
  ticket: z.string().meta({ description: 'Pass as GET /admin/v1/events?ticket=…; valid once, on this instance' }),
  expiresAt: z.string().meta({ description: 'ISO 8601; about 60 seconds after issue' }),
});

export const ticket = createRoute({
  method: 'post', path: '/events/ticket', tags,
  summary: 'A single-use, short-lived ticket for opening the event stream (EventSource cannot send Authorization)',
  responses: { 200: json(StreamTicketSchema, 'The ticket'), 401: errorResponses[401] },
});
