import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { LIMITS } from '../../core/schemas.js';
import { NameParamSchema, errorResponses, json } from '../schemas.js';

const tags = ['Prompts'];

export const DependentSchema = z
  .object({
    prompt: z.string(),
    version: z.number().int(),
    views: z.array(z.string()).meta({ description: 'the labels on that version, and `latest` when it is its prompt\'s newest' }),
    includes: z.array(z.string()).meta({ description: 'how it includes the prompt, as written: `name`, `name@label` or `name@3`' }),
  })
  .strict()
  .meta({ id: 'Dependent' });
export const DependentListSchema = z.object({ items: z.array(DependentSchema) }).strict().meta({ id: 'DependentList' });

export const IncludeInfoSchema = z
  .object({
    include: z.string().meta({ description: 'as written: `name`, `name@label` or `name@3`' }),
    prompt: z.string(),
    label: z.string().nullable(),
    pinnedVersion: z.number().int().nullable(),
    resolvedVersion: z.number().int().nullable().meta({ description: 'the version it resolves to as stored now (unpinned: production, else latest); null when broken' }),
    problem: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'IncludeInfo' });
export const IncludeListSchema = z.object({ version: z.number().int(), items: z.array(IncludeInfoSchema) }).strict().meta({ id: 'IncludeList' });

const IncludesQuerySchema = z.object({ version: z.coerce.number().int().min(1).max(LIMITS.intMax).optional() });

export const dependents = createRoute({
  method: 'get', path: '/prompts/{name}/dependents', tags, summary: 'Served prompts that include this one (by a label or as their latest version)',
  request: { params: NameParamSchema },
  responses: { 200: json(DependentListSchema, 'Dependents'), 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
});

export const includes = createRoute({
  method: 'get', path: '/prompts/{name}/includes', tags, summary: 'What a version (default: production, else latest) includes, and what each include resolves to',
  request: { params: NameParamSchema, query: IncludesQuerySchema },
  responses: { 200: json(IncludeListSchema, 'Includes'), 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
});
