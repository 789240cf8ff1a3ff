// Issue #36.5: a library file whose parse takes the capped worker (parse-cap.ts) over its
// heap is refused in one line and never parsed on the reader's thread; the other files
// are read as ever. The hostile file passes the YAML caps (99,001 nodes), but an anchor
// sends it to `yaml`: ~100 MB of nodes, over the 48 MiB these tests give the worker.
// `promptd import` and `promptd check` are spawned (dist/: `npm run build:server`).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAheadOne, readLibrary } from '../../src/library/read-library.js';
import { createLibraryReader } from '../../src/library/safe-read.js';
import { PARSE_CAP_MIN_BYTES } from '../../src/library/parse-cap-check.js';
import { libraryOverParseCap } from '../../src/library/parse-cap.js';
import { tempDir, writeFiles } from './helpers.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/promptd.js');
const HEAP_MB = 48;
const TOO_LARGE = `too large to parse (over the ${HEAP_MB} MiB parse limit)`;

// Parsed on the reader's thread, its 99,001 tags would be refused by the schema instead.
const big = `name: big\nmessages:\n  - role: user\n    text: &a hi\n  - role: user\n    text: *a\ntags: [${'1,'.repeat(99_000)}1]\n`;
const library = () => writeFiles(tempDir('pd-parse-cap-'), {
  'prompts/big.yaml': big,
  'prompts/hello.yaml': 'name: hello\nmessages:\n  - role: user\n    text: Hello\n',
  // Large enough to go to the worker too (over 64 KiB), and cheap to parse: it fits.
  'prompts/long.yaml': `name: long\nmessages:\n  - role: user\n    text: "${'word '.repeat(14_000)}"\n`,
  'prompts/zed.yaml': 'name: zed\nmessages:\n  - role: user\n    text: Bye\n',
});

function promptd(args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1', LOG_LEVEL: 'warn', PROMPTD_PARSE_HEAP_MB: String(HEAP_MB) },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  if (!existsSync(path.join(root, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build:server` before this test');
});

describe('the heap cap on parsing library files', () => {
  it('refuses the file that goes over it, and reads the files before and after it', async () => {
    const dir = library();
    const capped = await libraryOverParseCap(dir, {}, { heapMb: HEAP_MB });
    expect([...capped.refused]).toEqual([['prompts/big.yaml', TOO_LARGE]]);
    expect([...capped.fits.keys()]).toEqual(['prompts/long.yaml']); // the small files are not sent
    const lib = readLibrary(dir, {}, undefined, undefined, undefined, capped);
    expect(lib.prompts.map((p) => p.name)).toEqual(['hello', 'long', 'zed']);
    expect(lib.problems).toEqual([{ file: 'prompts/big.yaml', errors: [{ path: '(file)', message: TOO_LARGE }] }]);
  });

  it('never parses a large file here but as the bytes the worker parsed within its cap', async () => {
    const dir = library();
    const capped = await libraryOverParseCap(dir, {}, { heapMb: HEAP_MB });
    // Rewritten after the worker's parse: same size, other bytes (and the worker never saw them).
    writeFiles(dir, { 'prompts/long.yaml': `name: long\nmessages:\n  - role: user\n    text: "${'draw '.repeat(14_000)}"\n` });
    const lib = readLibrary(dir, {}, undefined, undefined, undefined, capped);
    expect(lib.prompts.map((p) => p.name)).toEqual(['hello', 'zed']);
    expect(lib.problems.map((p) => [p.file, p.errors[0]!.message])).toEqual([
      ['prompts/big.yaml', TOO_LARGE],
      ['prompts/long.yaml', 'changed while the import was reading it; import it again'],
    ]);
    // The parse-ahead worker and the reader's parsing ahead leave a large file to the reader.
    const bytes = readFileSync(path.join(dir, 'prompts/long.yaml'));
    expect(parseAheadOne(createLibraryReader(dir), 'prompts/long.yaml', undefined)).toBeUndefined();
    expect(bytes.length).toBeGreaterThanOrEqual(PARSE_CAP_MIN_BYTES);
  });

  it('promptd import refuses it in one line and imports the rest', () => {
    const dir = library();
    const r = promptd(['--database-url', `file:${path.join(tempDir(), 'cap.db')}`, 'import', dir, '--activate']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.includes('big.yaml'))).toEqual([`error prompts/big.yaml: (file): ${TOO_LARGE}`]);
    expect(r.stdout).toContain('imported: 3 created');
  });

  it('promptd check refuses it in one line and checks the rest', () => {
    const r = promptd(['check', library()]);
    expect(r.code).toBe(1);
    // check's usual report of a file it cannot read: its name, then its error.
    expect(r.stdout).toContain(`✗ prompts/big.yaml: cannot be read\n    (file): ${TOO_LARGE}\n`);
    expect(r.stdout).not.toContain('tags');
    for (const name of ['hello', 'long', 'zed']) expect(r.stdout).toContain(`✓ ${name} v1 (prompts/${name}.yaml)`);
    expect(r.stdout).toContain('1 file(s) unreadable');
  });
});
