// Prompty (`*.prompty`): YAML front matter (name, description, authors, model,
// inputs as a map or a list, sample, template) and a body whose `system:` / `user:` /
// `assistant:` lines start messages. The template engine is Jinja2 unless
// `template: mustache` (or `template: {format: mustache}`) says otherwise.
import type { ArgumentInput, MessageInput } from '../../core/index.js';
import { applyDefaults, argumentTypeOf, baseName, defined, fail, finish, frontMatter, lineAt, lossWarnings, mcpRole, readEach, roleMap, splitFrontMatter, str, text, toArgumentName, toPromptName, usedVariables } from './common.js';
import { fromJinja, toJinja } from './tags.js';
import type { ExportPrompt, FormatReadResult, FormatWarning, PromptFormat, SourceFile } from './types.js';

const ROLE_LINE = /^[ \t]*#?[ \t]*(system|user|assistant|developer|function|tool)[ \t]*:[ \t]*\r?$/gim;
const MAPPED = ['name', 'description', 'model', 'inputs', 'sample', 'tags', 'version'];

interface InputSpec {
  name: string;
  type?: string;
  description?: string;
  required?: boolean;
  default?: unknown;
  sample?: unknown;
  /** the list form's `kind:` (Prompty's own word) instead of `type:`, written back as it was */
  key?: 'kind';
}

/** Both input forms: `inputs: {x: {type, description}}` (or `x: string`) and `inputs: [{name: x, kind, …}]`. */
function inputSpecs(inputs: unknown): { specs: InputSpec[]; form: 'map' | 'list' } {
  if (inputs == null) return { specs: [], form: 'map' };
  const one = (name: string, v: unknown): InputSpec => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      return { name, ...defined({ type: str(o.type ?? o.kind), description: str(o.description), required: typeof o.required === 'boolean' ? o.required : undefined, default: o.default, sample: o.sample, key: o.type === undefined && o.kind !== undefined ? 'kind' as const : undefined }) };
    }
    // `x: string` names a type; any other scalar is a sample value.
    return typeof v === 'string' && /^(string|number|integer|boolean|array|object)$/.test(v) ? { name, type: v } : { name, ...(v !== null ? { sample: v } : {}) };
  };
  if (Array.isArray(inputs)) {
    return {
      form: 'list',
      specs: inputs.map((v, i) => {
        const n = v && typeof v === 'object' ? str((v as Record<string, unknown>).name) : undefined;
        return one(n ?? fail(`inputs[${i}].name`, 'each input in the list form needs a name'), v);
      }),
    };
  }
  if (typeof inputs !== 'object') fail('inputs', 'expected a mapping or a list of inputs');
  return { form: 'map', specs: Object.entries(inputs as Record<string, unknown>).map(([k, v]) => one(k, v)) };
}

function engine(template: unknown): string {
  if (typeof template === 'string') return template.toLowerCase();
  if (template && typeof template === 'object') return str((template as Record<string, unknown>).format)?.toLowerCase() ?? 'jinja2';
  return 'jinja2';
}

function read(files: SourceFile[]): FormatReadResult {
  return readEach(files, (f, warn) => {
    const fm = splitFrontMatter(f.text);
    const d = fm.data;
    const name = toPromptName(baseName(f.path).replace(/\.prompty$/i, ''));
    const { specs, form } = inputSpecs(d.inputs);
    const tpl = engine(d.template);
    if (!['jinja2', 'mustache', 'nunjucks'].includes(tpl)) warn(undefined, `template engine "${tpl}" read as Jinja2`);
    const mustache = tpl === 'mustache';

    const args: ArgumentInput[] = specs.map((s) => {
      const n = toArgumentName(s.name);
      if (n !== s.name) warn(undefined, `input "${s.name}" imported as the argument ${n}`);
      const typed = argumentTypeOf(s.type);
      if (s.type && !typed) warn(undefined, `input ${s.name} is of type ${s.type}; promptd passes it as text`);
      return { name: n, ...(typed && typed !== 'string' ? { type: typed } : {}), required: s.required ?? false, ...(s.description ? { description: s.description } : {}) };
    });
    // Defaults that fit their argument become its default; the others stay in metadata.
    const unmapped = applyDefaults(args, Object.fromEntries(specs.filter((s) => s.default !== undefined).map((s) => [s.name, s.default])), (m) => warn(undefined, m));
    const defaults = Object.fromEntries(Object.entries(unmapped).map(([k, v]) => [toArgumentName(k), v]));

    // Text before the first role line is a system message, as in Prompty's own parser.
    const parts: { role: string; at: number; text: string }[] = [];
    let last = 0;
    let role = 'system';
    for (const m of fm.body.matchAll(ROLE_LINE)) {
      parts.push({ role, at: last, text: fm.body.slice(last, m.index) });
      role = m[1]!.toLowerCase();
      last = m.index + m[0].length;
    }
    parts.push({ role, at: last, text: fm.body.slice(last) });
    const roles: string[] = [];
    const messages: MessageInput[] = [];
    for (const p of parts) {
      const at = (i: number) => lineAt(fm.body, p.at + i, fm.bodyLine);
      const converted = (mustache ? p.text : fromJinja(p.text, (i, msg) => warn(at(i), msg))).trim();
      if (!converted) continue;
      roles.push(p.role);
      messages.push(text(mcpRole(p.role, (msg) => warn(at(0), msg)), converted));
    }
    if (!messages.length) fail('(file)', 'the prompt has no text');

    const declared = new Set(args.map((a) => a.name));
    for (const v of usedVariables(messages.map((m) => (m.content.type === 'text' ? m.content.text : '')))) {
      if (declared.has(v)) continue;
      if (specs.length) warn(undefined, `{{${v}}} is not in inputs; imported as an optional argument`);
      args.push({ name: v, required: false });
    }
    const extra: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(d)) if (!MAPPED.includes(k)) extra[k] = v;
    extra.inputs = { form, specs };
    if (d.name !== undefined) extra.name = d.name;
    if (d.sample !== undefined) extra.sample = d.sample;
    return [
      finish(f.path, name, { title: str(d.name) ?? null, description: str(d.description) ?? null, arguments: args, messages }, {
        format: 'prompty',
        source: f.path,
        ...defined({
          model: d.model,
          tags: Array.isArray(d.tags) ? d.tags.map(String) : undefined,
          version: typeof d.version === 'number' ? d.version : undefined,
          defaults: Object.keys(defaults).length ? defaults : undefined,
          roles: roleMap(roles),
        }),
        extra,
      }),
    ];
  });
}

function write(p: ExportPrompt): { files: SourceFile[]; warnings: FormatWarning[] } {
  const path = `${p.name}.prompty`;
  const warnings = lossWarnings(path, p, { title: true, argumentDescription: true, type: true, default: true });
  const extra = { ...(p.meta?.extra ?? {}) };
  const known = (extra.inputs ?? { form: 'map', specs: [] }) as { form: 'map' | 'list'; specs: InputSpec[] };
  delete extra.inputs;
  delete extra.name;
  const mustache = engine(extra.template) === 'mustache';
  const specs = p.input.arguments.map((a): Record<string, unknown> & { name: string } => {
    const was = known.specs.find((s) => toArgumentName(s.name) === a.name);
    return {
      name: was?.name ?? a.name,
      ...defined({
        // The original type where promptd holds it as text (array, object…), else the argument's.
        [was?.key ?? 'type']: was?.type && !argumentTypeOf(was.type) && (a.type ?? 'string') === 'string' ? was.type : (a.type ?? 'string'),
        description: a.description ?? undefined,
        // Written only where it says something: an explicit `required`, or a required argument.
        // A required input with a default was imported as optional: it goes back as it was.
        required: was?.required !== undefined || a.required ? (a.required || (was?.required === true && a.default != null)) : undefined,
        default: a.default ?? p.meta?.defaults?.[a.name],
        sample: was?.sample,
      }),
    };
  });
  const inputs = !specs.length
    ? undefined
    : known.form === 'list'
      ? specs
      : Object.fromEntries(specs.map(({ name, ...rest }) => [name, rest]));
  const roles = p.meta?.roles ?? {};
  const blocks: string[] = [];
  p.input.messages.forEach((m, i) => {
    if (m.content.type !== 'text') return void warnings.push({ file: path, message: `message ${i + 1} is ${m.content.type} content, which Prompty text cannot hold; left out` });
    blocks.push(`${roles[i] ?? m.role}:\n${mustache ? m.content.text : toJinja(m.content.text)}\n`);
  });
  const data = {
    name: p.input.title ?? undefined,
    description: p.input.description ?? undefined,
    version: p.meta?.version,
    tags: p.meta?.tags,
    model: p.meta?.model,
    inputs,
    ...extra,
  };
  return { files: [{ path, text: frontMatter(data, blocks.join('\n')) }], warnings };
}

export const prompty: PromptFormat = { id: 'prompty', accepts: (path) => /\.prompty$/i.test(path), read, write };
