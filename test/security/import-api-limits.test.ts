// POST /admin/v1/import limits (SECURITY.md, "Prompt files through the admin API"):
// file count, path form and the admin body limit; each refusal is a 4xx naming the field.
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { IMPORT_MAX_FILES, IMPORT_MAX_PATH, IMPORT_MAX_UNZIPPED } from '../../src/rest/import/import.routes.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let client: ReturnType<typeof makeClient>;
beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
});
afterAll(() => core.close());

const file = (path: string, text = 'Hi $ARGUMENTS\n') => ({ path, text });

describe('POST /import limits', () => {
  it(`takes ${IMPORT_MAX_FILES} files and refuses one more`, async () => {
    const files = Array.from({ length: IMPORT_MAX_FILES + 1 }, (_, i) => file(`.claude/commands/p${i}.md`));
    const over = await client.call('POST', '/import?dryRun=true', { files });
    expect(over.status).toBe(422);
    expect((await over.json()).errors[0].path).toBe('files');
    const ok = await client.call('POST', '/import?dryRun=true', { files: files.slice(0, IMPORT_MAX_FILES) });
    expect(ok.status).toBe(200);
  });

  it('refuses paths that are absolute, climb, hide control characters or are too long', async () => {
    for (const p of ['/etc/x.md', 'C:/x.md', 'a/../../x.md', './x.md', 'a//x.md', 'a\\x.md', 'x\u0000.md', `${'a'.repeat(IMPORT_MAX_PATH)}.md`]) {
      const res = await client.call('POST', '/import', { files: [file(p)] });
      expect(res.status, JSON.stringify(p)).toBe(422);
      expect((await res.json()).errors[0].path).toBe('files[0].path');
    }
  });

  it('a body over the admin body limit is 413, not parsed', async () => {
    const res = await client.call('POST', '/import', { files: [file('big.md', 'x'.repeat(17 * 1024 * 1024))] });
    expect(res.status).toBe(413);
  });

  const zipOf = (tree: Record<string, Uint8Array>) => Buffer.from(zipSync(tree)).toString('base64');
  const refused = async (body: unknown) => {
    const res = await client.call('POST', '/import?dryRun=true', body);
    return { status: res.status, paths: ((await res.json()).errors ?? []).map((e: { path: string }) => e.path) as string[] };
  };

  it('refuses zip entries that climb, are absolute or use backslashes, naming the entry', async () => {
    for (const p of ['../x.md', 'a/../../x.md', '/etc/x.md', 'a\\x.md']) {
      const r = await refused({ zip: zipOf({ 'ok.md': strToU8('Hi'), [p]: strToU8('Hi') }) });
      expect(r, p).toEqual({ status: 422, paths: [`zip/${p}`] });
    }
  });

  it('refuses a zip bomb from its declared sizes, and one whose header lies while inflating', async () => {
    const zeros = new Uint8Array(IMPORT_MAX_UNZIPPED + 4 * 1024 * 1024);
    const bomb = zipSync({ 'bomb.md': zeros }, { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    expect(await refused({ zip: Buffer.from(bomb).toString('base64') })).toEqual({ status: 422, paths: ['zip'] });
    // The same archive claiming 1 byte in both headers: only counting while inflating catches it.
    const liar = Buffer.from(bomb);
    for (let at = liar.indexOf(Buffer.from([0x50, 0x4b])); at >= 0; at = liar.indexOf(Buffer.from([0x50, 0x4b]), at + 1)) {
      const sig = liar.readUInt32LE(at);
      if (sig === 0x04034b50) liar.writeUInt32LE(1, at + 22);
      if (sig === 0x02014b50) liar.writeUInt32LE(1, at + 24);
    }
    expect(await refused({ zip: liar.toString('base64') })).toEqual({ status: 422, paths: ['zip'] });
  });

  it('refuses more zip entries than files, invalid UTF-8 per entry, and files with zip together', async () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i <= IMPORT_MAX_FILES; i++) many[`p${i}.md`] = strToU8('Hi');
    expect(await refused({ zip: zipOf(many) })).toEqual({ status: 422, paths: ['zip'] });
    expect(await refused({ zip: zipOf({ 'ok.md': strToU8('Hi'), 'bad.md': new Uint8Array([0x48, 0xff, 0xfe]) }) })).toEqual({ status: 422, paths: ['zip/bad.md'] });
    expect(await refused({ files: [file('a.md')], zip: zipOf({ 'a.md': strToU8('Hi') }) })).toEqual({ status: 422, paths: ['zip'] });
  });
});
