// Claude Code custom slash commands (`.claude/commands/**/*.md`) and skills
// (`.claude/skills/<name>/SKILL.md`): Markdown with optional front matter. The body is
// one user message. `$ARGUMENTS` is the whole argument string, `$1…$9` positional ones.
import type { ArgumentInput } from '../../core/index.js';
import { baseName, fail, finish, frontMatter, lineAt, lossWarnings, readEach, splitFrontMatter, str, text, toArgumentName, toPromptName } from './common.js';
import { IDENT, nonVariableTags } from './tags.js';
import type { ExportPrompt, FormatReadResult, FormatWarning, PromptFormat, SourceFile } from './types.js';

const COMMANDS = '.claude/commands/';
const KNOWN = ['description', 'argument-hint', 'model', 'allowed-tools', 'disable-model-invocation', 'name'];

/** Where the command lives: `git/commit.md` → namespace `git`, command `commit`. */
function locate(path: string): { name: string; namespace?: string; skill?: string } {
  const parts = path.split('/');
  if (baseName(path) === 'SKILL.md' && parts.length >= 2) return { name: parts.at(-2)!, skill: parts.at(-2)! };
  const at = path.lastIndexOf(COMMANDS);
  const rel = (at >= 0 ? path.slice(at + COMMANDS.length) : path).replace(/\.md$/i, '');
  const segs = rel.split('/');
  const cmd = segs.pop()!;
  // Outside .claude/commands (a folder given directly), only the file name counts.
  const ns = at >= 0 ? segs.join('/') : '';
  return { name: cmd, ...(ns ? { namespace: ns } : {}) };
}

/** `[pr-number] [priority]` or `<file> <mode>` → names; free text (`add|remove [id]`) names nothing reliably. */
export function hintNames(hint: string | undefined): string[] {
  if (!hint) return [];
  const bracketed = [...hint.matchAll(/[[<]\s*([A-Za-z_][\w-]*)[^\]>]*[\]>]/g)].map((m) => m[1]!);
  return bracketed.map(toArgumentName);
}

function read(files: SourceFile[]): FormatReadResult {
  return readEach(files, (f, warn) => {
    const fm = splitFrontMatter(f.text, ['argument-hint', 'description']);
    const where = locate(f.path);
    const d = fm.data;
    const name = toPromptName(where.namespace ? `${where.namespace}/${str(d.name) ?? where.name}` : (where.skill ? str(d.name) : undefined) ?? where.name);
    const hint = str(d['argument-hint']);
    const names = hintNames(hint);
    const positional = new Map<number, string>();
    let usesAll = false;
    const body = fm.body.replace(/\$(ARGUMENTS|[1-9])(?![0-9])/g, (_m, what: string, index: number) => {
      if (what === 'ARGUMENTS') {
        usesAll = true;
        return '{{arguments}}';
      }
      const n = Number(what);
      if (!positional.has(n)) positional.set(n, names[n - 1] && names[n - 1] !== 'arguments' ? names[n - 1]! : `arg${n}`);
      if (!names[n - 1]) warn(lineAt(fm.body, index, fm.bodyLine), `$${n} is not named by argument-hint; imported as the argument arg${n}`);
      return `{{${positional.get(n)}}}`;
    });
    // Claude Code runs `!`cmd`` lines and inlines `@file` references before sending; promptd sends them as text.
    for (const m of fm.body.matchAll(/!`[^`\n]+`/g)) warn(lineAt(fm.body, m.index, fm.bodyLine), `${m[0]}: shell command kept verbatim (promptd does not run it)`);
    for (const m of fm.body.matchAll(/(^|\s)@([\w./~-]*[\w/])/gm)) warn(lineAt(fm.body, m.index + m[1]!.length, fm.bodyLine), `@${m[2]}: file reference kept verbatim (promptd does not read files)`);
    for (const k of Object.keys(d)) if (!KNOWN.includes(k)) warn(undefined, `front matter "${k}" has no promptd field; kept in metadata`);

    const args: ArgumentInput[] = [...positional.entries()].sort(([a], [b]) => a - b).map(([, n]) => ({ name: n, required: false }));
    if (usesAll) args.push({ name: 'arguments', ...(hint ? { description: hint } : {}), required: false });
    const trimmed = body.trim();
    if (!trimmed) fail('(file)', 'the command has no text');
    const extra: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(d)) if (!['description', 'model'].includes(k)) extra[k] = v;
    if (where.namespace) extra.namespace = where.namespace;
    if (where.skill) extra.skill = true;
    return [
      finish(f.path, name, { description: str(d.description) ?? null, arguments: args, messages: [text('user', trimmed)] }, {
        format: 'claude-commands',
        source: f.path,
        ...(d.model !== undefined ? { model: d.model } : {}),
        ...(Object.keys(extra).length ? { extra } : {}),
      }),
    ];
  });
}

function write(p: ExportPrompt): { files: SourceFile[]; warnings: FormatWarning[] } {
  const extra = { ...(p.meta?.extra ?? {}) };
  const ns = typeof extra.namespace === 'string' ? extra.namespace : undefined;
  const skill = extra.skill === true;
  delete extra.namespace;
  delete extra.skill;
  let cmd = p.name;
  if (ns && p.name.startsWith(`${toPromptName(ns)}-`)) cmd = p.name.slice(toPromptName(ns).length + 1);
  const path = skill ? `.claude/skills/${p.name}/SKILL.md` : `.claude/commands/${ns && cmd !== p.name ? `${ns}/` : ''}${cmd}.md`;
  // The description of `arguments` travels as argument-hint, so it is not lost.
  const described = { input: { ...p.input, arguments: p.input.arguments.map((a) => (a.name === 'arguments' ? { ...a, description: null } : a)) } };
  const warnings = lossWarnings(path, described, { argumentDescription: false });
  const positional = p.input.arguments.filter((a) => a.name !== 'arguments');
  if (positional.length > 9) warnings.push({ file: path, message: `Claude commands take at most 9 positional arguments; ${positional.slice(9).map((a) => a.name).join(', ')} left as {{…}} text` });
  const index = new Map(positional.slice(0, 9).map((a, i) => [a.name, i + 1]));
  if (p.input.messages.length > 1) warnings.push({ file: path, message: `a command is one message; ${p.input.messages.length} messages joined with blank lines` });
  const texts = p.input.messages.map((m, i) => {
    if (m.content.type !== 'text') {
      warnings.push({ file: path, message: `message ${i + 1} is ${m.content.type} content, which a command cannot hold; left out` });
      return undefined;
    }
    if (m.role === 'assistant') warnings.push({ file: path, message: `message ${i + 1} is an assistant message; written as command text` });
    for (const t of nonVariableTags(m.content.text)) warnings.push({ file: path, message: `message ${i + 1}: ${t.raw} kept verbatim (Claude commands have no template sections or comments)` });
    return m.content.text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (raw, v: string) => (v === 'arguments' ? '$ARGUMENTS' : index.has(v) ? `$${index.get(v)}` : raw));
  });
  const used = texts.join('\n');
  for (const a of positional.slice(0, 9)) if (!used.includes(`$${index.get(a.name)}`)) warnings.push({ file: path, message: `argument ${a.name} is not used in the text; Claude commands declare arguments only by using them, so a re-import loses it` });
  // The hint names the positional arguments so a re-import gets the same names back.
  const generated = [...index.keys()].map((n) => `[${n}]`).join(' ');
  const original = str(extra['argument-hint']);
  const hint = original !== undefined && hintNames(original).slice(0, index.size).join(' ') === [...index.keys()].join(' ') ? original : generated || undefined;
  delete extra['argument-hint'];
  const data = {
    ...(skill ? { name: p.name } : {}),
    description: p.input.description ?? undefined,
    'argument-hint': hint ?? (p.input.arguments.some((a) => a.name === 'arguments') ? p.input.arguments.find((a) => a.name === 'arguments')!.description ?? undefined : undefined),
    model: p.meta?.model,
    ...extra,
  };
  if (p.input.arguments.some((a) => a.required)) warnings.push({ file: path, message: 'Claude commands have no required arguments; all are optional' });
  for (const a of p.input.arguments) if (a.name !== 'arguments' && !IDENT.test(a.name)) warnings.push({ file: path, message: `argument ${a.name} cannot be named` });
  return { files: [{ path, text: frontMatter(data, `${texts.filter((t) => t !== undefined).join('\n\n')}\n`) }], warnings };
}

export const claudeCommands: PromptFormat = {
  id: 'claude-commands',
  accepts: (path) => /\.md$/i.test(path) && !/\.prompt\.md$/i.test(path),
  read,
  write,
};
