// Input schemas shared by every face (REST, MCP, CLI import). Types are inferred
// from them; `.meta({ id })` names them in the OpenAPI document.
import { z } from 'zod';

export const LIMITS = {
  nameLength: 128,
  titleLength: 256,
  descriptionLength: 4_000,
  noteLength: 2_000,
  textLength: 100_000,
  argumentsPerVersion: 50,
  messagesPerVersion: 100,
  choicesPerArgument: 500,
  choiceLength: 256,
  uriLength: 2_048,
  argumentValueLength: 100_000,
  resourceBytes: 10 * 1024 * 1024,
  pageSizeMax: 200,
  /** Ids and version numbers are 32-bit integers in the database. */
  intMax: 2_147_483_647,
} as const;

/**
 * Text that can be stored: PostgreSQL text cannot hold U+0000 (it fails the whole
 * statement), so NUL is rejected up front, the same way on every database.
 */
export const safeString = () => z.string().refine((s) => !s.includes('\u0000'), { message: 'must not contain NUL (\\u0000) characters' });

export const PromptNameSchema = z
  .string()
  .min(1, 'name must not be empty')
  .max(LIMITS.nameLength, `name must be at most ${LIMITS.nameLength} characters`)
  .regex(/^[A-Za-z0-9_.-]+$/, 'name may contain only letters, digits, "_", "-" and "."')
  .meta({ id: 'PromptName', example: 'code-review' });

const optionalText = (max: number) => safeString().max(max).nullish();

export const IconSchema = z
  .object({
    src: safeString().min(1).max(LIMITS.uriLength),
    mimeType: safeString().max(128).optional(),
    sizes: z.array(safeString().max(32)).max(16).optional(),
  })
  .meta({ id: 'Icon' });

export const AnnotationsSchema = z
  .object({
    audience: z.array(z.enum(['user', 'assistant'])).max(2).optional(),
    priority: z.number().min(0).max(1).optional(),
  })
  .strict()
  .meta({ id: 'Annotations' });

export const ArgumentNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'argument names start with a letter or "_" and contain only letters, digits and "_"');

export const ArgumentSchema = z
  .object({
    name: ArgumentNameSchema,
    title: optionalText(LIMITS.titleLength),
    description: optionalText(LIMITS.descriptionLength),
    required: z.boolean().default(false),
    choices: z.array(safeString().min(1).max(LIMITS.choiceLength)).min(1).max(LIMITS.choicesPerArgument).nullish(),
    maxLength: z.number().int().min(1).max(LIMITS.argumentValueLength).nullish(),
  })
  .strict()
  .meta({ id: 'Argument' });

const base64 = z
  .string()
  .max(Math.ceil((LIMITS.resourceBytes * 4) / 3) + 4)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

const UriSchema = safeString().min(1).max(LIMITS.uriLength);

export const TextContentSchema = z
  .object({ type: z.literal('text'), text: safeString().max(LIMITS.textLength), annotations: AnnotationsSchema.optional() })
  .strict();
export const StoredMediaContentSchema = z
  .object({ type: z.enum(['image', 'audio']), resourceUri: UriSchema, annotations: AnnotationsSchema.optional() })
  .strict();
export const InlineMediaContentSchema = z
  .object({ type: z.enum(['image', 'audio']), data: base64, mimeType: safeString().min(1).max(128), annotations: AnnotationsSchema.optional() })
  .strict();
export const ResourceContentSchema = z
  .object({ type: z.literal('resource'), uri: UriSchema, annotations: AnnotationsSchema.optional() })
  .strict();
export const ResourceLinkContentSchema = z
  .object({ type: z.literal('resource_link'), uri: UriSchema, annotations: AnnotationsSchema.optional() })
  .strict();

export const ContentSchema = z
  .union([TextContentSchema, StoredMediaContentSchema, InlineMediaContentSchema, ResourceContentSchema, ResourceLinkContentSchema])
  .meta({ id: 'MessageContent' });

export const MessageSchema = z
  .object({ role: z.enum(['user', 'assistant']), content: ContentSchema })
  .strict()
  .meta({ id: 'Message' });

export const VersionInputSchema = z
  .object({
    title: optionalText(LIMITS.titleLength),
    description: optionalText(LIMITS.descriptionLength),
    icons: z.array(IconSchema).max(16).nullish(),
    note: optionalText(LIMITS.noteLength),
    arguments: z.array(ArgumentSchema).max(LIMITS.argumentsPerVersion).default([]),
    messages: z.array(MessageSchema).min(1, 'a prompt needs at least one message').max(LIMITS.messagesPerVersion),
    activate: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'VersionInput' });

export const CreatePromptInputSchema = VersionInputSchema.extend({ name: PromptNameSchema }).meta({ id: 'CreatePromptInput' });

export const UpdatePromptInputSchema = z
  .object({ name: PromptNameSchema.optional(), archived: z.boolean().optional() })
  .strict()
  .meta({ id: 'UpdatePromptInput' });

export const ArgumentValuesSchema = z.record(z.string().max(256), z.string().max(LIMITS.argumentValueLength));

export const RenderInputSchema = z
  .object({ version: z.number().int().min(1).max(LIMITS.intMax).optional(), arguments: ArgumentValuesSchema.default({}) })
  .strict()
  .meta({ id: 'RenderInput' });

export const ResourceInputSchema = z
  .object({
    uri: UriSchema.regex(/^[A-Za-z][A-Za-z0-9+.-]*:/, 'uri must be absolute, with a scheme (e.g. file:///, logs://)'),
    name: safeString().min(1).max(LIMITS.titleLength),
    title: optionalText(LIMITS.titleLength),
    description: optionalText(LIMITS.descriptionLength),
    mimeType: safeString().min(1).max(128),
    text: safeString().max(LIMITS.resourceBytes).optional(),
    blob: base64.optional(),
  })
  .strict()
  .refine((r) => (r.text === undefined) !== (r.blob === undefined), { message: 'give exactly one of text or blob', path: ['text'] })
  .meta({ id: 'ResourceInput' });

export const ResourceTemplateInputSchema = z
  .object({
    uriTemplate: UriSchema,
    name: safeString().min(1).max(LIMITS.titleLength),
    title: optionalText(LIMITS.titleLength),
    description: optionalText(LIMITS.descriptionLength),
    mimeType: safeString().min(1).max(128),
    text: safeString().max(LIMITS.resourceBytes),
  })
  .strict()
  .meta({ id: 'ResourceTemplateInput' });

export type Icon = z.infer<typeof IconSchema>;
export type Annotations = z.infer<typeof AnnotationsSchema>;
export type ArgumentInput = z.infer<typeof ArgumentSchema>;
export type ContentInput = z.infer<typeof ContentSchema>;
export type MessageInput = z.infer<typeof MessageSchema>;
export type VersionInput = z.infer<typeof VersionInputSchema>;
export type CreatePromptInput = z.infer<typeof CreatePromptInputSchema>;
export type UpdatePromptInput = z.infer<typeof UpdatePromptInputSchema>;
export type RenderInput = z.infer<typeof RenderInputSchema>;
export type ResourceInput = z.infer<typeof ResourceInputSchema>;
export type ResourceTemplateInput = z.infer<typeof ResourceTemplateInputSchema>;
