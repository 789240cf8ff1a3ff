// The library file format (docs/library-format.md): zod schemas for what a person
// writes, and the mapping between that and the core's VersionInput / Version shapes.
// The file shape is flatter than the API (`text: …` instead of
// `content: {type: text, text: …}`) because people edit these files by hand.
import { z } from 'zod';
import { AnnotationsSchema, ArgumentSchema, IconSchema, LabelNameSchema, LATEST, PRODUCTION, TagsSchema, TestCaseSchema, type MessageInput, type TestCase, type VersionInput } from '../core/schemas.js';
import type { Version } from '../core/types.js';

/** Inline media kept beside the prompt files: `image: {file: media/x.png, mimeType: image/png}`. */
export const InlineMediaFileSchema = z.object({ file: z.string().min(1), mimeType: z.string().min(1) }).strict();
export type InlineMediaFile = z.infer<typeof InlineMediaFileSchema>;

const CONTENT_KEYS = ['text', 'image', 'audio', 'resource', 'resource_link', 'include'] as const;

/** `include: {prompt: house-style, label?: staging, version?: 3, arguments?: {topic: "{{subject}}"}}` (docs/contracts.md#includes). */
export const FileIncludeSchema = z
  .object({ prompt: z.string().min(1), label: z.string().optional(), version: z.number().int().min(1).optional(), arguments: z.record(z.string(), z.string()).optional() })
  .strict();
type ContentKey = (typeof CONTENT_KEYS)[number];

export const FileMessageSchema = z
  .object({
    role: z.enum(['user', 'assistant']),
    text: z.string().optional(),
    image: z.union([z.string().min(1), InlineMediaFileSchema]).optional(),
    audio: z.union([z.string().min(1), InlineMediaFileSchema]).optional(),
    resource: z.string().min(1).optional(),
    resource_link: z.string().min(1).optional(),
    include: FileIncludeSchema.optional(),
    // URI template bindings: the prefixes the expansion may start with (docs/library-format.md).
    allow: z.array(z.string().min(1)).min(1).optional(),
    annotations: AnnotationsSchema.optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (m.allow && m.resource === undefined && m.resource_link === undefined) {
      ctx.addIssue({ code: 'custom', path: ['allow'], message: 'allow goes with a resource or resource_link URI template' });
    }
    const present = CONTENT_KEYS.filter((k) => m[k] !== undefined);
    if (present.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: present.length ? `give exactly one content part, not ${present.join(' and ')}` : `give one content part: ${CONTENT_KEYS.join(', ')}`,
      });
    }
  });
export type FileMessage = z.infer<typeof FileMessageSchema>;

/** Labels pointing at a version: `labels: [production, staging]`. */
export const FileLabelsSchema = z.array(LabelNameSchema).max(100).refine((ls) => new Set(ls).size === ls.length, { message: 'a label appears twice' })
  .refine((ls) => !ls.includes(LATEST), { message: '"latest" always means the newest version and cannot be set' });

// The fields of one version, in file order; `version` only appears in history files.
const versionFields = {
  title: z.string().nullish(),
  description: z.string().nullish(),
  icons: z.array(IconSchema).nullish(),
  note: z.string().nullish(),
  arguments: z.array(ArgumentSchema).nullish(),
  messages: z.array(FileMessageSchema),
  // Test cases, versioned with the version (docs/contracts.md, Test cases and checks).
  tests: z.array(TestCaseSchema).nullish(),
};

export const PromptFileSchema = z.object({ name: z.string(), tags: TagsSchema.optional(), labels: FileLabelsSchema.optional(), ...versionFields }).strict();
export type PromptFile = z.infer<typeof PromptFileSchema>;

export const FileVersionSchema = z.object({ version: z.number().int().min(1), labels: FileLabelsSchema.optional(), ...versionFields }).strict();
export type FileVersion = z.infer<typeof FileVersionSchema>;

/**
 * `--all-versions` export: the whole history with each version's labels. `active: N`
 * (files written before labels) means `labels: [production]` on version N.
 */
export const HistoryFileSchema = z
  .object({ name: z.string(), tags: TagsSchema.optional(), active: z.number().int().min(1).nullish(), versions: z.array(FileVersionSchema).min(1) })
  .strict()
  .superRefine((h, ctx) => {
    h.versions.forEach((v, i) => {
      if (i > 0 && v.version <= h.versions[i - 1]!.version) {
        ctx.addIssue({ code: 'custom', path: ['versions', i, 'version'], message: 'version numbers must increase' });
      }
    });
    if (h.active != null && !h.versions.some((v) => v.version === h.active)) {
      ctx.addIssue({ code: 'custom', path: ['active'], message: `no version ${h.active} in versions` });
    }
    const seen = new Map<string, number>();
    h.versions.forEach((v, i) => {
      for (const l of v.labels ?? []) {
        if (seen.has(l)) ctx.addIssue({ code: 'custom', path: ['versions', i, 'labels'], message: `label "${l}" is also on version ${seen.get(l)}` });
        seen.set(l, v.version);
      }
    });
    if (h.active != null && seen.has(PRODUCTION) && seen.get(PRODUCTION) !== h.active) {
      ctx.addIssue({ code: 'custom', path: ['active'], message: `active: ${h.active} contradicts the production label on version ${seen.get(PRODUCTION)}` });
    }
  });
export type HistoryFile = z.infer<typeof HistoryFileSchema>;

export const ManifestResourceSchema = z
  .object({
    uri: z.string(),
    name: z.string(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    mimeType: z.string(),
    file: z.string().min(1).optional(),
    // Small text resources may be written inline instead of as a file.
    text: z.string().optional(),
    // Overrides the mimeType rule (isTextMime) for how `file` is read: true = bytes.
    binary: z.boolean().optional(),
    // public: listed and readable over MCP; bound (default): only through a served prompt's binding
    visibility: z.enum(['public', 'bound']).optional(),
  })
  .strict()
  .refine((r) => (r.file === undefined) !== (r.text === undefined), { message: 'give exactly one of file or text', path: ['file'] });
export type ManifestResource = z.infer<typeof ManifestResourceSchema>;

export const ManifestTemplateSchema = z
  .object({
    uriTemplate: z.string(),
    name: z.string(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    mimeType: z.string(),
    text: z.string(),
  })
  .strict();
export type ManifestTemplate = z.infer<typeof ManifestTemplateSchema>;

export const ManifestSchema = z
  .object({ resources: z.array(z.unknown()).nullish(), resourceTemplates: z.array(z.unknown()).nullish() })
  .strict();

/** Text resources are read and written as UTF-8; everything else as bytes (a base64 `blob`). */
export function isTextMime(mimeType: string): boolean {
  const m = mimeType.toLowerCase().split(';')[0]!.trim();
  if (m.startsWith('text/')) return true;
  if (m.endsWith('+json') || m.endsWith('+xml') || m.endsWith('+yaml')) return true;
  return [
    'application/json', 'application/xml', 'application/yaml', 'application/x-yaml', 'application/javascript',
    'application/ecmascript', 'application/x-javascript', 'application/typescript', 'application/x-typescript',
    'application/toml', 'application/sql', 'application/x-sh', 'application/graphql',
  ].includes(m);
}

/** Reads an inline media file (of message `index`); injected so this module stays free of I/O. */
export type MediaReader = (media: InlineMediaFile, index: number) => string;

/** File message → API message. Inline media is read through `readMedia` (base64). */
export function toMessageInput(m: FileMessage, readMedia: MediaReader, index = 0): MessageInput {
  const annotations = m.annotations ? { annotations: m.annotations } : {};
  const key = CONTENT_KEYS.find((k) => m[k] !== undefined) as ContentKey;
  switch (key) {
    case 'text':
      return { role: m.role, content: { type: 'text', text: m.text!, ...annotations } };
    case 'image':
    case 'audio': {
      const v = m[key]!;
      if (typeof v === 'string') return { role: m.role, content: { type: key, resourceUri: v, ...annotations } };
      return { role: m.role, content: { type: key, data: readMedia(v, index), mimeType: v.mimeType, ...annotations } };
    }
    case 'resource':
      return { role: m.role, content: { type: 'resource', uri: m.resource!, ...(m.allow ? { allow: m.allow } : {}), ...annotations } };
    case 'include':
      // Annotations belong to the spliced messages; the schema refuses them here.
      return { role: m.role, content: { type: 'include', ...m.include!, ...annotations } as MessageInput['content'] };
    default:
      return { role: m.role, content: { type: 'resource_link', uri: m.resource_link!, ...(m.allow ? { allow: m.allow } : {}), ...annotations } };
  }
}

type VersionFields = Omit<PromptFile, 'name' | 'labels'>;

/** One version's file fields → the (unvalidated) API input. */
export function toVersionInput(v: VersionFields, readMedia: MediaReader): Record<string, unknown> {
  return {
    title: v.title ?? null,
    description: v.description ?? null,
    icons: v.icons ?? null,
    note: v.note ?? null,
    arguments: v.arguments ?? [],
    messages: v.messages.map((m, i) => toMessageInput(m, readMedia, i)),
    ...(v.tests?.length ? { tests: v.tests } : {}),
  };
}

/** Writes inline media somewhere and returns how the file refers to it. */
export type MediaWriter = (data: string, mimeType: string) => InlineMediaFile;

/** Version → plain object with keys in format order; omits empty optional fields so output diffs well. */
export function fromVersion(v: Pick<Version, 'title' | 'description' | 'icons' | 'note' | 'arguments' | 'messages'> & { tests?: TestCase[] }, writeMedia: MediaWriter) {
  const out: Record<string, unknown> = {};
  if (v.title != null) out.title = v.title;
  if (v.description != null) out.description = v.description;
  if (v.icons?.length) out.icons = v.icons.map((i) => ({ src: i.src, ...(i.mimeType ? { mimeType: i.mimeType } : {}), ...(i.sizes ? { sizes: i.sizes } : {}) }));
  if (v.note != null) out.note = v.note;
  out.arguments = v.arguments.map((a) => ({
    name: a.name,
    ...(a.type && a.type !== 'string' ? { type: a.type } : {}),
    ...(a.title != null ? { title: a.title } : {}),
    ...(a.description != null ? { description: a.description } : {}),
    required: a.required,
    ...(a.choices ? { choices: a.choices } : {}),
    ...(a.maxLength != null ? { maxLength: a.maxLength } : {}),
    ...(a.default != null ? { default: a.default } : {}),
  }));
  out.messages = v.messages.map((m) => {
    const c = m.content;
    const msg: Record<string, unknown> = { role: m.role };
    if (c.type === 'include') {
      msg.include = includeFile(c);
      return msg;
    }
    if (c.type === 'text') msg.text = c.text;
    else if ('data' in c) msg[c.type] = writeMedia(c.data, c.mimeType);
    else if ('resourceUri' in c) msg[c.type] = c.resourceUri;
    else msg[c.type] = c.uri;
    if ('allow' in c && c.allow) msg.allow = c.allow;
    const ann = canonicalAnnotations(c.annotations);
    if (ann) msg.annotations = ann;
    return msg;
  });
  if (v.tests?.length) out.tests = v.tests.map((t) => ({ name: t.name, arguments: t.arguments ?? {}, expect: t.expect }));
  return out;
}

/** An include message's file fields, in a fixed key order (content identity compares them). */
function includeFile(c: Extract<MessageInput['content'], { type: 'include' }>): Record<string, unknown> {
  return {
    prompt: c.prompt,
    ...(c.label !== undefined ? { label: c.label } : {}),
    ...(c.version !== undefined ? { version: c.version } : {}),
    ...(c.arguments ? { arguments: Object.fromEntries(Object.entries(c.arguments).sort(([a], [b]) => (a < b ? -1 : 1))) } : {}),
  };
}

function canonicalAnnotations(a: { audience?: string[]; priority?: number } | undefined) {
  if (!a || (a.audience === undefined && a.priority === undefined)) return undefined;
  return { ...(a.audience !== undefined ? { audience: a.audience } : {}), ...(a.priority !== undefined ? { priority: a.priority } : {}) };
}

/**
 * Content identity of a version: what `import` compares to decide whether a file is a
 * new version. The change note is deliberately left out: a note alone changes nothing served.
 */
export function contentKey(v: Pick<VersionInput, 'title' | 'description' | 'icons' | 'arguments' | 'messages'> & { tests?: TestCase[] }): string {
  return JSON.stringify({
    title: v.title ?? null,
    description: v.description ?? null,
    icons: v.icons?.length ? v.icons.map((i) => [i.src, i.mimeType ?? null, i.sizes ?? null]) : null,
    // Type and default only when set, so the key of an untyped version stays what it was.
    arguments: v.arguments.map((a) => [a.name, a.title ?? null, a.description ?? null, Boolean(a.required), a.choices ?? null, a.maxLength ?? null,
      ...(a.type && a.type !== 'string' ? [a.type] : []), ...(a.default != null ? [{ default: a.default }] : [])]),
    messages: v.messages.map((m) => {
      const c = m.content;
      if (c.type === 'include') return [m.role, c.type, includeFile(c)];
      const body = c.type === 'text' ? c.text : 'data' in c ? [c.mimeType, c.data] : 'resourceUri' in c ? c.resourceUri : c.uri;
      const allow = 'allow' in c && c.allow ? c.allow : null;
      return [m.role, c.type, body, canonicalAnnotations(c.annotations) ?? null, ...(allow ? [allow] : [])];
    }),
    // Only when there are some: versions without test cases keep the key they always had.
    ...(v.tests?.length ? { tests: v.tests.map((t) => [t.name, t.arguments ?? {}, t.expect]) } : {}),
  });
}
