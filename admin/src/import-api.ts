// POST /admin/v1/import through api.ts's typed client: prompt files → dry-run plan or import.
import { client, request } from './api';
import type { Body, Ok } from './types';

type Endpoint = (typeof client)['import']['$post'];
export type ImportResult = Ok<Endpoint>;
export type ImportPlanItem = ImportResult['prompts'][number];
export type ImportFile = NonNullable<Body<Endpoint>['files']>[number];
/** What one import sends: picked files, or one zip archive (base64) the server unpacks. */
export type ImportSource = { files: ImportFile[] } | { zip: string };
export const IMPORT_FORMATS = ['auto', 'claude-commands', 'prompt-md', 'dotprompt', 'prompty', 'langfuse', 'promptd'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const importApi = {
  run: (source: ImportSource, format: ImportFormat, opts: { dryRun: boolean; activate: boolean; continueOnError: boolean }) =>
    request(client.import.$post, {
      query: { format, dryRun: opts.dryRun ? 'true' : 'false' },
      json: { ...source, activate: opts.activate, continueOnError: opts.continueOnError },
    }).then((r) => r.data),
};
