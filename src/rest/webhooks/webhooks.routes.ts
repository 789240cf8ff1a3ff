import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { LIMITS } from '../../core/schemas.js';
import { WebhookInputSchema, WebhookPatchSchema } from '../../core/webhooks/schemas.js';
import { IdParamSchema, ListQuerySchema, body, errorResponses, json, page } from '../schemas.js';

const tags = ['Webhooks'];

export const WebhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.string()),
    label: z.string().nullable(),
    active: z.boolean(),
    secretHint: z.string().meta({ description: 'the first characters of the secret; the secret itself is shown only when created or rotated' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Webhook' });

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().meta({ description: 'the signing secret: shown in this response only, keep it' }),
}).meta({ id: 'WebhookWithSecret' });

export const WebhookUpdatedSchema = WebhookSchema.extend({
  secret: z.string().optional().meta({ description: 'the new signing secret, when rotateSecret was sent' }),
}).meta({ id: 'WebhookUpdated' });

export const WebhookDeliverySchema = z
  .object({
    id: z.number().int(),
    webhookId: z.number().int(),
    eventId: z.number().int().meta({ description: 'the change log id; the payload `id`' }),
    event: z.string().nullable(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastError: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

const DeliveryParamSchema = IdParamSchema.extend({
  deliveryId: z.coerce.number().int().min(1).max(LIMITS.intMax).meta({ param: { name: 'deliveryId', in: 'path' } }),
});
const conflict = { description: 'Conflict', content: errorResponses[422].content };

export const list = createRoute({
  method: 'get', path: '/webhooks', tags, summary: 'List webhooks',
  responses: { 200: json(z.object({ items: z.array(WebhookSchema), nextCursor: z.null() }), 'Every webhook'), 401: errorResponses[401] },
});
export const create = createRoute({
  method: 'post', path: '/webhooks', tags, summary: 'Create a webhook (the response carries its secret, shown once)',
  request: body(WebhookInputSchema),
  responses: { 201: json(WebhookWithSecretSchema, 'Created'), 401: errorResponses[401], 409: conflict, 422: errorResponses[422] },
});
export const get = createRoute({
  method: 'get', path: '/webhooks/{id}', tags, summary: 'One webhook',
  request: { params: IdParamSchema },
  responses: { 200: json(WebhookSchema, 'The webhook'), 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404] },
});
export const update = createRoute({
  method: 'patch', path: '/webhooks/{id}', tags, summary: 'Change a webhook; `rotateSecret: true` issues a new secret',
  request: { params: IdParamSchema, ...body(WebhookPatchSchema) },
  responses: { 200: json(WebhookUpdatedSchema, 'Changed'), 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
});
export const remove = createRoute({
  method: 'delete', path: '/webhooks/{id}', tags, summary: 'Delete a webhook and its delivery log',
  request: { params: IdParamSchema },
  responses: { 204: { description: 'Deleted' }, 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404] },
});
export const deliveries = createRoute({
  method: 'get', path: '/webhooks/{id}/deliveries', tags, summary: 'The delivery log, newest first (keyset-paginated)',
  request: { params: IdParamSchema, query: ListQuerySchema },
  responses: { 200: json(page(WebhookDeliverySchema, 'WebhookDeliveryPage'), 'A page of deliveries'), 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404] },
});
export const redeliver = createRoute({
  method: 'post', path: '/webhooks/{id}/deliveries/{deliveryId}/redeliver', tags, summary: 'Send a delivery again now, with a fresh retry schedule',
  request: { params: DeliveryParamSchema },
  responses: { 202: json(WebhookDeliverySchema, 'Queued'), 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404], 409: conflict },
});
export const ping = createRoute({
  method: 'post', path: '/webhooks/{id}/ping', tags, summary: 'Queue a `webhook.ping` event for this webhook alone',
  request: { params: IdParamSchema },
  responses: { 202: json(WebhookDeliverySchema, 'Queued'), 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404], 409: conflict },
});
