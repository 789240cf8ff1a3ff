// Every fixture, in its own format: read → write → read gives the same arguments,
// messages (with original roles), variables and kept metadata; writing is deterministic.
import { describe, expect, it } from 'vitest';
import { readFormats, writeFormat, type FormatId } from '../../../src/library/formats/index.js';
import { analyzeTemplate } from '../../../src/core/template.js';
import { fixtureFiles, semantics, toExport } from './helpers.js';

const DIRS: [string, FormatId, number][] = [
  ['claude-commands', 'claude-commands', 4],
  ['prompt-md', 'prompt-md', 2],
  ['dotprompt', 'dotprompt', 3],
  ['prompty', 'prompty', 2],
  ['langfuse', 'langfuse', 3],
];

describe.each(DIRS)('%s fixtures round trip', (dir, format, count) => {
  const first = readFormats(fixtureFiles(dir), 'auto');

  it('reads every fixture without problems, each in the expected format', () => {
    expect(first.problems).toEqual([]);
    expect(first.skipped).toEqual([]);
    expect(first.prompts).toHaveLength(count);
    for (const p of first.prompts) expect(p.meta.format).toBe(format);
  });

  it('writes files that read back to identical semantics', () => {
    const written = writeFormat(format, first.prompts.map(toExport));
    const again = readFormats(written.files, format);
    expect(again.problems).toEqual([]);
    const byName = (ps: typeof first.prompts) => Object.fromEntries(ps.map((p) => [p.name, semantics(p)]));
    expect(byName(again.prompts)).toEqual(byName(first.prompts));
    for (const p of again.prompts) {
      const vars = (q: typeof p) => q.versions[0]!.input.messages.map((m) => (m.content.type === 'text' ? analyzeTemplate(m.content.text).variables.sort() : []));
      expect(vars(p)).toEqual(vars(first.prompts.find((q) => q.name === p.name)!));
    }
  });

  it('writes the same bytes twice and again after a second round trip', () => {
    const a = writeFormat(format, first.prompts.map(toExport)).files;
    const b = writeFormat(format, first.prompts.map(toExport)).files;
    expect(b).toEqual(a);
    const c = writeFormat(format, readFormats(a, format).prompts.map(toExport)).files;
    const sorted = (fs: typeof a) => [...fs].sort((x, y) => x.path.localeCompare(y.path));
    expect(sorted(c)).toEqual(sorted(a));
  });
});

describe('promptd prompt files through the converter registry', () => {
  it('a seed prompt reads, writes and reads back to the same content', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const dir = new URL('../../../seed/prompts/', import.meta.url);
    const name = readdirSync(dir).find((f) => f.endsWith('.yaml'))!;
    const first = readFormats([{ path: `prompts/${name}`, text: readFileSync(new URL(name, dir), 'utf8') }], 'auto');
    expect(first.problems).toEqual([]);
    const again = readFormats(writeFormat('promptd', first.prompts.map(toExport)).files, 'promptd');
    expect(again.prompts.map(semantics)).toEqual(first.prompts.map(semantics));
  });
});
