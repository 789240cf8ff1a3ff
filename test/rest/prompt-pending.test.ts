// status=pending reads Prompt.pending, a column the write path keeps (bumpLatest, every
// move of the production label). After each kind of write, the filter must agree with
// what the summaries say from the versions themselves: pending when the active version
// is older than the latest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeCore, type TestCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { importLibrary } from '../../src/library/apply.js';
import { tempDir, writeFiles } from '../library/helpers.js';

let core: TestCore;
let call: ReturnType<typeof makeClient>['call'];
const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });
const version = (t: string, more: Record<string, unknown> = {}) => ({ arguments: [], messages: [text(t)], ...more });

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
});
afterAll(() => core.close());

type Item = { name: string; activeVersion: number | null; latestVersion: number };
type Page = { items: Item[]; total: number; nextCursor: string | null };
async function list(query: string): Promise<Page> {
  const res = await call('GET', `/prompts${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

const ok = async (method: string, url: string, body?: unknown) => {
  const res = await call(method, url, body);
  expect(res.status, `${method} ${url}: ${await res.clone().text()}`).toBeLessThan(300);
};

/**
 * The pending prompts by the filter (live and in the bin, archived or not), checked
 * against the summaries' own active and latest numbers; returns them by name.
 */
async function pending(): Promise<string[]> {
  const scopes = ['&archived=all', '&archived=all&deleted=true'];
  const byFilter: string[] = [];
  const bySummary: string[] = [];
  for (const scope of scopes) {
    const page = await list(`?status=pending${scope}&limit=200`);
    expect(page.total).toBe(page.items.length);
    byFilter.push(...page.items.map((i) => i.name));
    const sorted = await list(`?status=pending${scope}&sort=updated&limit=200`);
    expect(sorted.items.map((i) => i.name).sort()).toEqual(page.items.map((i) => i.name));
    const all = await list(`?limit=200${scope}`);
    bySummary.push(...all.items.filter((i) => i.activeVersion !== null && i.activeVersion < i.latestVersion).map((i) => i.name));
  }
  expect(byFilter).toEqual(bySummary);
  return byFilter;
}

describe('status=pending after every kind of write', () => {
  it('create, new version, activation, rollback, label moves, archive, delete and restore', async () => {
    await ok('POST', '/prompts', { name: 'a', ...version('a1'), activate: true });
    await ok('POST', '/prompts', { name: 'b', ...version('b1') });
    expect(await pending()).toEqual([]);

    // A new version of an active prompt leaves it pending; of an inactive one, not.
    await ok('POST', '/prompts/a/versions', version('a2'));
    await ok('POST', '/prompts/b/versions', version('b2'));
    expect(await pending()).toEqual(['a']);

    // Activating the latest ends it; a new version with activate never starts it.
    await ok('PUT', '/prompts/a/active', { version: 2 });
    expect(await pending()).toEqual([]);
    await ok('POST', '/prompts/a/versions', version('a3', { activate: true }));
    expect(await pending()).toEqual([]);

    // Roll back: production on an older version.
    await ok('PUT', '/prompts/a/active', { version: 1 });
    expect(await pending()).toEqual(['a']);
    // The production label set and removed directly; other labels change nothing.
    await ok('PUT', '/prompts/b/labels/production', { version: 1 });
    await ok('PUT', '/prompts/a/labels/staging', { version: 3 });
    expect(await pending()).toEqual(['a', 'b']);
    await ok('DELETE', '/prompts/b/labels/production');
    expect(await pending()).toEqual(['a']);
    await ok('PUT', '/prompts/b/labels/production', { version: 2 });
    await ok('DELETE', '/prompts/a/active');
    expect(await pending()).toEqual([]);
    await ok('PUT', '/prompts/a/active', { version: 2 });
    expect(await pending()).toEqual(['a']);

    // A release: staging (a: 3) promoted onto production.
    await ok('POST', '/labels/staging/promote', { to: 'production' });
    expect(await pending()).toEqual([]);

    // A create with several versions through the core, activating an older one.
    await core.prompts.create({ name: 'c', ...version('c1'), activate: true }, { name: 'test' });
    await ok('POST', '/prompts/c/versions', version('c2'));
    await ok('POST', '/prompts/c/versions', version('c3'));
    expect(await pending()).toEqual(['c']);

    // Archive, rename, tags: the state stays; the bin keeps it and a restore brings it back.
    await ok('PATCH', '/prompts/c', { archived: true });
    expect(await pending()).toEqual(['c']);
    expect((await list('?status=pending')).items).toEqual([]); // archived=false by default
    await ok('PATCH', '/prompts/c', { archived: false, name: 'c2' });
    await ok('PUT', '/prompts/c2/tags', { tags: ['x'] });
    expect(await pending()).toEqual(['c2']);
    await ok('DELETE', '/prompts/c2');
    expect(await pending()).toEqual(['c2']);
    expect((await list('?status=pending&deleted=true')).items.map((i) => i.name)).toEqual(['c2']);
    await ok('POST', '/prompts/c2/restore');
    expect(await pending()).toEqual(['c2']);
    expect(await list('?status=pending&q=c3')).toMatchObject({ total: 1, items: [{ name: 'c2' }] });
    expect(await list('?status=pending&q=c')).toMatchObject({ total: 1, items: [{ name: 'c2' }] });
  });

  it('imports: new prompts, new versions with and without --activate', async () => {
    const file = (name: string, t: string) => `name: ${name}\ndescription: d\nmessages:\n  - role: user\n    text: ${t}\n`;
    const dir = writeFiles(tempDir('pd-pending-'), { 'prompts/imp-one.yaml': file('imp-one', 'one v1'), 'prompts/imp-two.yaml': file('imp-two', 'two v1') });
    const before = await pending();
    const first = await importLibrary(core, dir, { activate: true });
    expect(first.failed, JSON.stringify(first.prompts)).toBe(false);
    expect(await pending()).toEqual(before);

    writeFileSync(path.join(dir, 'prompts/imp-one.yaml'), file('imp-one', 'one v2'));
    writeFileSync(path.join(dir, 'prompts/imp-two.yaml'), file('imp-two', 'two v2'));
    expect((await importLibrary(core, dir)).failed).toBe(false);
    expect(await pending()).toEqual([...before, 'imp-one', 'imp-two'].sort());

    writeFileSync(path.join(dir, 'prompts/imp-two.yaml'), file('imp-two', 'two v3'));
    expect((await importLibrary(core, dir, { activate: true })).failed).toBe(false);
    // imp-two's v3 activated; imp-one unchanged in the files, but --activate serves its latest
    const after = await pending();
    expect(after).not.toContain('imp-two');
    expect(after.includes('imp-one')).toBe((await core.prompts.get('imp-one')).activeVersion !== 2);
  });
});
