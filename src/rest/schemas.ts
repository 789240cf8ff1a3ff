// Response and parameter schemas for the OpenAPI document.
import { z } from 'zod';
import { AnnotationsSchema, ArgumentSchema, IconSchema, LIMITS, MessageSchema, TestCaseSchema, PromptNameSchema, ResourceVisibilitySchema, safeString, StoredPromptNameSchema } from '../core/schemas.js';

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem' });

export const VersionSchema = z
  .object({
    version: z.number().int(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    icons: z.array(IconSchema).nullable(),
    note: z.string().nullable(),
    author: z.string().nullable(),
    createdAt: z.string(),
    arguments: z.array(ArgumentSchema),
    messages: z.array(MessageSchema),
    tests: z.array(TestCaseSchema).meta({ description: 'test cases saved with the version; [] when none' }),
  })
  .meta({ id: 'Version' });

/** Saved, but probably not meant: e.g. a required argument no template uses (docs/contracts.md). */
export const WarningsSchema = z
  .array(z.object({ path: z.string(), message: z.string() }))
  .meta({ id: 'Warnings', description: 'what was saved but looks unintended, each naming the field; empty when nothing' });

/** A new version as POST /prompts/{name}/versions answers: the version and its warnings. */
export const CreatedVersionSchema = VersionSchema.extend({ warnings: WarningsSchema }).meta({ id: 'CreatedVersion' });

export const VersionSummarySchema = z
  .object({
    version: z.number().int(), title: z.string().nullable(), note: z.string().nullable(), author: z.string().nullable(), createdAt: z.string(), active: z.boolean(),
    labels: z.array(z.string()).meta({ description: 'labels pointing at this version' }),
  })
  .meta({ id: 'VersionSummary' });

export const PromptSummarySchema = z
  .object({
    name: z.string(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    activeVersion: z.number().int().nullable(),
    latestVersion: z.number().int(),
    archived: z.boolean(),
    updatedAt: z.string(),
    tags: z.array(z.string()).meta({ description: "the prompt's tags, sorted (docs/access.md)" }),
    deletedAt: z.string().optional().meta({ description: 'only in the bin (deleted=true): when it was deleted' }),
    deletedBy: z.string().nullable().optional().meta({ description: 'only in the bin (deleted=true): who deleted it' }),
    lastUsedAt: z.string().nullable().meta({ description: 'when it was last served (MCP, read API, render), across instances; null: never (docs/usage.md)' }),
  })
  .meta({ id: 'PromptSummary' });

export const PromptDetailSchema = z
  .object({
    name: z.string(),
    labels: z.array(z.string()).meta({ description: 'labels the prompt carries (GET /prompts/{name}/labels has their versions)' }),
    tags: z.array(z.string()).meta({ description: "the prompt's tags, sorted: who it is for, which MCP tokens see it (docs/access.md)" }),
    archived: z.boolean(),
    activeVersion: z.number().int().nullable(),
    latestVersion: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    revision: z.number().int().meta({ description: 'Changes with every write to the prompt; the ETag is derived from it' }),
    active: z.union([VersionSchema, z.null()]),
    latest: VersionSchema,
  })
  .meta({ id: 'PromptDetail' });

/** A new prompt as POST /prompts answers: the prompt and its first version's warnings. */
export const CreatedPromptSchema = PromptDetailSchema.extend({ warnings: WarningsSchema }).meta({ id: 'CreatedPrompt' });

export const ResourceSchema = z
  .object({
    id: z.number().int(),
    uri: z.string(),
    name: z.string(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    mimeType: z.string(),
    size: z.number().int(),
    binary: z.boolean(),
    visibility: ResourceVisibilitySchema,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Resource' });

export const ResourceDetailSchema = ResourceSchema.extend({
  text: z.string().optional(),
  blob: z.string().optional(),
  usedBy: z.array(z.object({ prompt: z.string(), version: z.number().int(), active: z.boolean() })),
}).meta({ id: 'ResourceDetail' });

export const ResourceTemplateSchema = z
  .object({
    id: z.number().int(),
    uriTemplate: z.string(),
    name: z.string(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    mimeType: z.string(),
    text: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ResourceTemplate' });

// The MCP GetPromptResult content shapes (src/core/types.ts RenderedContent).
const annotations = { annotations: AnnotationsSchema.optional() };
export const RenderedContentSchema = z
  .union([
    z.object({ type: z.literal('text'), text: z.string(), ...annotations }),
    z.object({ type: z.enum(['image', 'audio']), data: z.string(), mimeType: z.string(), ...annotations }),
    z.object({
      type: z.literal('resource'),
      resource: z.union([z.object({ uri: z.string(), mimeType: z.string(), text: z.string() }), z.object({ uri: z.string(), mimeType: z.string(), blob: z.string() })]),
      ...annotations,
    }),
    z.object({
      type: z.literal('resource_link'), uri: z.string(), name: z.string(), title: z.string().optional(), description: z.string().optional(), mimeType: z.string().optional(), ...annotations,
    }),
  ])
  .meta({ id: 'RenderedContent' });

export const RenderedPromptSchema = z
  .object({ description: z.string().optional(), messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: RenderedContentSchema })) })
  .meta({ id: 'GetPromptResult' });

export const page = <T extends z.ZodType>(item: T, id: string) => z.object({ items: z.array(item), nextCursor: z.string().nullable() }).meta({ id });

/** The `q=` search filter of list routes. */
export const SearchQuerySchema = safeString().max(200).optional();

export const ListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().max(2048).optional(),
});

// Lenient: prompts saved under names refused today can still be read, renamed and deleted.
export const NameParamSchema = z.object({ name: StoredPromptNameSchema.meta({ param: { name: 'name', in: 'path' } }) });
export const IdParamSchema = z.object({ id: z.coerce.number().int().min(1).max(LIMITS.intMax).meta({ param: { name: 'id', in: 'path' } }) });

export const errorResponses = {
  400: { description: 'Bad request', content: { 'application/problem+json': { schema: ProblemSchema } } },
  401: { description: 'Missing or invalid token', content: { 'application/problem+json': { schema: ProblemSchema } } },
  404: { description: 'Not found', content: { 'application/problem+json': { schema: ProblemSchema } } },
  422: { description: 'Validation failed', content: { 'application/problem+json': { schema: ProblemSchema } } },
} as const;

export const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
export const body = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { 'application/json': { schema } } } });
