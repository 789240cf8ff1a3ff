// Issue #36.5: format files (admin import, import --format, sync) are converted on a
// worker thread with a heap cap. The result is readFormats' own; a file that takes the
// worker over its cap is reported in one line and the others still convert.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFormats } from '../../../src/library/formats/index.js';
import { readFormatsOffThread } from '../../../src/library/format-read-off-thread.js';
import { fixtureFiles } from './helpers.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/formats');

describe('converting format files off the thread', () => {
  it('gives readFormats\' result: every fixture together (problems and name clashes included)', async () => {
    // (Each worker loads the converters through tsx here: seconds each on a busy machine, so one.)
    const all = readdirSync(FIXTURES).flatMap((d) => fixtureFiles(d).map((f) => ({ ...f, path: `${d}/${f.path}` })));
    const clash = { path: 'zz/again.yaml', text: 'name: hello\nmessages: [{role: user, text: hi}]\n' };
    const first = { path: 'aa/hello.yaml', text: 'name: hello\nmessages: [{role: user, text: hi}]\n' };
    const files = [...all, clash, first];
    expect(await readFormatsOffThread(files, 'auto', { minChars: 0 })).toEqual(readFormats(files, 'auto'));
  });

  it('reports a file that takes the worker over its heap, and converts the files before and after it', async () => {
    // Within the YAML caps (99,001 nodes), but an anchor sends it to `yaml`, ~100 MB of nodes.
    const big = { path: 'prompts/big.yaml', text: `name: big\nanchor: &a hi\nmessages: [{role: user, text: *a}]\nlist: [${'1,'.repeat(99_000)}1]\n` };
    const others = [
      { path: 'prompts/a.yaml', text: 'name: a\nmessages: [{role: user, text: hi}]\n' },
      { path: 'prompts/z.yaml', text: 'name: z\nmessages: [{role: user, text: "{{nope}}"}]\n' },
      { path: '.claude/commands/c.md', text: '---\ndescription: c\n---\nHello $ARGUMENTS\n' },
    ];
    const r = await readFormatsOffThread([...others, big], 'auto', { minChars: 0, heapMb: 48 });
    const expected = readFormats(others, 'auto');
    expect(r.prompts).toEqual(expected.prompts);
    expect(r.problems).toEqual([
      ...expected.problems.filter((p) => p.file < big.path),
      { file: 'prompts/big.yaml', errors: [{ path: '(file)', message: 'parsing it took more than the 48 MiB of memory one import\'s parser may use' }] },
      ...expected.problems.filter((p) => p.file > big.path),
    ]);
  });
});
