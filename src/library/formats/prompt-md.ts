// VS Code / GitHub Copilot prompt files (`*.prompt.md`, usually in `.github/prompts/`):
// Markdown with optional front matter; the body is one user message. `${input:name}`
// and `${input:name:placeholder}` ask the user for a value: they become arguments.
import type { ArgumentInput } from '../../core/index.js';
import { baseName, fail, finish, frontMatter, lineAt, lossWarnings, readEach, splitFrontMatter, str, text, toArgumentName, toPromptName } from './common.js';
import { nonVariableTags } from './tags.js';
import type { ExportPrompt, FormatReadResult, FormatWarning, PromptFormat, SourceFile } from './types.js';

const KNOWN = ['description', 'name', 'mode', 'agent', 'model', 'tools', 'argument-hint'];

function read(files: SourceFile[]): FormatReadResult {
  return readEach(files, (f, warn) => {
    const fm = splitFrontMatter(f.text);
    const d = fm.data;
    const name = toPromptName(str(d.name) ?? baseName(f.path).replace(/\.prompt\.md$/i, '').replace(/\.md$/i, ''));
    const args: ArgumentInput[] = [];
    const body = fm.body.replace(/\$\{input:([^}:]+)(?::([^}]*))?\}/g, (_m, raw: string, placeholder: string | undefined, index: number) => {
      const n = toArgumentName(raw);
      if (n !== raw.trim()) warn(lineAt(fm.body, index, fm.bodyLine), `\${input:${raw}} imported as the argument ${n}`);
      const known = args.find((a) => a.name === n);
      // VS Code asks for each input once, so it is required; the placeholder is the best description there is.
      if (!known) args.push({ name: n, required: true, ...(placeholder?.trim() ? { description: placeholder.trim() } : {}) });
      else if (placeholder?.trim() && !known.description) known.description = placeholder.trim();
      return `{{${n}}}`;
    });
    for (const m of body.matchAll(/\$\{(?!input:)([^}]+)\}/g)) {
      warn(lineAt(body, m.index, fm.bodyLine), `${m[0]}: VS Code context variable kept verbatim (promptd has no editor context)`);
    }
    for (const m of body.matchAll(/#tool:[\w./-]+|#file:[^\s)]+/g)) warn(lineAt(body, m.index, fm.bodyLine), `${m[0]}: VS Code reference kept verbatim`);
    for (const k of Object.keys(d)) if (!KNOWN.includes(k)) warn(undefined, `front matter "${k}" has no promptd field; kept in metadata`);
    const trimmed = body.trim();
    if (!trimmed) fail('(file)', 'the prompt file has no text');
    const extra: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(d)) if (!['description', 'model'].includes(k)) extra[k] = v;
    return [
      finish(f.path, name, { description: str(d.description) ?? null, arguments: args, messages: [text('user', trimmed)] }, {
        format: 'prompt-md',
        source: f.path,
        ...(d.model !== undefined ? { model: d.model } : {}),
        ...(Object.keys(extra).length ? { extra } : {}),
      }),
    ];
  });
}

function write(p: ExportPrompt): { files: SourceFile[]; warnings: FormatWarning[] } {
  const path = `.github/prompts/${p.name}.prompt.md`;
  const warnings = lossWarnings(path, p, { argumentDescription: true });
  const extra = { ...(p.meta?.extra ?? {}) };
  const hadName = 'name' in extra;
  delete extra.name;
  const described = new Set<string>();
  if (p.input.messages.length > 1) warnings.push({ file: path, message: `a prompt file is one message; ${p.input.messages.length} messages joined with blank lines` });
  const texts: string[] = [];
  p.input.messages.forEach((m, i) => {
    if (m.content.type !== 'text') return void warnings.push({ file: path, message: `message ${i + 1} is ${m.content.type} content, which a prompt file cannot hold; left out` });
    if (m.role === 'assistant') warnings.push({ file: path, message: `message ${i + 1} is an assistant message; written as prompt text` });
    for (const t of nonVariableTags(m.content.text)) warnings.push({ file: path, message: `message ${i + 1}: ${t.raw} kept verbatim (prompt files have no template sections or comments)` });
    texts.push(m.content.text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (raw, v: string) => {
      const a = p.input.arguments.find((x) => x.name === v);
      if (!a) return raw;
      // The placeholder goes on the first use only; VS Code asks once per name.
      const placeholder = a.description && !described.has(v) ? a.description.replace(/[}\n]/g, ' ').trim() : '';
      described.add(v);
      return placeholder ? `\${input:${v}:${placeholder}}` : `\${input:${v}}`;
    }));
  });
  for (const a of p.input.arguments) if (!a.required) warnings.push({ file: path, message: `argument ${a.name}: VS Code asks for every input, so it becomes required on re-import` });
  for (const a of p.input.arguments) if (!described.has(a.name)) warnings.push({ file: path, message: `argument ${a.name} is not used in the text; prompt files declare inputs only by using them` });
  const data = { ...(hadName ? { name: p.name } : {}), description: p.input.description ?? undefined, model: p.meta?.model, ...extra };
  return { files: [{ path, text: frontMatter(data, `${texts.join('\n\n')}\n`) }], warnings };
}

export const promptMd: PromptFormat = {
  id: 'prompt-md',
  accepts: (path) => /\.prompt\.md$/i.test(path) || (/(^|\/)\.github\/prompts\//.test(path) && /\.md$/i.test(path)),
  read,
  write,
};
