import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import { importFormatFiles } from '../../library/format-import.js';
import type { FormatId } from '../../library/formats/index.js';
import { actorOf, type AuthEnv } from '../auth.js';
import { unzipFiles } from './import-zip.js';
import { FilePathSchema, IMPORT_MAX_FILES, IMPORT_MAX_UNZIPPED } from './import.routes.js';
import type * as routes from './import.routes.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const formatsMatch: Same<(typeof routes.IMPORT_FORMATS)[number], FormatId | 'auto'> = true;

type H<R extends keyof typeof routes> = RouteHandler<Extract<(typeof routes)[R], { method: string }>, AuthEnv>;

/** A Langfuse list's entries are reported as `prompts.json[1]`; their warnings name `prompts.json`. */
const sourceOf = (file: string) => file.replace(/\[\d+\]$/, '');

const checkPath = (p: string) => {
  const r = FilePathSchema.safeParse(p);
  return r.success ? null : r.error.issues.map((i) => i.message).join('; ');
};

export function createHandlers(core: Core) {
  const importFiles: H<'importFiles'> = async (c) => {
    const { format, dryRun } = c.req.valid('query');
    const { files: sent, zip, activate, label, continueOnError } = c.req.valid('json');
    const files = sent ?? unzipFiles(zip!, { maxFiles: IMPORT_MAX_FILES, maxBytes: IMPORT_MAX_UNZIPPED, checkPath });
    const r = await importFormatFiles(core, { root: '(upload)', files }, format, { dryRun: dryRun === 'true', activate, label, continueOnError, actor: actorOf(c) });
    const prompts = r.prompts.map(({ write: _w, ...p }) => ({ ...p, warnings: r.warnings.filter((w) => w.file === sourceOf(p.file)) }));
    const { created, newVersion, unchanged, activated, errors } = r.counts;
    return c.json({ format, dryRun: r.dryRun, applied: r.applied, failed: r.failed, counts: { created, newVersion, unchanged, activated, errors }, prompts, warnings: r.warnings, skipped: r.skipped }, 200);
  };
  return { importFiles };
}
