// Dotprompt (`*.prompt`, Firebase Genkit): YAML front matter (model, config,
// input.schema in Picoschema, input.default, output, tools) and a Handlebars body in
// which `{{role "system"}}` / `{{role "user"}}` / `{{role "model"}}` start messages.
// `_name.prompt` files are partials: imported as prompts named `name`.
import type { ArgumentInput, MessageInput } from '../../core/index.js';
import { applyDefaults, baseName, defined, fail, finish, frontMatter, lineAt, lossWarnings, mcpRole, readEach, roleMap, splitFrontMatter, str, text, toPromptName, usedVariables } from './common.js';
import { sameArguments, schemaArguments, toPicoschema } from './picoschema.js';
import { fromHandlebars, toHandlebars } from './tags.js';
import type { ExportPrompt, FormatReadResult, FormatWarning, PromptFormat, SourceFile } from './types.js';

const ROLE = /\{\{\s*role\s+(?:"([^"]*)"|'([^']*)')\s*\}\}/g;
const MAPPED = ['description', 'model', 'config', 'input'];

function read(files: SourceFile[]): FormatReadResult {
  return readEach(files, (f, warn) => {
    const fm = splitFrontMatter(f.text);
    const d = fm.data;
    const base = baseName(f.path).replace(/\.prompt$/i, '');
    const partial = base.startsWith('_');
    const name = toPromptName(partial ? base.slice(1) : base);
    const input = (d.input ?? {}) as Record<string, unknown>;
    if (typeof input !== 'object' || Array.isArray(input)) fail('input', 'expected a mapping with schema and default');
    const { args, notes, defaults: schemaDefaults } = schemaArguments(input.schema);
    for (const n of notes) warn(undefined, n);
    // input.default wins over a JSON Schema property's own default, as in Genkit.
    const given = { ...schemaDefaults, ...(input.default && typeof input.default === 'object' ? (input.default as Record<string, unknown>) : {}) };
    // Defaults that fit their argument become its default; the others stay in metadata.
    const unmapped = applyDefaults(args, given, (m) => warn(undefined, m));
    const defaults = Object.keys(unmapped).length ? unmapped : undefined;

    // Split the body at role markers; text before the first marker is a user message.
    const parts: { role: string; at: number; text: string }[] = [];
    let last = 0;
    let role = 'user';
    for (const m of fm.body.matchAll(ROLE)) {
      parts.push({ role, at: last, text: fm.body.slice(last, m.index) });
      role = m[1] ?? m[2] ?? 'user';
      last = m.index + m[0].length;
    }
    parts.push({ role, at: last, text: fm.body.slice(last) });
    const roles: string[] = [];
    const messages: MessageInput[] = [];
    for (const p of parts) {
      const converted = fromHandlebars(p.text, (i, msg) => warn(lineAt(fm.body, p.at + i, fm.bodyLine), msg)).trim();
      if (!converted) {
        if (p.at > 0) warn(lineAt(fm.body, p.at, fm.bodyLine), `{{role "${p.role}"}} is followed by no text; no message made`);
        continue;
      }
      roles.push(p.role);
      messages.push(text(mcpRole(p.role, (msg) => warn(lineAt(fm.body, p.at, fm.bodyLine), msg)), converted));
    }
    if (!messages.length) fail('(file)', 'the prompt has no text');

    // Variables the schema does not declare still need arguments (a prompt without a schema declares none).
    const declared = new Set(args.map((a) => a.name));
    const extraArgs: ArgumentInput[] = [];
    for (const v of usedVariables(messages.map((m) => (m.content.type === 'text' ? m.content.text : '')))) {
      if (declared.has(v)) continue;
      if (input.schema) warn(undefined, `{{${v}}} is not in input.schema; imported as an optional argument`);
      extraArgs.push({ name: v, required: false });
    }
    const extra: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(d)) if (!MAPPED.includes(k)) extra[k] = v;
    if (input.schema !== undefined) extra.schema = input.schema;
    if (partial) extra.partial = true;
    return [
      finish(f.path, name, { description: str(d.description) ?? null, arguments: [...args, ...extraArgs], messages }, {
        format: 'dotprompt',
        source: f.path,
        ...defined({ model: d.model, config: d.config, defaults, roles: roleMap(roles) }),
        ...(Object.keys(extra).length ? { extra } : {}),
      }),
    ];
  });
}

function write(p: ExportPrompt): { files: SourceFile[]; warnings: FormatWarning[] } {
  const extra = { ...(p.meta?.extra ?? {}) };
  const partial = extra.partial === true;
  const rawSchema = extra.schema;
  delete extra.partial;
  delete extra.schema;
  const path = `prompts/${partial ? '_' : ''}${p.name}.prompt`;
  const warnings: FormatWarning[] = lossWarnings(path, p, { argumentDescription: true, choices: true, type: true, default: true });
  for (const a of p.input.arguments) if (a.choices && a.type && a.type !== 'string') warnings.push({ file: path, message: `argument ${a.name}: choices of a ${a.type} left out (Picoschema enums hold strings)` });
  const argDefaults = Object.fromEntries(p.input.arguments.filter((a) => a.default != null).map((a) => [a.name, a.default]));
  // The imported schema goes back verbatim while the arguments it describes are unchanged (it may hold types promptd drops);
  // a field with a default reads as optional, as it did on import.
  const unchanged = () => {
    const again = schemaArguments(rawSchema).args;
    applyDefaults(again, argDefaults);
    return sameArguments(again, p.input.arguments);
  };
  const schema = rawSchema !== undefined && unchanged() ? rawSchema : p.input.arguments.length ? toPicoschema(p.input.arguments) : undefined;
  const allDefaults = { ...argDefaults, ...(p.meta?.defaults ?? {}) };
  const input = defined({ schema, default: Object.keys(allDefaults).length ? allDefaults : undefined });
  const roles = p.meta?.roles ?? {};
  const blocks: string[] = [];
  p.input.messages.forEach((m, i) => {
    if (m.content.type !== 'text') return void warnings.push({ file: path, message: `message ${i + 1} is ${m.content.type} content; left out (use {{media url=…}} by hand)` });
    blocks.push(`${roles[i] || m.role !== 'user' || p.input.messages.length > 1 ? `{{role "${roles[i] ?? (m.role === 'assistant' ? 'model' : 'user')}"}}\n` : ''}${toHandlebars(m.content.text)}\n`);
  });
  const data = {
    description: p.input.description ?? undefined,
    model: p.meta?.model,
    config: p.meta?.config,
    ...(Object.keys(input).length ? { input } : {}),
    ...extra,
  };
  return { files: [{ path, text: frontMatter(data, blocks.join('\n')) }], warnings };
}

export const dotprompt: PromptFormat = { id: 'dotprompt', accepts: (path) => /\.prompt$/i.test(path), read, write };
