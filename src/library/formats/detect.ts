// `--format auto`: which converter reads a file, from its extension, where it lives
// and what its front matter says. A file no rule claims is skipped (a README.md is
// not a prompt), and the caller lists it.
import { splitFrontMatter } from './common.js';
import type { FormatId, SourceFile } from './types.js';

const CLAUDE_KEYS = ['argument-hint', 'allowed-tools', 'disable-model-invocation'];
const VSCODE_KEYS = ['mode', 'agent', 'tools'];

function frontMatterKeys(text: string): string[] {
  try {
    return Object.keys(splitFrontMatter(text).data);
  } catch {
    return [];
  }
}

/** Whether JSON text looks like Langfuse prompts (`name` + `prompt`), alone, in a list or under `data`. */
function isLangfuse(text: string): boolean {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    // Broken JSON in a Langfuse-looking file still goes to the Langfuse reader, which reports it.
    return /"prompt"\s*:/.test(text) && /"name"\s*:/.test(text);
  }
  const first = Array.isArray(v) ? v[0] : v && typeof v === 'object' && Array.isArray((v as { data?: unknown }).data) ? (v as { data: unknown[] }).data[0] : v;
  return Boolean(first && typeof first === 'object' && 'name' in first && 'prompt' in first);
}

export function detectFormat(file: SourceFile): FormatId | undefined {
  const p = file.path.replace(/\\/g, '/');
  const lower = p.toLowerCase();
  if (lower.endsWith('.prompty')) return 'prompty';
  if (lower.endsWith('.prompt')) return 'dotprompt';
  if (lower.endsWith('.prompt.md')) return 'prompt-md';
  if (lower.endsWith('.json')) return isLangfuse(file.text) ? 'langfuse' : /"messages"\s*:/.test(file.text) ? 'promptd' : undefined;
  if (/\.ya?ml$/.test(lower)) return /^\s*(name|messages)\s*:/m.test(file.text) && !lower.endsWith('resources.yaml') ? 'promptd' : undefined;
  if (!lower.endsWith('.md')) return undefined;
  if (/(^|\/)\.claude\/commands\//.test(p) || /(^|\/)\.claude\/skills\/[^/]+\/SKILL\.md$/.test(p)) return 'claude-commands';
  if (/(^|\/)\.github\/prompts\//.test(p)) return 'prompt-md';
  const keys = frontMatterKeys(file.text);
  if (keys.some((k) => CLAUDE_KEYS.includes(k))) return 'claude-commands';
  if (keys.some((k) => VSCODE_KEYS.includes(k))) return 'prompt-md';
  if (/\$\{input:[^}]+\}/.test(file.text)) return 'prompt-md';
  if (/\$(ARGUMENTS|[1-9])(?![0-9])/.test(file.text)) return 'claude-commands';
  return undefined;
}
