import { createRoute } from '@hono/zod-openapi';
import { ResourceInputSchema } from '../../core/schemas.js';
import { IdParamSchema, ListQuerySchema, SearchQuerySchema, ResourceDetailSchema, ResourceSchema, body, errorResponses, json, page } from '../schemas.js';

const tags = ['Resources'];

export const list = createRoute({
  method: 'get', path: '/resources', tags, summary: 'List stored resources (keyset-paginated, sorted by URI)',
  request: { query: ListQuerySchema.extend({ q: SearchQuerySchema }) },
  responses: { 200: json(page(ResourceSchema, 'ResourcePage'), 'A page of resources'), 400: errorResponses[400], 401: errorResponses[401] },
});
export const create = createRoute({
  method: 'post', path: '/resources', tags, summary: 'Store a resource (text, or binary as base64 `blob`)',
  request: body(ResourceInputSchema),
  responses: { 201: json(ResourceSchema, 'Created'), 401: errorResponses[401], 409: errorResponses[422], 413: errorResponses[422], 422: errorResponses[422] },
});
export const get = createRoute({
  method: 'get', path: '/resources/{id}', tags, summary: 'One resource with its content and the prompts that bind it',
  request: { params: IdParamSchema },
  responses: { 200: json(ResourceDetailSchema, 'The resource'), 401: errorResponses[401], 404: errorResponses[404] },
});
export const update = createRoute({
  method: 'put', path: '/resources/{id}', tags, summary: 'Replace a resource',
  request: { params: IdParamSchema, ...body(ResourceInputSchema) },
  responses: { 200: json(ResourceSchema, 'Replaced'), 401: errorResponses[401], 404: errorResponses[404], 409: errorResponses[422], 422: errorResponses[422] },
});
export const remove = createRoute({
  method: 'delete', path: '/resources/{id}', tags, summary: 'Delete a resource (409 while an active prompt embeds it)',
  request: { params: IdParamSchema },
  responses: { 204: { description: 'Deleted' }, 401: errorResponses[401], 404: errorResponses[404], 409: errorResponses[404] },
});
