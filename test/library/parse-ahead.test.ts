// Parsing on a second thread (src/library/parse-ahead.ts) changes nothing but speed:
// the worker hands over what parsed cleanly without media files, exactly as the reader's
// thread parses it, and leaves every other file to the reader, so reports stay per file and the same.
import { lstatSync, symlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLibrary } from '../../src/library/read-library.js';
import { startParseAhead } from '../../src/library/parse-ahead.js';
import { sourceHash, statPrint } from '../../src/library/import-hashes.js';
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
    const taken = names.filter((f) => ahead.take(f) !== undefined);
    ahead.close();
    expect(taken.sort()).toEqual(names.filter((f) => /p-\d+\.yaml$|json\.json$/.test(f)));
    expect(taken).toHaveLength(21);
  });

  it('hands over the bytes it read, their hash and stat fingerprint, as the reader takes them', async () => {
    const dir = writeFiles(tempDir('pd-ahead-'), { 'prompts/a.yaml': good('a') });
    const ahead = startParseAhead(dir, ['prompts/a.yaml'], {}, { minFiles: 1 }, { salt: 's', key: 'k', startedMs: Date.now() + 60_000 })!;
    await ahead.done;
    const got = ahead.take('prompts/a.yaml')!;
    ahead.close();
    expect(got.size).toBe(Buffer.byteLength(good('a')));
    expect(got.source!.hash).toBe(sourceHash('s', 'prompts/a.yaml', Buffer.from(good('a')), []));
    expect(got.source!.stat).toBe(statPrint('k', [lstatSync(`${dir}/prompts/a.yaml`)], Date.now() + 60_000));
    expect(got.source!.stat).not.toBe('');
  });

  it('counts what the worker read against the total and records the same hashes as one thread', () => {
    const dir = writeFiles(tempDir('pd-ahead-'), files);
    // Past the limit of all files together, the later files fail, whoever read them.
    const limits = { maxTotalBytes: 1_200 };
    const skip = () => ({ salt: 'salt', unchanged: new Map(), startedMs: Date.now() + 60_000 });
    const alone = readLibrary(dir, limits, undefined, skip());
    const withWorker = readLibrary(dir, limits, undefined, skip(), { minFiles: 1, wait: true });
    expect(withWorker).toEqual(alone);
    expect(readLibrary(dir, limits, undefined, skip(), { minFiles: 1 })).toEqual(alone); // both threads parsing
    expect(alone.problems.filter((p) => p.errors[0]!.message.includes('--max-total-size')).length).toBeGreaterThan(5);
    expect(alone.prompts.length).toBeGreaterThan(3);
    expect(alone.prompts.every((p) => p.source && p.source.stat !== '')).toBe(true);
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

  it('reads to the same result while both threads parse (each file claimed by one), and when the reader only waits for the worker', () => {
    const many = { ...files, ...Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`prompts/q-${i}.yaml`, good(`q-${i}`)])) };
    const dir = writeFiles(tempDir('pd-ahead-'), many);
    const skip = () => ({ salt: 'salt', unchanged: new Map(), startedMs: Date.now() + 60_000 });
    const alone = readLibrary(dir, {}, undefined, skip());
    expect(readLibrary(dir, {}, undefined, skip(), { minFiles: 1 })).toEqual(alone);
    expect(readLibrary(dir, {}, undefined, skip(), { minFiles: 1, noSteal: true })).toEqual(alone);
    expect(alone.prompts).toHaveLength(300 + 21 + 1);
  });

  it('starts no thread for a handful of files', () => {
    expect(startParseAhead(tempDir('pd-ahead-'), ['prompts/a.yaml'], {})).toBeUndefined();
  });
});
