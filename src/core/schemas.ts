// Input schemas shared by every face (REST, MCP, CLI import). Types are inferred
// from them; `.meta({ id })` names them in the OpenAPI document.
import { z } from 'zod';
import { iconSrcProblem, uriSchemeProblem } from './uri-schemes.js';

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
  allowPrefixes: 32,
  tokenNameLength: 64,
  pageSizeMax: 200,
  /** Sections ({{#a}}, {{^a}}) nested in one template. */
  sectionDepth: 32,
  /** Variable tags ({{a}}, {{#a}}, {{^a}}…) in one template. */
  referencesPerTemplate: 1_000,
  /** Characters argument values may add to one rendering (prompts/get, REST render), all messages and URI bindings together. */
  renderedArgumentChars: 1_048_576,
  /** Characters of one rendered prompt: all messages, with embedded resources and media. */
  renderedPromptChars: 16 * 1_048_576,
  /** Ids and version numbers are 32-bit integers in the database. */
  intMax: 2_147_483_647,
} as const;

/**
 * Text that can be stored: PostgreSQL text cannot hold U+0000 (it fails the whole
 * statement), so NUL is rejected up front, the same way on every database.
 */
export const safeString = () => z.string().refine((s) => !s.includes('\u0000'), { message: 'must not contain NUL (\\u0000) characters' });

/**
 * A name as stored before names starting with "." were refused: what a path
 * parameter accepts, so such prompts can still be read, renamed and deleted.
 */
export const StoredPromptNameSchema = z
  .string()
  .min(1, 'name must not be empty')
  .max(LIMITS.nameLength, `name must be at most ${LIMITS.nameLength} characters`)
  .regex(/^[A-Za-z0-9_.-]+$/, 'name may contain only letters, digits, "_", "-" and "."');

// "." and ".." are path segments: URLs normalise them away and they are directories
// in an exported library, so a name may not start with a dot.
export const PromptNameSchema = StoredPromptNameSchema.refine((n) => !n.startsWith('.'), 'name must not start with "."').meta({
  id: 'PromptName',
  example: 'code-review',
});

/** `latest` is virtual: it always means the newest version, and nothing can set it. */
export const LATEST = 'latest';
/** What `active` was before labels: the view MCP serves by default. */
export const PRODUCTION = 'production';

export const LabelNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,35}$/, 'a label is 1 to 36 lowercase letters, digits and "-", starting with a letter or digit')
  .meta({ id: 'LabelName', example: 'staging' });

/** A prompt tag (docs/access.md): who the prompt is for, which MCP tokens see it. */
export const TagSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'a tag is 1 to 32 lowercase letters, digits and "-", starting with a letter or digit')
  .meta({ id: 'Tag', example: 'team-a' });
export const MAX_TAGS = 20;
/** A prompt's tags; the core stores them sorted and without duplicates (normalizeTags). */
export const TagsSchema = z
  .array(TagSchema)
  .max(MAX_TAGS, `a prompt carries at most ${MAX_TAGS} tags`)
  .meta({ id: 'Tags' });
export const normalizeTags = (tags: readonly string[]): string[] => [...new Set(tags)].sort();

/** A label a write may move: any valid name but `latest`. */
export const SettableLabelSchema = LabelNameSchema.refine((l) => l !== LATEST, { message: '"latest" always means the newest version and cannot be set or removed' });

const optionalText = (max: number) => safeString().max(max).nullish();

export const IconSchema = z
  .object({
    src: safeString()
      .min(1)
      .max(LIMITS.uriLength)
      .superRefine((src, ctx) => {
        const problem = iconSrcProblem(src);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
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

/** Names that are Object.prototype machinery: as keys of a plain object they vanish or resolve to a function. */
export const RESERVED_ARGUMENT_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype'];

export const ArgumentNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'argument names start with a letter or "_" and contain only letters, digits and "_"')
  .refine((n) => !RESERVED_ARGUMENT_NAMES.includes(n), { message: `argument names may not be ${RESERVED_ARGUMENT_NAMES.join(', ')}` });

export const ArgumentTypeSchema = z
  .enum(['string', 'number', 'integer', 'boolean'])
  .meta({ id: 'ArgumentType', description: 'MCP sends every value as a string; promptd parses it by this type (default string)' });

export const ArgumentSchema = z
  .object({
    name: ArgumentNameSchema,
    type: ArgumentTypeSchema.optional(),
    default: z.union([safeString().max(LIMITS.argumentValueLength), z.number(), z.boolean()]).nullish().meta({ description: 'filled in when an optional argument is missing; of the argument\'s type' }),
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
/** A stored resource's URI or a resource template: scheme allow-list (core/uri-schemes.ts). */
const StoredUriSchema = UriSchema.superRefine((uri, ctx) => {
  const problem = uriSchemeProblem(uri);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const TextContentSchema = z
  .object({ type: z.literal('text'), text: safeString().max(LIMITS.textLength), annotations: AnnotationsSchema.optional() })
  .strict();
export const StoredMediaContentSchema = z
  .object({ type: z.enum(['image', 'audio']), resourceUri: UriSchema, annotations: AnnotationsSchema.optional() })
  .strict();
export const InlineMediaContentSchema = z
  .object({ type: z.enum(['image', 'audio']), data: base64, mimeType: safeString().min(1).max(128), annotations: AnnotationsSchema.optional() })
  .strict();
/**
 * A URI template binding's allow-list: the expansion must start with one of these
 * prefixes. Each names at least a scheme, so no list allows everything.
 */
export const AllowListSchema = z
  .array(UriSchema.regex(/^[A-Za-z][A-Za-z0-9+.-]*:/, 'each allowed prefix starts with a scheme, e.g. docs:// or file:///project/'))
  .min(1)
  .max(LIMITS.allowPrefixes)
  .meta({ id: 'AllowList', description: 'URI template bindings only: the URIs the template may expand to, by prefix. Without it, a template binding reaches only public resources and resource template expansions.' });

export const ResourceContentSchema = z
  .object({ type: z.literal('resource'), uri: UriSchema, allow: AllowListSchema.optional(), annotations: AnnotationsSchema.optional() })
  .strict();
export const ResourceLinkContentSchema = z
  .object({ type: z.literal('resource_link'), uri: UriSchema, allow: AllowListSchema.optional(), annotations: AnnotationsSchema.optional() })
  .strict();

/** Splices another prompt's rendered messages here (composition); see docs/contracts.md. */
export const IncludeContentSchema = z
  .object({
    type: z.literal('include'),
    prompt: PromptNameSchema,
    label: SettableLabelSchema.optional(),
    version: z.number().int().min(1).max(LIMITS.intMax).optional(),
    arguments: z.record(ArgumentNameSchema, safeString().max(LIMITS.argumentValueLength)).optional().meta({ description: 'the included prompt\'s argument name → a template over this prompt\'s arguments, e.g. {"topic": "{{subject}}"}' }),
  })
  .strict()
  .refine((c) => c.label === undefined || c.version === undefined, { message: 'pin an include by label or by version, not both', path: ['version'] });

export const ContentSchema = z
  .union([TextContentSchema, StoredMediaContentSchema, InlineMediaContentSchema, ResourceContentSchema, ResourceLinkContentSchema, IncludeContentSchema])
  .meta({ id: 'MessageContent' });

export const MessageSchema = z
  .object({ role: z.enum(['user', 'assistant']), content: ContentSchema })
  .strict()
  .meta({ id: 'Message' });

export const TestExpectationSchema = z
  .union([
    z.object({ contains: safeString().min(1).max(LIMITS.argumentValueLength) }).strict(),
    z.object({ notContains: safeString().min(1).max(LIMITS.argumentValueLength) }).strict(),
    z.object({ matches: safeString().min(1).max(512).meta({ description: 'a regular expression (RE2 syntax: linear time, no backreferences or lookaround), matched against the rendered text' }) }).strict(),
    z.object({ maxChars: z.number().int().min(1).max(LIMITS.intMax) }).strict(),
  ])
  .meta({ id: 'TestExpectation' });

export const TestCaseSchema = z
  .object({
    name: safeString().min(1).max(LIMITS.titleLength),
    arguments: z.record(ArgumentNameSchema, safeString().max(LIMITS.argumentValueLength)).default({}),
    expect: z.array(TestExpectationSchema).min(1).max(32),
  })
  .strict()
  .meta({ id: 'TestCase' });

export const VersionInputSchema = z
  .object({
    title: optionalText(LIMITS.titleLength),
    description: optionalText(LIMITS.descriptionLength),
    icons: z.array(IconSchema).max(16).nullish(),
    note: optionalText(LIMITS.noteLength),
    arguments: z.array(ArgumentSchema).max(LIMITS.argumentsPerVersion).default([]),
    messages: z.array(MessageSchema).min(1, 'a prompt needs at least one message').max(LIMITS.messagesPerVersion),
    tests: z.array(TestCaseSchema).max(100).optional().meta({ description: 'test cases, immutable with the version; run by /check and before a protected label moves' }),
    activate: z.boolean().optional(),
    force: z.boolean().optional().meta({ description: 'with activate: an admin moves production even if the checks fail (recorded in the change log)' }),
  })
  .strict()
  .meta({ id: 'VersionInput' });

export const CreatePromptInputSchema = VersionInputSchema.extend({ name: PromptNameSchema, tags: TagsSchema.optional() }).meta({ id: 'CreatePromptInput' });

export const UpdatePromptInputSchema = z
  .object({ name: PromptNameSchema.optional(), archived: z.boolean().optional(), tags: TagsSchema.optional() })
  .strict()
  .meta({ id: 'UpdatePromptInput' });

// MCP sends strings; a JSON body may also send numbers and booleans for typed arguments.
export const ArgumentValuesSchema = z.record(z.string().max(256), z.union([z.string().max(LIMITS.argumentValueLength), z.number(), z.boolean()]))
  .meta({ id: 'ArgumentValues', description: 'argument name → value; strings are parsed by the argument\'s type ("3", "true"), numbers and booleans are taken as they are' });

export const RenderInputSchema = z
  .object({
    version: z.number().int().min(1).max(LIMITS.intMax).optional(),
    arguments: ArgumentValuesSchema.default({}),
    // An author looking at a prompt is not a client using it: the admin UI's previews set this, so
    // they never count as usage nor make a dead prompt look "recently used".
    preview: z.boolean().optional().meta({ description: 'true: an author\'s preview, not counted as usage' }),
  })
  .strict()
  .meta({ id: 'RenderInput' });

/** Printable: no control, format (bidi) or separator characters but inner spaces, so a listing cannot be forged. */
const PRINTABLE = '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}';
export const TokenNameSchema = z
  .string()
  .min(1, 'a token needs a name')
  .max(LIMITS.tokenNameLength, `token names are at most ${LIMITS.tokenNameLength} characters`)
  .regex(new RegExp(`^[${PRINTABLE}](?:[${PRINTABLE} ]*[${PRINTABLE}])?$`, 'u'), 'token names are printable: letters, digits, punctuation, symbols and inner spaces (no control characters, no leading or trailing space)')
  .meta({ id: 'TokenName', example: 'ci-bot' });

export const ResourceVisibilitySchema = z.enum(['public', 'bound']).meta({ id: 'ResourceVisibility' });

export const ResourceInputSchema = z
  .object({
    uri: StoredUriSchema,
    name: safeString().min(1).max(LIMITS.titleLength),
    title: optionalText(LIMITS.titleLength),
    description: optionalText(LIMITS.descriptionLength),
    mimeType: safeString().min(1).max(128),
    text: safeString().max(LIMITS.resourceBytes).optional(),
    blob: base64.optional(),
    visibility: ResourceVisibilitySchema.optional().meta({ description: 'public: listed and readable over MCP; bound (default for new resources; an update without it keeps the current value): only embedded through a served prompt\'s binding' }),
  })
  .strict()
  .refine((r) => (r.text === undefined) !== (r.blob === undefined), { message: 'give exactly one of text or blob', path: ['text'] })
  .meta({ id: 'ResourceInput' });

export const ResourceTemplateInputSchema = z
  .object({
    uriTemplate: StoredUriSchema,
    name: safeString().min(1).max(LIMITS.titleLength),
    title: optionalText(LIMITS.titleLength),
    description: optionalText(LIMITS.descriptionLength),
    mimeType: safeString().min(1).max(128),
    text: safeString().max(LIMITS.resourceBytes),
  })
  .strict()
  .meta({ id: 'ResourceTemplateInput' });

export const SetLabelInputSchema = z
  .object({
    version: z.number().int().min(1).max(LIMITS.intMax),
    force: z.boolean().optional().meta({ description: 'protected labels: move even if the version\'s checks fail (admin; recorded in the change log)' }),
  })
  .strict()
  .meta({ id: 'SetLabelInput' });

export const PromoteInputSchema = z
  .object({
    to: SettableLabelSchema,
    prompts: z.array(PromptNameSchema).max(10_000).optional(),
    dryRun: z.boolean().optional(),
    force: z.boolean().optional().meta({ description: 'protected target: promote even if checks fail (admin; recorded in the change log)' }),
  })
  .strict()
  .meta({ id: 'PromoteInput' });

export type SetLabelInput = z.infer<typeof SetLabelInputSchema>;
export type PromoteInput = z.infer<typeof PromoteInputSchema>;
export type Icon = z.infer<typeof IconSchema>;
export type Annotations = z.infer<typeof AnnotationsSchema>;
export type ArgumentInput = z.infer<typeof ArgumentSchema>;
export type ArgumentType = z.infer<typeof ArgumentTypeSchema>;
export type IncludeContent = z.infer<typeof IncludeContentSchema>;
export type TestExpectation = z.infer<typeof TestExpectationSchema>;
export type TestCase = z.infer<typeof TestCaseSchema>;
export type ContentInput = z.infer<typeof ContentSchema>;
export type MessageInput = z.infer<typeof MessageSchema>;
export type VersionInput = z.infer<typeof VersionInputSchema>;
export type CreatePromptInput = z.infer<typeof CreatePromptInputSchema>;
export type UpdatePromptInput = z.infer<typeof UpdatePromptInputSchema>;
export type RenderInput = z.infer<typeof RenderInputSchema>;
export type ResourceInput = z.infer<typeof ResourceInputSchema>;
export type ResourceTemplateInput = z.infer<typeof ResourceTemplateInputSchema>;
