import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ResourceTemplateInputSchema } from '../../core/schemas.js';
import { IdParamSchema, ResourceTemplateSchema, body, errorResponses, json } from '../schemas.js';

const tags = ['Resource templates'];

export const list = createRoute({
  method: 'get', path: '/resource-templates', tags, summary: 'List resource templates',
  responses: { 200: json(z.object({ items: z.array(ResourceTemplateSchema), nextCursor: z.null() }), 'All resource templates'), 401: errorResponses[401] },
});
export const create = createRoute({
  method: 'post', path: '/resource-templates', tags, summary: 'Create a resource template (RFC 6570 URI template + Mustache content)',
  request: body(ResourceTemplateInputSchema),
  responses: { 201: json(ResourceTemplateSchema, 'Created'), 401: errorResponses[401], 409: errorResponses[422], 422: errorResponses[422] },
});
export const get = createRoute({
  method: 'get', path: '/resource-templates/{id}', tags, summary: 'One resource template',
  request: { params: IdParamSchema },
  responses: { 200: json(ResourceTemplateSchema, 'The template'), 401: errorResponses[401], 404: errorResponses[404] },
});
export const update = createRoute({
  method: 'put', path: '/resource-templates/{id}', tags, summary: 'Replace a resource template',
  request: { params: IdParamSchema, ...body(ResourceTemplateInputSchema) },
  responses: { 200: json(ResourceTemplateSchema, 'Replaced'), 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
});
export const remove = createRoute({
  method: 'delete', path: '/resource-templates/{id}', tags, summary: 'Delete a resource template',
  request: { params: IdParamSchema },
  responses: { 204: { description: 'Deleted' }, 401: errorResponses[401], 404: errorResponses[404] },
});
