import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { SettableLabelSchema } from '../../core/schemas.js';
import { ProblemSchema, body, errorResponses, json } from '../schemas.js';

const tags = ['Import'];
// The converters' ids (library/formats/types.ts FORMAT_IDS), spelled out so the admin UI's
// type check does not reach the library; import.handlers.ts fails to compile if they drift.
export const IMPORT_FORMATS = ['auto', 'promptd', 'claude-commands', 'prompt-md', 'dotprompt', 'prompty', 'langfuse'] as const;
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ProblemSchema } } });

/** Files in one request; the body limit (16 MiB) caps their size together. */
export const IMPORT_MAX_FILES = 2000;
export const IMPORT_MAX_PATH = 512;
/** A zip's entries unpacked, together: the admin body limit, so a zip holds no more than the files form. */
export const IMPORT_MAX_UNZIPPED = 16 * 1024 * 1024;

// Paths only name files (nothing is read or written on the server), but they drive
// format detection and appear in reports, so they are held to a relative, plain form.
export const FilePathSchema = z
  .string()
  .min(1)
  .max(IMPORT_MAX_PATH)
  .refine((p) => !p.startsWith('/') && !/^[a-zA-Z]:/.test(p), 'must be relative')
  .refine((p) => !p.includes('\\') && !p.split('/').some((s) => s === '' || s === '.' || s === '..'), 'must be a plain relative path with `/` separators and no `.`, `..` or empty segments')
  // eslint-disable-next-line no-control-regex
  .refine((p) => !/[\u0000-\u001f\u007f]/.test(p), 'must not contain control characters');

export const ImportQuerySchema = z.object({
  format: z.enum(IMPORT_FORMATS).default('auto').meta({ description: 'the files\' format; auto detects it per file (extension, location, front matter)' }),
  dryRun: z.enum(['true', 'false']).default('false').meta({ description: 'true: return the plan and write nothing' }),
});

export const ImportInputSchema = z
  .object({
    files: z.array(z.object({ path: FilePathSchema, text: z.string() }).strict()).min(1, 'send at least one file').max(IMPORT_MAX_FILES).optional(),
    zip: z
      .string()
      .min(1)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64')
      .optional()
      .meta({ description: `a zip archive (base64) instead of files: its entries are the files, under the same limits, at most ${IMPORT_MAX_UNZIPPED} bytes unpacked; folders and __MACOSX/ are skipped` }),
    activate: z.boolean().optional().meta({ description: 'serve the imported (or unchanged latest) version' }),
    label: SettableLabelSchema.optional().meta({ description: 'put the imported version under this label instead of production' }),
    continueOnError: z.boolean().optional().meta({ description: 'write the files that are fine (one transaction each); default: any error writes nothing' }),
  })
  .strict()
  .refine((b) => b.files !== undefined || b.zip !== undefined, { path: ['files'], message: 'send `files` or `zip`' })
  .refine((b) => b.files === undefined || b.zip === undefined, { path: ['zip'], message: 'send either `files` or `zip`, not both' })
  .meta({ id: 'ImportInput' });

const WarningSchema = z.object({ file: z.string(), line: z.number().int().optional(), message: z.string() }).meta({ id: 'ImportWarning' });
const FieldErrorSchema = z.object({ path: z.string(), message: z.string() });

const ImportPlanItemSchema = z
  .object({
    file: z.string(),
    name: z.string().optional(),
    action: z.enum(['create', 'new-version', 'unchanged', 'error']),
    latest: z.number().int().optional().meta({ description: 'latest version before the import' }),
    creates: z.array(z.number().int()).optional().meta({ description: 'version numbers the import creates' }),
    activate: z.number().int().optional(),
    label: z.string().optional(),
    labels: z.record(z.string(), z.number().int()).optional(),
    note: z.string().optional(),
    errors: z.array(FieldErrorSchema).optional(),
    warnings: z.array(WarningSchema).meta({ description: "this file's warnings: what the format cannot represent exactly" }),
  })
  .meta({ id: 'ImportPlanItem' });

export const ImportResultSchema = z
  .object({
    format: z.string(),
    dryRun: z.boolean(),
    applied: z.boolean().meta({ description: 'false for a dry run, and when errors stopped the whole import' }),
    failed: z.boolean(),
    counts: z.object({ created: z.number().int(), newVersion: z.number().int(), unchanged: z.number().int(), activated: z.number().int(), errors: z.number().int() }),
    prompts: z.array(ImportPlanItemSchema),
    warnings: z.array(WarningSchema),
    skipped: z.array(z.string()).meta({ description: 'files no converter claimed' }),
  })
  .meta({ id: 'ImportResult' });

export const importFiles = createRoute({
  method: 'post', path: '/import', tags,
  summary: 'Import prompt files (Claude commands, prompt.md, Dotprompt, Prompty, Langfuse, promptd) through the library planner; dryRun returns the plan',
  description: `Files as \`files\` or a base64 zip as \`zip\` (exactly one). Up to ${IMPORT_MAX_FILES} files, paths up to ${IMPORT_MAX_PATH} characters, within the admin body limit. Without continueOnError the import is one transaction: any file with an error means nothing is written (applied: false). Importing unchanged files changes nothing.`,
  request: { query: ImportQuerySchema, ...body(ImportInputSchema) },
  responses: {
    200: json(ImportResultSchema, 'The plan (dryRun) or what was written; per-file errors are in the items, not a failure of the request'),
    400: problem('Invalid format or dryRun'), 401: errorResponses[401], 413: problem('The body is over the admin body limit'), 422: errorResponses[422],
  },
});

