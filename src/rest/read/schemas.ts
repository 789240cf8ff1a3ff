// Response and parameter schemas of the read API's OpenAPI document (/v1/openapi.json).
import { z } from 'zod';
import { ArgumentValuesSchema, LabelNameSchema, LIMITS } from '../../core/schemas.js';
import { ProblemSchema, RenderedContentSchema, VersionSchema } from '../schemas.js';

export const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ProblemSchema } } });

export const SelectorQuerySchema = z.object({
  label: LabelNameSchema.optional().meta({ description: 'Serve the version this label points at (default `production`; `latest` is the newest version)' }),
  version: z.coerce.number().int().min(1).max(LIMITS.intMax).optional().meta({ description: 'Pin a version number instead of a label' }),
});

export const IfNoneMatchSchema = z.object({
  'if-none-match': z.string().max(4096).optional().meta({ description: 'ETags from earlier responses: a match is answered 304 without a body' }),
});

export const PromptDefinitionSchema = z
  .object({
    name: z.string(),
    label: z.string().nullable().meta({ description: 'The label the version was resolved through; null for a pinned version' }),
    version: z.number().int(),
    title: VersionSchema.shape.title,
    description: VersionSchema.shape.description,
    icons: VersionSchema.shape.icons,
    createdAt: z.string().meta({ description: 'When the version was created (ISO 8601)' }),
    arguments: VersionSchema.shape.arguments,
    messages: VersionSchema.shape.messages,
  })
  .meta({ id: 'PromptDefinition' });

export const RenderBodySchema = z
  .object({ arguments: ArgumentValuesSchema.default({}) })
  .strict()
  .meta({ id: 'ReadRenderInput' });

export const RenderedSchema = z
  .object({
    name: z.string(),
    label: z.string().nullable(),
    version: z.number().int(),
    description: z.string().optional(),
    messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: RenderedContentSchema })),
  })
  .meta({ id: 'RenderedPrompt' });

export const ServedChangeSchema = z
  .object({
    id: z.number().int().meta({ description: 'Pass as `since` (or Last-Event-ID) to continue after this entry' }),
    at: z.string(),
    action: z.string().meta({ example: 'label.set' }),
    kind: z.enum(['prompt', 'resource', 'resource_template']),
    prompt: z.string().nullable().meta({ description: "The prompt's current name; null for resource changes (revalidate cached renders)" }),
    previousName: z.string().nullable().meta({ description: 'Its name before a rename' }),
    labels: z.array(z.string()).nullable().meta({ description: 'Label views that changed (`latest` for a new version); null: any of the prompt\'s views' }),
    version: z.number().int().nullable().meta({ description: 'The version a label now points at, or that was created' }),
  })
  .meta({ id: 'Change' });

export const ChangePageSchema = z
  .object({
    items: z.array(ServedChangeSchema),
    next: z.number().int().meta({ description: 'The `since` of the next call' }),
    more: z.boolean().meta({ description: 'true: more entries are waiting; call again at once' }),
  })
  .meta({ id: 'ChangePage' });
