// Langfuse prompts as JSON (the shape of its prompt API): one prompt object, a list
// of them, or `{data: [...]}`. `text` prompts are one user message; `chat` prompts a
// list of `{role, content}` (and `{type: placeholder, name}`). Variables are `{{var}}`
// and are not declared, so every variable becomes a required argument.
import { z } from 'zod';
import type { MessageInput } from '../../core/index.js';
import { ConvertError, defined, fail, finish, lineAt, lossWarnings, mcpRole, readEach, roleMap, text, toPromptName, usedVariables } from './common.js';
import { nonVariableTags } from './tags.js';
import type { ExportPrompt, FormatReadResult, FormatWarning, ImportedPrompt, PromptFormat, SourceFile } from './types.js';

const ChatMessage = z.union([
  z.object({ type: z.literal('placeholder'), name: z.string().min(1) }).passthrough(),
  z.object({ type: z.literal('chatmessage').optional(), role: z.string().min(1), content: z.string() }).passthrough(),
]);

const LangfusePrompt = z
  .object({
    name: z.string().min(1),
    type: z.enum(['text', 'chat']).optional(),
    prompt: z.union([z.string(), z.array(ChatMessage)]),
    config: z.unknown().optional(),
    labels: z.array(z.string()).optional(),
    tags: z.array(z.string()).optional(),
    version: z.number().int().optional(),
    commitMessage: z.string().nullish(),
  })
  .passthrough();

const REFERENCE = /@@@langfusePrompt:([^@]*?)@@@/g;
const PLACEHOLDER = /^\{\{!placeholder ([^}]+)\}\}$/;
const MAPPED = ['name', 'type', 'prompt', 'config', 'labels', 'tags', 'version', 'commitMessage'];

/** `@@@langfusePrompt:name=x|label=y@@@` → `{{!> x@y}}` (version=N → `{{!> x@N}}`). */
function references(s: string, at: (i: number) => number | undefined, warn: (line: number | undefined, m: string) => void, names: Record<string, string>): string {
  return s.replace(REFERENCE, (raw, params: string, index: number) => {
    const kv = Object.fromEntries(params.split('|').map((p) => p.split('=') as [string, string]).map(([k, v]) => [k.trim(), (v ?? '').trim()]));
    if (!kv.name) {
      warn(at(index), `${raw}: reference without a name kept verbatim`);
      return raw;
    }
    const suffix = kv.label ? `@${kv.label}` : kv.version ? `@${kv.version}` : '';
    if (toPromptName(kv.name) !== kv.name) names[toPromptName(kv.name)] = kv.name; // `support/tone`, written back on export
    warn(at(index), `${raw}: prompt reference kept as the comment {{!> ${toPromptName(kv.name)}${suffix}}} (renders nothing) until promptd composition resolves includes`);
    return `{{!> ${toPromptName(kv.name)}${suffix}}}`;
  });
}

function convert(file: SourceFile, raw: unknown, where: string, warn: (line: number | undefined, m: string) => void): ImportedPrompt {
  const parsed = LangfusePrompt.safeParse(raw);
  if (!parsed.success) throw new ConvertError(parsed.error.issues.map((i) => ({ path: `${where}${i.path.join('.')}` || '(file)', message: i.message })));
  const p = parsed.data;
  const type = p.type ?? (typeof p.prompt === 'string' ? 'text' : 'chat');
  if ((type === 'text') !== (typeof p.prompt === 'string')) fail(`${where}prompt`, `a ${type} prompt needs ${type === 'text' ? 'a string' : 'a list of messages'}`);
  // Lines are found by searching the file for the message text: JSON has no positions after parsing.
  const lineOf = (s: string, i: number) => {
    const at = file.text.indexOf(JSON.stringify(s).slice(1, -1));
    return at < 0 ? undefined : lineAt(file.text, at + i);
  };
  const roles: string[] = [];
  const messages: MessageInput[] = [];
  const referenced: Record<string, string> = {};
  const items = typeof p.prompt === 'string' ? [{ role: 'user', content: p.prompt }] : p.prompt;
  for (const m of items) {
    if ('name' in m && m.type === 'placeholder') {
      warn(undefined, `message placeholder "${m.name}" kept as a user message holding the comment {{!placeholder ${m.name}}} (renders nothing); export restores it`);
      roles.push('placeholder');
      messages.push(text('user', `{{!placeholder ${m.name}}}`));
      continue;
    }
    const cm = m as { role: string; content: string };
    roles.push(cm.role);
    messages.push(text(mcpRole(cm.role, (msg) => warn(lineOf(cm.content, 0), msg)), references(cm.content, (i) => lineOf(cm.content, i), warn, referenced)));
  }
  const variables = usedVariables(messages.map((m) => (m.content.type === 'text' ? m.content.text : '')));
  const extra: Record<string, unknown> = { type };
  if (p.name !== toPromptName(p.name)) extra.name = p.name;
  if (Object.keys(referenced).length) extra.references = referenced;
  for (const [k, v] of Object.entries(p)) if (!MAPPED.includes(k)) extra[k] = v;
  for (const k of Object.keys(extra)) if (!['type', 'name', 'references'].includes(k)) warn(undefined, `"${k}" has no promptd field; kept in metadata`);
  return finish(file.path, toPromptName(p.name), {
    note: p.commitMessage ?? null,
    arguments: variables.map((v) => ({ name: v, required: true })),
    messages,
  }, {
    format: 'langfuse',
    source: file.path,
    ...defined({ labels: p.labels, tags: p.tags, config: p.config, version: p.version, roles: roleMap(roles.map((r) => (r === 'placeholder' ? 'user' : r))) }),
    extra,
  });
}

function read(files: SourceFile[]): FormatReadResult {
  return readEach(files, (f, warn, problem) => {
    let data: unknown;
    try {
      data = JSON.parse(f.text);
    } catch (e) {
      const msg = (e as Error).message;
      const line = /line (\d+) column/.exec(msg)?.[1] ?? (/position (\d+)/.exec(msg) ? String(lineAt(f.text, Number(/position (\d+)/.exec(msg)![1]))) : undefined);
      fail(line ? `line ${line}` : '(file)', `not JSON: ${msg.split('\n')[0]}`);
    }
    const list = Array.isArray(data) ? data : data && typeof data === 'object' && Array.isArray((data as { data?: unknown }).data) ? (data as { data: unknown[] }).data : [data];
    // One file may hold many prompts; each stands alone, so one bad entry does not hide the rest.
    const out: ImportedPrompt[] = [];
    const many = list.length > 1 || Array.isArray(data);
    list.forEach((raw, i) => {
      try {
        out.push(convert(f, raw, many ? `[${i}].` : '', warn));
      } catch (e) {
        if (!(e instanceof ConvertError)) throw e;
        problem(e.errors.map((x) => ({ ...x, path: !many || x.path.startsWith('[') ? x.path : `[${i}].${x.path}` })));
      }
    });
    return out;
  });
}

/** `{{!> x@y}}` → `@@@langfusePrompt:name=x|label=y@@@` (a numeric suffix is a version). */
const toReferences = (s: string, names: Record<string, string>) =>
  s.replace(/\{\{!>\s*([^@}\s]+)(?:@([^}\s]+))?\s*\}\}/g, (_m, n: string, l: string | undefined) =>
    `@@@langfusePrompt:name=${Object.hasOwn(names, n) && toPromptName(names[n]!) === n ? names[n] : n}${l ? (/^\d+$/.test(l) ? `|version=${l}` : `|label=${l}`) : ''}@@@`);

function write(p: ExportPrompt): { files: SourceFile[]; warnings: FormatWarning[] } {
  const path = `langfuse/${p.name}.json`;
  const warnings = lossWarnings(path, p, {});
  for (const a of p.input.arguments) if (!a.required) warnings.push({ file: path, message: `argument ${a.name}: Langfuse variables are undeclared, so it is required on re-import` });
  const extra = { ...(p.meta?.extra ?? {}) };
  const roles = p.meta?.roles ?? {};
  const references = (extra.references && typeof extra.references === 'object' ? extra.references : {}) as Record<string, string>;
  delete extra.references;
  const messages: Record<string, unknown>[] = [];
  p.input.messages.forEach((m, i) => {
    if (m.content.type !== 'text') return void warnings.push({ file: path, message: `message ${i + 1} is ${m.content.type} content, which Langfuse cannot hold; left out` });
    const ph = PLACEHOLDER.exec(m.content.text.trim());
    if (ph) return void messages.push({ type: 'placeholder', name: ph[1] });
    for (const t of nonVariableTags(m.content.text)) if (!/^!>/.test(t.inner.trim())) warnings.push({ file: path, message: `message ${i + 1}: ${t.raw} kept verbatim (Langfuse has only {{variables}})` });
    messages.push({ role: roles[i] ?? m.role, content: toReferences(m.content.text, references) });
  });
  const type = extra.type === 'text' || (extra.type === undefined && messages.length === 1 && messages[0]!.role === 'user') ? 'text' : 'chat';
  if (type === 'text' && messages.length !== 1) warnings.push({ file: path, message: 'a text prompt holds one message; written as a chat prompt' });
  const asText = type === 'text' && messages.length === 1 && typeof messages[0]!.content === 'string';
  const name = typeof extra.name === 'string' && toPromptName(extra.name) === p.name ? extra.name : p.name;
  delete extra.type;
  delete extra.name;
  const body = {
    name,
    type: asText ? 'text' : 'chat',
    prompt: asText ? messages[0]!.content : messages,
    ...defined({ config: p.meta?.config, labels: p.meta?.labels, tags: p.meta?.tags, version: p.meta?.version, commitMessage: p.input.note ?? undefined }),
    ...extra,
  };
  return { files: [{ path, text: `${JSON.stringify(body, null, 2)}\n` }], warnings };
}

export const langfuse: PromptFormat = { id: 'langfuse', accepts: (path) => /\.json$/i.test(path), read, write };
