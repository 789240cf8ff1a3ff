// The library reader checks each folder once per import (src/library/safe-read.ts), so a
// folder swapped for a link to the outside after its check is caught on the open file:
// where the handle really is (Linux: /proc/self/fd; else realpath) must stay in the library.
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLibraryReader, FileError } from '../../src/library/safe-read.js';
import { tempDir, writeFiles } from '../library/helpers.js';

describe('library reader: a folder swapped for a link after its check', () => {
  it('refuses the file read through the link, names it, and reads nothing from outside', () => {
    const lib = writeFiles(tempDir('pd-swap-'), { 'prompts/a.yaml': 'name: a\n', 'prompts/b.yaml': 'name: b\n' });
    const outside = tempDir('pd-swap-out-');
    mkdirSync(path.join(outside, 'p'));
    writeFileSync(path.join(outside, 'p/b.yaml'), 'name: outside-canary\n');
    const reader = createLibraryReader(lib);
    expect(reader.read('prompts/a.yaml', '(file)').toString()).toBe('name: a\n');
    renameSync(path.join(lib, 'prompts'), path.join(lib, 'prompts-old'));
    symlinkSync(path.join(outside, 'p'), path.join(lib, 'prompts'));
    let err: unknown;
    try {
      reader.read('prompts/b.yaml', '(file)');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FileError);
    expect((err as FileError).errors).toEqual([{ path: '(file)', message: 'prompts/b.yaml resolves outside the library directory' }]);
    // A file of the library read after the swap back is read as usual.
    renameSync(path.join(lib, 'prompts'), path.join(lib, 'prompts-link'));
    renameSync(path.join(lib, 'prompts-old'), path.join(lib, 'prompts'));
    expect(reader.read('prompts/b.yaml', '(file)').toString()).toBe('name: b\n');
  });
});
