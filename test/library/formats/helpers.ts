// Fixture loading for the format tests: every file under a fixture folder, with paths
// relative to it (hidden folders such as .claude/ and .github/ included).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExportPrompt, ImportedPrompt, SourceFile } from '../../../src/library/formats/index.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/formats');

export function fixtureFiles(dir: string): SourceFile[] {
  const root = path.join(FIXTURES, dir);
  const out: SourceFile[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out.push({ path: r, text: readFileSync(path.join(root, r), 'utf8') });
    }
  };
  walk('');
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** What a prompt means, independent of file layout: arguments, messages (with original roles), variables. */
export function semantics(p: ImportedPrompt) {
  const v = p.versions[0]!.input;
  return {
    name: p.name,
    title: v.title ?? null,
    description: v.description ?? null,
    note: v.note ?? null,
    arguments: v.arguments.map((a) => ({
      name: a.name, required: a.required, description: a.description ?? null, choices: a.choices ?? null,
      ...(a.type && a.type !== 'string' ? { type: a.type } : {}), ...(a.default != null ? { default: a.default } : {}),
    })),
    messages: v.messages.map((m, i) => ({ role: m.role, was: p.meta.roles?.[i] ?? null, text: m.content.type === 'text' ? m.content.text : m.content.type })),
    meta: { model: p.meta.model ?? null, labels: p.meta.labels ?? null, tags: p.meta.tags ?? null, config: p.meta.config ?? null, version: p.meta.version ?? null, defaults: p.meta.defaults ?? null },
  };
}

export const toExport = (p: ImportedPrompt): ExportPrompt => ({ name: p.name, input: p.versions[0]!.input, meta: p.meta });
