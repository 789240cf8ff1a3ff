// POST /admin/v1/import: format files in a JSON body → the plan (dryRun) or the import,
// through HTTP with every response checked against the OpenAPI document.
import { strToU8, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { fixtureFiles } from '../library/formats/helpers.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let client: ReturnType<typeof makeClient>;
beforeEach(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
});
afterEach(() => core.close());

const post = async (query: string, body: unknown) => {
  const res = await client.call('POST', `/import${query}`, body);
  return { status: res.status, body: await res.json() };
};

describe('POST /import', () => {
  it('dryRun returns the plan with per-file warnings and line numbers, and writes nothing', async () => {
    const r = await post('?format=auto&dryRun=true', { files: fixtureFiles('prompty') });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ format: 'auto', dryRun: true, applied: false, failed: false, counts: { created: 2 } });
    const chat = r.body.prompts.find((p: { name: string }) => p.name === 'chat');
    expect(chat).toMatchObject({ file: 'chat.prompty', action: 'create', creates: [1] });
    expect(chat.warnings).toContainEqual({ file: 'chat.prompty', line: 26, message: expect.stringContaining('{% for doc in documents %}') });
    expect((await core.prompts.list({})).items).toEqual([]);
  });

  it('applies, and sending the same files again changes nothing', async () => {
    const files = fixtureFiles('langfuse');
    const first = await post('?format=langfuse', { files, activate: true });
    expect(first.body).toMatchObject({ applied: true, failed: false, counts: { created: 3, activated: 3 } });
    expect(first.body.prompts.find((p: { name: string }) => p.name === 'support-agent').warnings.length).toBeGreaterThan(0);
    const again = await post('?format=langfuse', { files, activate: true });
    expect(again.body.counts).toEqual({ created: 0, newVersion: 0, unchanged: 3, activated: 0, errors: 0 });
    expect((await core.prompts.get('summarize')).latestVersion).toBe(1);
  });

  it('any bad file writes nothing unless continueOnError; --label puts the version under it', async () => {
    const files = fixtureFiles('bad');
    const all = await post('', { files, label: 'staging' });
    expect(all.body).toMatchObject({ applied: false, failed: true });
    expect(all.body.prompts.find((p: { file: string }) => p.file === 'unclosed.prompt').errors[0].path).toBe('messages[0].content.text');
    expect(all.body.skipped).toEqual(['README.md']);
    expect((await core.prompts.list({})).items).toEqual([]);
    const some = await post('', { files, label: 'staging', continueOnError: true });
    expect(some.body).toMatchObject({ applied: true, failed: true, counts: { created: 1 } });
    expect((await core.labels.list('ok')).items).toEqual([expect.objectContaining({ label: 'staging', version: 1 })]);
  });

  it('a zip of a fixture folder gives the same plan as its files', async () => {
    const files = fixtureFiles('claude-commands');
    const tree: Record<string, Uint8Array> = { '__MACOSX/._x.md': strToU8('junk') };
    for (const f of files) tree[f.path] = strToU8(f.text);
    const zip = Buffer.from(zipSync(tree)).toString('base64');
    const fromFiles = await post('?dryRun=true', { files });
    const fromZip = await post('?dryRun=true', { zip });
    expect(fromZip.status).toBe(200);
    expect(fromFiles.body.counts.created).toBeGreaterThan(0);
    const byFile = (b: { prompts: { file: string }[] }) => [...b.prompts].sort((x, y) => x.file.localeCompare(y.file));
    expect(byFile(fromZip.body)).toEqual(byFile(fromFiles.body));
    expect({ ...fromZip.body, prompts: [] }).toEqual({ ...fromFiles.body, prompts: [] });
  });

  it('refuses bad input with problem+json naming the field', async () => {
    for (const q of ['?format=word', '?dryRun=yes']) {
      const res = await client.call('POST', `/import${q}`, { files: [{ path: 'a.md', text: 'x' }] });
      expect(res.status, q).toBe(400);
      expect((await res.json()).errors[0].path).toMatch(/format|dryRun/);
    }
    const cases: [string, unknown, string][] = [
      ['', { files: [] }, 'files'],
      ['', {}, 'files'],
      ['', { zip: 'not base64!' }, 'zip'],
      ['', { zip: 'aGVsbG8=' }, 'zip'],
      ['', { files: [{ path: '../etc/passwd.md', text: 'x' }] }, 'files[0].path'],
      ['', { files: [{ path: '/abs.md', text: 'x' }] }, 'files[0].path'],
      ['', { files: [{ path: 'a.md', text: 'x', mode: 1 }] }, 'files[0]'],
      ['', { files: [{ path: 'a.md', text: 'x' }], label: 'latest' }, 'label'],
    ];
    for (const [q, body, field] of cases) {
      const res = await client.call('POST', `/import${q}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const p = await res.json();
      expect(p.errors.map((e: { path: string }) => e.path), JSON.stringify(body)).toContain(field);
    }
  });
});
