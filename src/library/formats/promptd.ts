// promptd's own prompt file (docs/library-format.md) as a converter, so `--format auto`
// can mix it with the others. Directory imports of promptd libraries keep using
// readLibrary (it also reads resources.yaml, media and history files).
import { parseLibraryYaml } from '../library-yaml.js';
import { yamlFileErrors } from '../yaml-errors.js';
import type { Version } from '../../core/index.js';
import { toYaml } from '../export.js';
import { fromVersion, PromptFileSchema, toVersionInput } from '../format.js';
import { baseName, ConvertError, fail, finish, readEach } from './common.js';
import type { ExportPrompt, FormatReadResult, FormatWarning, PromptFormat, SourceFile } from './types.js';

function read(files: SourceFile[]): FormatReadResult {
  return readEach(files, (f) => {
    const doc = parseLibraryYaml(f.text);
    if (doc.errors.length) throw new ConvertError(yamlFileErrors(doc, f.text, f.path));
    const raw = doc.toJS();
    if (raw && typeof raw === 'object' && 'versions' in raw) fail('versions', 'history files are read by `promptd import <library>` (readLibrary), not by the format converters');
    const parsed = PromptFileSchema.safeParse(raw);
    if (!parsed.success) throw new ConvertError(parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(file)', message: i.message })));
    const base = baseName(f.path).replace(/\.(ya?ml|json)$/i, '');
    if (base !== parsed.data.name) fail('name', `"${parsed.data.name}" does not match the file name (${baseName(f.path)})`);
    const { name, ...fields } = parsed.data;
    const candidate = toVersionInput(fields, (m, i) => fail(`messages[${i}].content.data`, `inline media (${m.file}) needs the library directory; import it with promptd import <library>`));
    return [finish(f.path, name, candidate, { format: 'promptd', source: f.path })];
  });
}

function write(p: ExportPrompt): { files: SourceFile[]; warnings: FormatWarning[] } {
  const path = `prompts/${p.name}.yaml`;
  const warnings: FormatWarning[] = [];
  const messages = p.input.messages.filter((m, i) => {
    const inline = 'data' in m.content;
    if (inline) warnings.push({ file: path, message: `message ${i + 1} holds inline media; use promptd export for a library with media files` });
    return !inline;
  });
  const v = { title: null, description: null, icons: null, note: null, ...p.input, messages } as unknown as Version;
  const body = fromVersion({ ...v, arguments: p.input.arguments.map((a) => ({ title: null, description: null, choices: null, maxLength: null, ...a, type: a.type ?? 'string', default: a.default ?? null, required: a.required ?? false })) }, () => {
    throw new Error('unreachable: inline media filtered above');
  });
  return { files: [{ path, text: toYaml({ name: p.name, ...body }) }], warnings };
}

export const promptdFormat: PromptFormat = { id: 'promptd', accepts: (path) => /\.(ya?ml)$/i.test(path), read, write };
