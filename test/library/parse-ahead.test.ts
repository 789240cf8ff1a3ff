// Parsing on a second thread (src/library/parse-ahead.ts) changes nothing but speed:
// the worker hands over what parsed cleanly without media files, exactly as the reader's
// thread parses it, and leaves every other file to the reader, so reports stay per file and the same.
import { symlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLibrary } from '../../src/library/read-library.js';
import { startParseAhead } from '../../src/library/parse-ahead.js';
import { tempDir, writeFiles } from './helpers.js';

const good = (n: string, extra = '') => `name: ${n}\n${extra}messages:\n  - role: user\n    text: "hello {{x}} from ${n}"\narguments:\n  - name: x\n    required: true\n`;

// Clean files, and beside them every kind of file the worker must leave alone.
const files: Record<string, string> = {
  ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`prompts/p-${i}.yaml`, good(`p-${i}`)])),
  'prompts/bad-yaml.yaml': 'name: bad-yaml\nmessages: [\n',
  'prompts/open-quote.yaml': 'name: open-quote\nmessages:\n  - role: user\n    text: "never closed\n',
  'prompts/dup-key.yaml': 'name: dup-key\nname: dup-key\nmessages: []\n',
  'prompts/proto.yaml': `__proto__: {polluted: true}\n${good('proto')}`,
  'prompts/schema.yaml': 'name: schema\nmessages:\n  - role: robot\n    text: hi\n',
  'prompts/other-name.yaml': good('p-3'),
  'prompts/json.json': JSON.stringify({ name: 'json', messages: [{ role: 'user', text: 'from json' }] }),
  'prompts/media.yaml': 'name: media\nmessages:\n  - role: user\n    image: {file: media/dot.png, mimeType: image/png}\n',
  'media/dot.png': 'not really a png',
};
const prompts = Object.keys(files).filter((f) => f.startsWith('prompts/')).sort();

describe('parsing ahead on a worker thread', () => {
  it('hands over each clean file, and nothing for files with problems or media files', async () => {
    const dir = writeFiles(tempDir('pd-ahead-'), files);
    const names = prompts;
    const ahead = startParseAhead(dir, names, {}, { minFiles: 1 })!;
    expect(ahead).toBeDefined();
    await ahead.done;
    const { readFileSync } = await import('node:fs');
    const taken = names.filter((f) => ahead.take(f, readFileSync(`${dir}/${f}`, 'utf8')) !== undefined);
    ahead.close();
    expect(taken.sort()).toEqual(names.filter((f) => /p-\d+\.yaml$|json\.json$/.test(f)));
    expect(taken).toHaveLength(21);
  });

  it('takes a value only for the text the worker parsed', async () => {
    const dir = writeFiles(tempDir('pd-ahead-'), { 'prompts/a.yaml': good('a') });
    const ahead = startParseAhead(dir, ['prompts/a.yaml'], {}, { minFiles: 1 })!;
    await ahead.done;
    expect(ahead.take('prompts/a.yaml', good('a', 'title: edited meanwhile\n'))).toBeUndefined();
    ahead.close();
  });

  it('reads a library to the same result, problems included, with and without the worker', () => {
    const dir = writeFiles(tempDir('pd-ahead-'), files);
    // A link to a clean file: the worker's reader refuses it like the reader's does.
    symlinkSync(`${dir}/prompts/p-1.yaml`, `${dir}/prompts/link.yaml`);
    const alone = readLibrary(dir);
    const withWorker = readLibrary(dir, {}, undefined, undefined, { minFiles: 1, wait: true });
    expect(withWorker).toEqual(alone);
    expect(alone.prompts.find((p) => p.name === 'media')!.versions[0]!.input.messages[0]!.content).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(alone.problems.map((p) => p.file).sort()).toEqual(['prompts/bad-yaml.yaml', 'prompts/dup-key.yaml', 'prompts/link.yaml', 'prompts/open-quote.yaml', 'prompts/other-name.yaml', 'prompts/proto.yaml', 'prompts/schema.yaml']);
  });

  it('starts no thread for a handful of files', () => {
    expect(startParseAhead(tempDir('pd-ahead-'), ['prompts/a.yaml'], {})).toBeUndefined();
  });
});
