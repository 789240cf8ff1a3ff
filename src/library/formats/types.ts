// Shared shapes of the format converters (docs/formats.md). Converters are pure: text
// in, validated API inputs out; reading directories and writing the database is the
// caller's job, so the same converters serve the CLI, a future REST endpoint and tests.
import type { VersionInput } from '../../core/index.js';
import type { FileProblem, ParsedPrompt } from '../read-library.js';

export const FORMAT_IDS = ['promptd', 'claude-commands', 'prompt-md', 'dotprompt', 'prompty', 'langfuse'] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

export const isFormatId = (s: string): s is FormatId => (FORMAT_IDS as readonly string[]).includes(s);

export interface SourceFile {
  /** relative to the import root, `/`-separated: `.claude/commands/git/commit.md` */
  path: string;
  text: string;
}

export interface FormatWarning {
  file: string;
  /** 1-based line in the source file, when the warning is about one place */
  line?: number;
  message: string;
}

/**
 * What promptd has no field for, kept so an export in the same format can restore it
 * (and so a later schema change can store it). Nothing here changes what MCP serves.
 */
export interface PromptMeta {
  format: FormatId;
  /** the file the prompt came from */
  source: string;
  /** message index → the role it had before mapping to MCP's user/assistant (`system`, `developer`, …) */
  roles?: Record<number, string>;
  model?: unknown;
  labels?: string[];
  tags?: string[];
  config?: unknown;
  version?: number;
  /** argument name → default value (`input.default`, Prompty `default`) */
  defaults?: Record<string, unknown>;
  /** format-specific fields kept verbatim (front matter keys, original names, schema types) */
  extra?: Record<string, unknown>;
}

export interface ImportedPrompt extends ParsedPrompt {
  meta: PromptMeta;
}

export interface FormatReadResult {
  prompts: ImportedPrompt[];
  warnings: FormatWarning[];
  problems: FileProblem[];
}

/** The prompt handed to `write`: an imported prompt, or a stored version plus whatever meta is known. */
export interface ExportPrompt {
  name: string;
  input: Pick<VersionInput, 'title' | 'description' | 'note' | 'arguments' | 'messages' | 'tests'>;
  meta?: Partial<PromptMeta>;
}

export interface FormatWriteResult {
  files: SourceFile[];
  /** what the target format cannot say (titles, choices, roles, …), per prompt */
  warnings: FormatWarning[];
}

export interface PromptFormat {
  id: FormatId;
  /** whether a file of this path is one this format reads when the format is given explicitly */
  accepts(path: string): boolean;
  read(files: SourceFile[]): FormatReadResult;
  write(prompt: ExportPrompt): FormatWriteResult;
}
