import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { safeString, StoredPromptNameSchema } from '../../core/schemas.js';
import { ListQuerySchema, ProblemSchema, errorResponses, json, page } from '../schemas.js';

const tags = ['Activity'];
export const ENTITIES = ['prompt', 'resource', 'resource_template', 'token', 'webhook', 'settings'] as const;

export const ActivityItemSchema = z
  .object({
    id: z.number().int().meta({ description: 'the change log id (the event stream and webhook payloads carry the same id)' }),
    at: z.string(),
    actor: z.string().meta({ description: 'who: `token:<name>#<id>`, `admin` (PROMPTD_ADMIN_TOKEN), `cli`, `import`, `serve`' }),
    action: z.string().meta({ description: 'what, e.g. `prompt.activated`, `label.set`, `token.revoked`' }),
    entity: z.enum(ENTITIES),
    entityKey: z.string().meta({ description: 'the prompt name, resource URI, or token/webhook id' }),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'ActivityItem' });

export const list = createRoute({
  method: 'get', path: '/activity', tags, summary: 'The change log, newest first (keyset-paginated), filtered by who and what',
  request: {
    query: ListQuerySchema.extend({
      actor: safeString().min(1).max(200).optional().meta({ description: 'exactly this actor, e.g. `token:ci-bot#3` or `admin`' }),
      action: z.string().max(60).optional().meta({ description: 'an action such as `prompt.activated`, or a pattern such as `prompt.*`' }),
      prompt: StoredPromptNameSchema.optional().meta({ description: "only events about this prompt (by its name when they happened; a rename's event is under the new name)" }),
    }),
  },
  responses: {
    200: json(page(ActivityItemSchema, 'ActivityPage'), 'A page of events (for readers and editors, without token, webhook and settings events)'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: { description: '`action=` names only token, webhook or settings events, which need the admin role', content: { 'application/problem+json': { schema: ProblemSchema } } },
  },
});
