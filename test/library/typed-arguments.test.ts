// Argument type and default through files: the promptd library (export → import into
// an empty database, on SQLite or PostgreSQL), and the converters that can carry them
// (promptd YAML, Dotprompt/Picoschema, Prompty) exactly; the others say what they drop.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { CreatePromptInputSchema, type ArgumentInput } from '../../src/core/schemas.js';
import { importLibrary } from '../../src/library/apply.js';
import { exportLibrary } from '../../src/library/export.js';
import { readFormats, writeFormat, type FormatId } from '../../src/library/formats/index.js';
import { freshCore, tempDir } from './helpers.js';

const actor = { name: 'test' };
const ARGS = [
  { name: 'count', type: 'integer', required: true, description: 'how many' },
  { name: 'ratio', type: 'number', default: 0.25 },
  { name: 'loud', type: 'boolean', default: false },
  { name: 'tone', choices: ['calm', 'firm'], default: 'calm' },
  { name: 'topic', default: 'news' },
] as const;
const input = CreatePromptInputSchema.parse({
  name: 'digest',
  description: 'Summarises the news',
  arguments: ARGS,
  messages: [{ role: 'user', content: { type: 'text', text: '{{count}} {{topic}} items at {{ratio}}, {{tone}}{{#loud}}, LOUD{{/loud}}' } }],
  activate: true,
});
/** What must survive: name, type, required, default, choices, description. */
const typedArgs = (args: readonly ArgumentInput[]) =>
  args.map((a) => ({ name: a.name, type: a.type ?? 'string', required: Boolean(a.required), default: a.default ?? null, choices: a.choices ?? null, description: a.description ?? null }));

describe('promptd library export → import', () => {
  let source: Core;
  beforeAll(async () => {
    source = await freshCore();
    await source.prompts.create(input, actor);
  });
  afterAll(() => source.close());

  it('writes type (when not string) and default into the YAML and imports them back exactly', async () => {
    const dir = tempDir('pd-typed-');
    await exportLibrary(source, dir);
    const yaml = readFileSync(path.join(dir, 'prompts/digest.yaml'), 'utf8');
    expect(yaml).toContain('  - name: count\n    type: integer\n');
    expect(yaml).toContain('    default: 0.25\n');
    expect(yaml).toContain('    default: false\n');
    const target = await freshCore();
    try {
      expect((await importLibrary(target, dir, { activate: true })).failed).toBe(false);
      const [a, b] = [(await source.prompts.get('digest')).latest, (await target.prompts.get('digest')).latest];
      expect(b.arguments).toEqual(a.arguments);
      expect(typedArgs(b.arguments)).toEqual(typedArgs(input.arguments));
      // Unchanged files are not a new version: type and default are part of the content key.
      const again = await importLibrary(target, dir, { activate: true });
      expect(again.counts).toMatchObject({ created: 0, newVersion: 0 });
      await target.catalog.ready();
      const rendered = await target.catalog.render('digest', { count: '2' });
      expect((rendered.messages[0]!.content as { text: string }).text).toBe('2 news items at 0.25, calm');
    } finally {
      await target.close();
    }
  });

  it('a changed default alone is a new version on import', async () => {
    const dir = tempDir('pd-typed-');
    await exportLibrary(source, dir);
    const target = await freshCore();
    try {
      await importLibrary(target, dir, { activate: true });
      await source.prompts.createVersion('digest', { ...input, arguments: input.arguments.map((a) => (a.name === 'ratio' ? { ...a, default: 0.75 } : a)) }, actor);
      await exportLibrary(source, dir);
      const r = await importLibrary(target, dir, { activate: true });
      expect(r.prompts.find((p) => p.name === 'digest')).toMatchObject({ action: 'new-version' });
      expect((await target.prompts.get('digest')).latest.arguments[1]!.default).toBe(0.75);
    } finally {
      await target.close();
    }
  });
});

describe('converters', () => {
  const exported = { name: 'digest', input, meta: undefined };
  const roundTrip = (format: FormatId) => {
    const written = writeFormat(format, [exported]);
    const back = readFormats(written.files, format);
    expect(back.problems).toEqual([]);
    return { written, back: back.prompts[0]!.versions[0]!.input };
  };

  it.each(['promptd', 'dotprompt', 'prompty'] as const)('%s carries type and default exactly', (format) => {
    const { written, back } = roundTrip(format);
    // Prompty inputs have no choices (an existing, warned-about loss); everything else must survive.
    const seen = (args: readonly ArgumentInput[]) => typedArgs(args).map((a) => (format === 'prompty' ? { ...a, choices: null } : a));
    expect(seen(back.arguments)).toEqual(seen(input.arguments));
    expect(written.warnings.filter((w) => /type|default/.test(w.message))).toEqual([]);
    // Written twice, the same bytes.
    expect(writeFormat(format, [{ name: 'digest', input: back }]).files).toEqual(written.files);
  });

  it('dotprompt writes Picoschema types and input.default; a required field with a default reads as optional and goes back verbatim', () => {
    const text = roundTrip('dotprompt').written.files[0]!.text;
    expect(text).toContain('count: integer, how many');
    expect(text).toContain('ratio?: number');
    expect(text).toContain('loud?: boolean');
    expect(text).toMatch(/default:\n\s+ratio: 0\.25\n\s+loud: false\n\s+tone: calm\n\s+topic: news/);
    const source = '---\ninput:\n  schema:\n    n: integer\n    flag?: boolean\n  default:\n    n: 3\n---\n{{n}}{{#if flag}}!{{/if}}\n';
    const r = readFormats([{ path: 'x.prompt', text: source }], 'dotprompt');
    const p = r.prompts[0]!;
    expect(typedArgs(p.versions[0]!.input.arguments)).toEqual([
      { name: 'n', type: 'integer', required: false, default: 3, choices: null, description: null },
      { name: 'flag', type: 'boolean', required: false, default: null, choices: null, description: null },
    ]);
    const again = writeFormat('dotprompt', [{ name: p.name, input: p.versions[0]!.input, meta: p.meta }]).files[0]!.text;
    expect(again).toContain('schema:\n    n: integer\n    flag?: boolean\n  default:\n    n: 3\n');
  });

  it('dotprompt JSON Schema input: property types and defaults', () => {
    const source = '---\ninput:\n  schema:\n    type: object\n    properties:\n      n: {type: number, default: 2.5}\n      on: {type: boolean}\n    required: [on]\n---\n{{n}}{{#if on}}!{{/if}}\n';
    const r = readFormats([{ path: 'j.prompt', text: source }], 'dotprompt');
    expect(r.problems).toEqual([]);
    const p = r.prompts[0]!;
    expect(typedArgs(p.versions[0]!.input.arguments)).toEqual([
      { name: 'n', type: 'number', required: false, default: 2.5, choices: null, description: null },
      { name: 'on', type: 'boolean', required: true, default: null, choices: null, description: null },
    ]);
    const again = readFormats(writeFormat('dotprompt', [{ name: p.name, input: p.versions[0]!.input, meta: p.meta }]).files, 'dotprompt').prompts[0]!;
    expect(typedArgs(again.versions[0]!.input.arguments)).toEqual(typedArgs(p.versions[0]!.input.arguments));
  });

  it('a default that does not fit its argument stays in metadata with a warning', () => {
    const r = readFormats([{ path: 'x.prompty', text: '---\ninputs:\n  n:\n    type: integer\n    default: lots\n---\nuser:\n{{n}}\n' }], 'prompty');
    expect(r.problems).toEqual([]);
    expect(r.prompts[0]!.versions[0]!.input.arguments[0]!.default).toBeUndefined();
    expect(r.prompts[0]!.meta.defaults).toEqual({ n: 'lots' });
    expect(r.warnings.map((w) => w.message)).toContainEqual(expect.stringContaining('default of n ("lots") does not fit the argument (integer)'));
  });

  it.each(['langfuse', 'claude-commands', 'prompt-md'] as const)('%s cannot carry types or defaults and says so', (format) => {
    const w = writeFormat(format, [exported]).warnings.map((x) => x.message);
    expect(w).toContainEqual('argument count: type integer left out (this format has no argument types; a re-import makes it a string)');
    expect(w).toContainEqual('argument ratio: default 0.25 left out (this format has no defaults)');
  });
});
