import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { SEARCH_SCAN_LIMIT, SEARCH_TOTAL_CAP } from '../../core/services/prompt-service.js';
import { CreatePromptInputSchema, LabelNameSchema, LIMITS, MAX_TAGS, RenderInputSchema, TagSchema, TagsSchema, UpdatePromptInputSchema, VersionInputSchema } from '../../core/schemas.js';
import {
  CreatedPromptSchema, CreatedVersionSchema, ListQuerySchema, NameParamSchema, SearchQuerySchema, PromptDetailSchema, PromptSummarySchema, RenderedPromptSchema, VersionSchema, VersionSummarySchema,
  body, errorResponses, json, page,
} from '../schemas.js';

const tags = ['Prompts'];
const VersionParamSchema = NameParamSchema.extend({ n: z.coerce.number().int().min(1).max(LIMITS.intMax).meta({ param: { name: 'n', in: 'path' } }) });

const PromptPageSchema = z
  .object({
    items: z.array(PromptSummarySchema),
    nextCursor: z.string().nullable(),
    total: z.number().int().meta({ description: `how many prompts match the filters (every page, not this one); for a q= search at most ${SEARCH_TOTAL_CAP}, see totalIsLowerBound` }),
    totalIsLowerBound: z.boolean().meta({ description: `true: more than \`total\` prompts match and the count stopped there (a q= search counts up to ${SEARCH_TOTAL_CAP} matches: show "${SEARCH_TOTAL_CAP.toLocaleString('en')}+"; an incomplete search counts the first ${SEARCH_SCAN_LIMIT.toLocaleString('en')} prompts only)` }),
    searchIncomplete: z.boolean().meta({
      description: `true: a q= search that no index serves (1–2 characters) read ${SEARCH_SCAN_LIMIT.toLocaleString('en')} prompts without filling the page and stopped; \`items\` are the matches found so far (maybe none) and \`nextCursor\` continues the search after \`searchedThrough\``,
    }),
    searchedThrough: z.string().nullable().meta({ description: 'with searchIncomplete: the last prompt the search read, in the list order (null otherwise)' }),
  })
  .meta({ id: 'PromptPage' });

export const list = createRoute({
  method: 'get', path: '/prompts', tags, summary: 'List, search, filter and sort prompts (keyset-paginated), with the total count',
  request: {
    query: ListQuerySchema.extend({
      q: SearchQuerySchema.meta({ description: "literal, case-insensitive substring of the name, or of the latest version's title, description or message text" }),
      sort: z.enum(['name', 'updated', 'lastUsed']).optional()
        .meta({ description: 'name (default, A–Z), updated (most recently edited first) or lastUsed (most recently served first, never-served last). A cursor belongs to its sort order' }),
      unusedFor: z.string().regex(/^\d{1,6}[mhdw]$/, 'a duration such as 30d, 12h, 2w or 90m').optional()
        .meta({ description: 'only prompts not served within this duration (30d, 12h, 2w, 90m), never-served ones included' }),
      status: z.enum(['pending', 'inactive', 'archived']).optional()
        .meta({ description: 'pending: production is behind the latest version; inactive: no production label; archived: archived prompts (implies archived=true)' }),
      archived: z.enum(['true', 'false', 'all']).optional().meta({ description: 'false (default): unarchived only; true: archived only; all' }),
      label: LabelNameSchema.optional().meta({ description: 'only prompts carrying this label' }),
      tag: z.union([TagSchema, z.array(TagSchema).max(MAX_TAGS)]).optional().meta({ description: 'only prompts carrying this tag; repeat for any of several (`?tag=a&tag=b`)' }),
      deleted: z.enum(['true', 'false']).optional().meta({ description: 'true: the soft-deleted prompts (restorable until purged), with deletedAt and deletedBy' }),
    }),
  },
  responses: { 200: json(PromptPageSchema, 'A page of prompts'), 400: errorResponses[400], 401: errorResponses[401], 404: { ...errorResponses[404], description: 'An unknown ?label= (the problem names the known labels)' }, 422: errorResponses[422] },
});

export const create = createRoute({
  method: 'post', path: '/prompts', tags, summary: 'Create a prompt with version 1',
  request: body(CreatePromptInputSchema),
  responses: { 201: json(CreatedPromptSchema, 'Created, with warnings (e.g. a required argument no template uses)'), 401: errorResponses[401], 409: { ...errorResponses[422], description: 'Name taken' }, 422: errorResponses[422] },
});

export const get = createRoute({
  method: 'get', path: '/prompts/{name}', tags, summary: 'A prompt with its active and latest version (ETag)',
  request: { params: NameParamSchema },
  responses: { 200: json(PromptDetailSchema, 'The prompt'), 401: errorResponses[401], 404: errorResponses[404] },
});

export const update = createRoute({
  method: 'patch', path: '/prompts/{name}', tags, summary: 'Rename, archive or unarchive, or replace the tags',
  request: { params: NameParamSchema, ...body(UpdatePromptInputSchema) },
  responses: { 200: json(PromptDetailSchema, 'Updated'), 401: errorResponses[401], 404: errorResponses[404], 409: errorResponses[404], 422: errorResponses[422] },
});

export const remove = createRoute({
  method: 'delete', path: '/prompts/{name}', tags,
  summary: 'Delete the prompt and all its versions (soft: restorable until purged after the retention period)',
  request: { params: NameParamSchema },
  responses: { 204: { description: 'Deleted' }, 401: errorResponses[401], 404: errorResponses[404], 409: { ...errorResponses[404], description: 'Served prompts include it (GET /prompts/{name}/dependents)' } },
});

export const restore = createRoute({
  method: 'post', path: '/prompts/{name}/restore', tags, summary: 'Restore a deleted prompt with all its versions (a served one is served again)',
  request: { params: NameParamSchema },
  responses: { 200: json(PromptDetailSchema, 'Restored'), 401: errorResponses[401], 404: errorResponses[404] },
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
    201: json(CreatedVersionSchema, 'Created, with warnings (e.g. a required argument no template uses)'), 401: errorResponses[401], 404: errorResponses[404],
    412: { ...errorResponses[404], description: 'The If-Match ETag is stale' }, 422: errorResponses[422],
  },
});

export const getVersion = createRoute({
  method: 'get', path: '/prompts/{name}/versions/{n}', tags, summary: 'One version in full',
  request: { params: VersionParamSchema },
  responses: { 200: json(VersionSchema, 'The version'), 401: errorResponses[401], 404: errorResponses[404] },
});

export const activate = createRoute({
  method: 'put', path: '/prompts/{name}/active', tags, summary: 'Activate a version, or roll back to an older one (an alias for PUT /prompts/{name}/labels/production)',
  request: {
    params: NameParamSchema,
    ...body(z.object({ version: z.number().int().min(1).max(LIMITS.intMax), force: z.boolean().optional().meta({ description: 'activate even if the version\'s checks fail (admin; recorded in the change log)' }) }).strict().meta({ id: 'ActivateInput' })),
  },
  responses: { 200: json(PromptDetailSchema, 'Activated'), 401: errorResponses[401], 404: errorResponses[404], 409: { ...errorResponses[422], description: 'The version\'s checks fail (errors lists them)' }, 422: errorResponses[422] },
});

export const deactivate = createRoute({
  method: 'delete', path: '/prompts/{name}/active', tags, summary: 'Stop serving the prompt (an alias for DELETE /prompts/{name}/labels/production)',
  request: { params: NameParamSchema },
  responses: { 200: json(PromptDetailSchema, 'Deactivated'), 401: errorResponses[401], 404: errorResponses[404] },
});

export const setTags = createRoute({
  method: 'put', path: '/prompts/{name}/tags', tags, summary: "Replace the prompt's tags (`prompt.tagged` in the change log)",
  request: { params: NameParamSchema, ...body(z.object({ tags: TagsSchema }).strict().meta({ id: 'TagsInput' })) },
  responses: { 200: json(PromptDetailSchema, 'The prompt with its new tags'), 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
});

export const render = createRoute({
  method: 'post', path: '/prompts/{name}/render', tags, summary: 'Render exactly as prompts/get would (preview)',
  request: { params: NameParamSchema, ...body(RenderInputSchema) },
  responses: { 200: json(RenderedPromptSchema, 'The rendered prompt'), 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
});
