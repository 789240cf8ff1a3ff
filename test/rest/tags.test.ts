// Prompt tags (docs/access.md): set on create, replaced by PUT …/tags or PATCH, the
// `?tag=` filter (repeatable: any of), `prompt.tagged` in the change log, and the
// library's `tags:` (export → import is exact). Responses checked against the document.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { importLibrary } from '../../src/library/apply.js';
import { exportLibrary } from '../../src/library/export.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';
import { tempDir } from '../library/helpers.js';

let core: Core;
let client: ReturnType<typeof makeClient>;

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
});
afterAll(() => core.close());

const names = async (query: string) => (await (await client.call('GET', `/prompts${query}`)).json()).items.map((p: { name: string }) => p.name);

describe('prompt tags', () => {
  it('set on create (sorted, once each), replaced with PUT and PATCH, filtered with ?tag=', async () => {
    let res = await client.call('POST', '/prompts', { ...textPrompt('alpha'), tags: ['team-a', 'support', 'team-a'] });
    expect(res.status).toBe(201);
    expect((await res.json()).tags).toEqual(['support', 'team-a']);
    await client.call('POST', '/prompts', { ...textPrompt('beta'), tags: ['team-b'] });
    await client.call('POST', '/prompts', textPrompt('gamma'));
    expect((await (await client.call('GET', '/prompts/gamma')).json()).tags).toEqual([]);

    expect(await names('?tag=team-a')).toEqual(['alpha']);
    expect(await names('?tag=team-a&tag=team-b')).toEqual(['alpha', 'beta']);
    expect(await names('?tag=nobody')).toEqual([]);
    // Exact tags, not substrings: `team` is not `team-a`.
    expect(await names('?tag=team')).toEqual([]);
    const page = await (await client.call('GET', '/prompts?tag=team-b')).json();
    expect(page.total).toBe(1);
    expect(page.items[0].tags).toEqual(['team-b']);

    res = await client.call('PUT', '/prompts/gamma/tags', { tags: ['team-b'] });
    expect(res.status).toBe(200);
    expect((await res.json()).tags).toEqual(['team-b']);
    expect(await names('?tag=team-b')).toEqual(['beta', 'gamma']);
    res = await client.call('PATCH', '/prompts/beta', { tags: [] });
    expect((await res.json()).tags).toEqual([]);
    expect(await names('?tag=team-b')).toEqual(['gamma']);

    const log = await core.feed.since(0);
    const tagged = log.filter((e) => e.action === 'prompt.tagged');
    expect(tagged.map((e) => [e.entityKey, e.details])).toEqual([
      ['alpha', { from: [], to: ['support', 'team-a'] }],
      ['beta', { from: [], to: ['team-b'] }],
      ['gamma', { from: [], to: ['team-b'] }],
      ['beta', { from: ['team-b'], to: [] }],
    ]);
    // The same tags again: nothing written.
    await client.call('PUT', '/prompts/gamma/tags', { tags: ['team-b'] });
    expect((await core.feed.since(0)).filter((e) => e.action === 'prompt.tagged')).toHaveLength(4);
  });

  it('refuses bad tags and more than 20, naming the field', async () => {
    for (const tags of [['Team'], ['-x'], ['a'.repeat(33)], ['a b'], Array.from({ length: 21 }, (_, i) => `t${i}`)]) {
      const res = await client.call('PUT', '/prompts/alpha/tags', { tags });
      expect(res.status, JSON.stringify(tags)).toBe(422);
      expect((await res.json()).errors[0].path).toMatch(/^tags/);
    }
    expect((await client.call('GET', '/prompts?tag=Bad')).status).toBe(400);
    expect((await client.call('PUT', '/prompts/nope/tags', { tags: [] })).status).toBe(404);
  });

  it('export writes tags: and import sets them back exactly', async () => {
    const dir = tempDir();
    await exportLibrary(core, dir, { latest: true });
    expect(readFileSync(path.join(dir, 'prompts', 'alpha.yaml'), 'utf8')).toContain('tags: [support, team-a]');
    expect(readFileSync(path.join(dir, 'prompts', 'beta.yaml'), 'utf8')).not.toContain('tags:');
    const target = await makeCore();
    try {
      const report = await importLibrary(target, dir);
      expect(report.failed).toBe(false);
      const summary = async (c: Core) => (await c.prompts.list({ limit: 100 })).items.map((p) => [p.name, p.tags]);
      expect(await summary(target)).toEqual(await summary(core));
      // An import changes tags when the file names others.
      const dir2 = tempDir();
      await exportLibrary(target, dir2, { latest: true });
      expect(readFileSync(path.join(dir2, 'prompts', 'alpha.yaml'), 'utf8')).toBe(readFileSync(path.join(dir, 'prompts', 'alpha.yaml'), 'utf8'));
    } finally {
      await target.close();
    }
  });
});
