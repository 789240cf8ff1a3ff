import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { CreatePromptInputSchema, LIMITS, RenderInputSchema, UpdatePromptInputSchema, VersionInputSchema } from '../../core/schemas.js';
import {
  ListQuerySchema, NameParamSchema, SearchQuerySchema, PromptDetailSchema, PromptSummarySchema, RenderedPromptSchema, VersionSchema, VersionSummarySchema,
  body, errorResponses, json, page,
} from '../schemas.js';

const tags = ['Prompts'];
const VersionParamSchema = NameParamSchema.extend({ n: z.coerce.number().int().min(1).max(LIMITS.intMax).meta({ param: { name: 'n', in: 'path' } }) });

export const list = createRoute({
  method: 'get', path: '/prompts', tags, summary: 'List prompts (keyset-paginated, sorted by name)',
  request: {
    query: ListQuerySchema.extend({
      q: SearchQuerySchema,
      archived: z.enum(['true', 'false', 'all']).optional().meta({ description: 'false (default): unarchived only; true: archived only; all' }),
    }),
  },
  responses: { 200: json(page(PromptSummarySchema, 'PromptPage'), 'A page of prompts'), 400: errorResponses[400], 401: errorResponses[401] },
});

export const create = createRoute({
  method: 'post', path: '/prompts', tags, summary: 'Create a prompt with version 1',
  request: body(CreatePromptInputSchema),
  responses: { 201: json(PromptDetailSchema, 'Created'), 401: errorResponses[401], 409: { ...errorResponses[422], description: 'Name taken' }, 422: errorResponses[422] },
});

export const get = createRoute({
  method: 'get', path: '/prompts/{name}', tags, summary: 'A prompt with its active and latest version (ETag)',
  request: { params: NameParamSchema },
  responses: { 200: json(PromptDetailSchema, 'The prompt'), 401: errorResponses[401], 404: errorResponses[404] },
});

export const update = createRoute({
  method: 'patch', path: '/prompts/{name}', tags, summary: 'Rename, archive or unarchive',
  request: { params: NameParamSchema, ...body(UpdatePromptInputSchema) },
  responses: { 200: json(PromptDetailSchema, 'Updated'), 401: errorResponses[401], 404: errorResponses[404], 409: errorResponses[404], 422: errorResponses[422] },
});

export const remove = createRoute({
  method: 'delete', path: '/prompts/{name}', tags, summary: 'Delete the prompt and all its versions',
  request: { params: NameParamSchema },
  responses: { 204: { description: 'Deleted' }, 401: errorResponses[401], 404: errorResponses[404] },
});

export const listVersions = createRoute({
  method: 'get', path: '/prompts/{name}/versions', tags, summary: 'Versions, newest first',
  request: { params: NameParamSchema, query: ListQuerySchema },
  responses: { 200: json(page(VersionSummarySchema, 'VersionPage'), 'A page of versions'), 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404] },
});

export const createVersion = createRoute({
  method: 'post', path: '/prompts/{name}/versions', tags, summary: 'Create a new version (If-Match guards against lost updates)',
  request: { params: NameParamSchema, headers: z.object({ 'if-match': z.string().max(100).optional() }), ...body(VersionInputSchema) },
  responses: {
    201: json(VersionSchema, 'Created'), 401: errorResponses[401], 404: errorResponses[404],
    412: { ...errorResponses[404], description: 'The If-Match ETag is stale' }, 422: errorResponses[422],
  },
});

export const getVersion = createRoute({
  method: 'get', path: '/prompts/{name}/versions/{n}', tags, summary: 'One version in full',
  request: { params: VersionParamSchema },
  responses: { 200: json(VersionSchema, 'The version'), 401: errorResponses[401], 404: errorResponses[404] },
});

export const activate = createRoute({
  method: 'put', path: '/prompts/{name}/active', tags, summary: 'Activate a version, or roll back to an older one',
  request: { params: NameParamSchema, ...body(z.object({ version: z.number().int().min(1).max(LIMITS.intMax) }).strict().meta({ id: 'ActivateInput' })) },
  responses: { 200: json(PromptDetailSchema, 'Activated'), 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
});

export const deactivate = createRoute({
  method: 'delete', path: '/prompts/{name}/active', tags, summary: 'Stop serving the prompt',
  request: { params: NameParamSchema },
  responses: { 200: json(PromptDetailSchema, 'Deactivated'), 401: errorResponses[401], 404: errorResponses[404] },
});

export const render = createRoute({
  method: 'post', path: '/prompts/{name}/render', tags, summary: 'Render exactly as prompts/get would (preview)',
  request: { params: NameParamSchema, ...body(RenderInputSchema) },
  responses: { 200: json(RenderedPromptSchema, 'The rendered prompt'), 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
});
