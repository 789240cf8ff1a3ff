// GET /admin/v1/prompts for finding prompts among many: q over descriptions and message
// text, total, sort=name|updated with keyset cursors, status and label filters; every
// response checked strictly against the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { actor, makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
  const p = core.prompts;
  // Created in this order; updated-order is checked against edits made below.
  await p.create({ name: 'alpha', description: 'Summarise a Quarterly report', arguments: [], messages: [text('Read it all.')], activate: true }, actor);
  await p.create({ name: 'beta', title: 'Beta title', arguments: [], messages: [text('Translate into Klingon, then back.')], activate: true }, actor);
  await p.create({ name: 'gamma', arguments: [], messages: [text('old words: zebra')] }, actor); // inactive
  await p.create({ name: 'delta', arguments: [], messages: [text('delta v1')], activate: true }, actor);
  await p.createVersion('delta', { arguments: [], messages: [text('delta v2 pending')] }, actor); // pending
  await p.create({ name: 'epsilon', arguments: [], messages: [text('archived one')], activate: true }, actor);
  await p.update('epsilon', { archived: true }, actor);
  await p.createVersion('gamma', { arguments: [], messages: [text('new words: giraffe')] }, actor); // zebra only in v1 now
  await core.labels.set('beta', 'staging', 1, actor);
});
afterAll(() => core.close());

type PageBody = { items: { name: string }[]; nextCursor: string | null; total: number };
const list = async (query: string): Promise<PageBody> => {
  const res = await call('GET', `/prompts${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
};
const names = async (query: string) => (await list(query)).items.map((p) => p.name);

describe('q= searches names, titles, descriptions and message text of the latest version', () => {
  it('finds by description and by template text, case-insensitively', async () => {
    expect(await names('?q=quarterly')).toEqual(['alpha']);
    expect(await names('?q=KLINGON')).toEqual(['beta']);
    expect(await names('?q=beta%20TITLE')).toEqual(['beta']);
    expect(await names('?q=elt')).toEqual(['delta']);
    // the latest version only: gamma's first version said zebra
    expect(await names('?q=giraffe')).toEqual(['gamma']);
    expect(await names('?q=zebra')).toEqual([]);
    // archived prompts are searched when asked for
    expect(await names('?q=archived%20one')).toEqual([]);
    expect(await names('?q=archived%20one&archived=all')).toEqual(['epsilon']);
  });

  it('a rename is searchable under the new name only; the text stays searchable', async () => {
    await call('POST', '/prompts', { name: 'old-name', arguments: [], messages: [text('rename me: walrus')] });
    await call('PATCH', '/prompts/old-name', { name: 'fresh-name' });
    expect(await names('?q=old-name')).toEqual([]);
    expect(await names('?q=fresh')).toEqual(['fresh-name']);
    expect(await names('?q=walrus')).toEqual(['fresh-name']);
    await call('DELETE', '/prompts/fresh-name');
    expect(await names('?q=walrus')).toEqual([]);
    expect(await names('?q=walrus&deleted=true')).toEqual(['fresh-name']);
  });
});

describe('total, sort and paging', () => {
  it('total counts every match, whatever the page', async () => {
    expect(await list('?limit=2')).toMatchObject({ total: 4 });
    const first = await list('?limit=1&archived=all');
    expect(first.total).toBe(5);
    expect((await list(`?limit=1&archived=all&cursor=${encodeURIComponent(first.nextCursor!)}`)).total).toBe(5);
    expect((await list('?q=nothing-like-this')).total).toBe(0);
    expect((await list('?q=a')).total).toBe((await names('?q=a&limit=200')).length);
  });

  it('a first page with room to spare, exactly full, or one short: total is every match each time', async () => {
    // A first page that is not full is counted from its own rows (no second scan).
    for (const [limit, more] of [[5, false], [4, false], [3, true], [1, true]] as const) {
      const page = await list(`?limit=${limit}`);
      expect(page.total).toBe(4);
      expect(page.items).toHaveLength(Math.min(limit, 4));
      expect(page.nextCursor !== null).toBe(more);
    }
    expect(await list('?q=GIRAFFE&limit=1')).toMatchObject({ total: 1, nextCursor: null });
  });

  it('sort=updated puts the most recently edited first and pages with its own cursor', async () => {
    // the staging label moved on beta last
    expect(await names('?sort=updated')).toEqual(['beta', 'gamma', 'delta', 'alpha']);
    expect(await names('?sort=name')).toEqual(['alpha', 'beta', 'delta', 'gamma']);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p = await list(`?sort=updated&archived=all&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(p.total).toBe(5);
      seen.push(...p.items.map((i) => i.name));
      cursor = p.nextCursor;
    } while (cursor);
    expect(seen).toEqual(await names('?sort=updated&archived=all'));
    // A cursor belongs to its sort order.
    const byName = (await list('?limit=1')).nextCursor!;
    const res = await call('GET', `/prompts?sort=updated&cursor=${encodeURIComponent(byName)}`);
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].path).toBe('cursor');
  });

  it('many prompts edited in the same millisecond still page without gaps or repeats (the id breaks ties)', async () => {
    const at = new Date();
    for (let i = 0; i < 7; i++) await call('POST', '/prompts', { name: `same-${i}`, arguments: [], messages: [text('same ms')] });
    // Same updatedAt for all of them, as a bulk import writes it.
    await (core as unknown as { db: { prisma: { prompt: { updateMany(a: unknown): Promise<unknown> } } } }).db.prisma.prompt.updateMany({ where: { name: { startsWith: 'same-' } }, data: { updatedAt: at } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p = await list(`?sort=updated&q=same%20ms&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...p.items.map((i) => i.name));
      cursor = p.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(['same-0', 'same-1', 'same-2', 'same-3', 'same-4', 'same-5', 'same-6']);
    for (let i = 0; i < 7; i++) await call('DELETE', `/prompts/same-${i}`);
  });
});

describe('status and label filters', () => {
  it('pending, inactive, archived; combined with label and q', async () => {
    expect(await names('?status=pending')).toEqual(['delta']);
    expect(await names('?status=inactive')).toEqual(['gamma']);
    expect(await names('?status=archived')).toEqual(['epsilon']);
    expect((await list('?status=pending')).total).toBe(1);
    expect(await names('?label=staging')).toEqual(['beta']);
    expect(await names('?label=staging&q=klingon')).toEqual(['beta']);
    expect(await names('?label=staging&status=inactive')).toEqual([]);
    expect(await names('?label=production&sort=updated')).toEqual(['beta', 'delta', 'alpha']);
  });

  it('label=production follows every move of the label (the list reads its mirror, Prompt.activeVersionId)', async () => {
    const production = async (query = '') => {
      const page = await list(`?label=production${query}`);
      return { names: page.items.map((p) => p.name), total: page.total };
    };
    expect(await production()).toEqual({ names: ['alpha', 'beta', 'delta'], total: 3 });
    expect((await call('PUT', '/prompts/gamma/labels/production', { version: 1 })).status).toBe(200);
    expect(await production()).toEqual({ names: ['alpha', 'beta', 'delta', 'gamma'], total: 4 });
    expect((await call('DELETE', '/prompts/gamma/labels/production')).status).toBe(204);
    expect((await call('DELETE', '/prompts/alpha/active')).status).toBe(200);
    expect(await production()).toEqual({ names: ['beta', 'delta'], total: 2 });
    // a short q (a bounded scan) and the other filters combine with it
    expect(await production('&q=kl')).toEqual({ names: ['beta'], total: 1 });
    expect(await production('&archived=all')).toEqual({ names: ['beta', 'delta', 'epsilon'], total: 3 });
    expect(await production('&status=pending')).toEqual({ names: ['delta'], total: 1 });
    expect(await production('&status=inactive')).toEqual({ names: [], total: 0 });
    expect((await call('PUT', '/prompts/alpha/active', { version: 1 })).status).toBe(200);
    expect(await production('&sort=updated')).toEqual({ names: ['alpha', 'beta', 'delta'], total: 3 });
    // the bin keeps the pointer: a deleted prompt that was served is found there
    expect((await call('DELETE', '/prompts/beta')).status).toBe(204);
    try {
      expect(await production()).toEqual({ names: ['alpha', 'delta'], total: 2 });
      expect(await production('&deleted=true')).toEqual({ names: ['beta'], total: 1 });
    } finally {
      expect((await call('POST', '/prompts/beta/restore')).status).toBe(200);
    }
    expect(await production()).toEqual({ names: ['alpha', 'beta', 'delta'], total: 3 });
  });

  it('each item is a summary: the latest title and description, the active and latest numbers', async () => {
    const res = await call('GET', '/prompts?archived=all');
    const items: Record<string, unknown>[] = (await res.json()).items;
    const byName = new Map(items.map((i) => [i.name, i]));
    expect(byName.get('alpha')).toMatchObject({ title: null, description: 'Summarise a Quarterly report', activeVersion: 1, latestVersion: 1, archived: false, tags: [], lastUsedAt: null });
    expect(byName.get('beta')).toMatchObject({ title: 'Beta title', description: null, activeVersion: 1, latestVersion: 1 });
    expect(byName.get('delta')).toMatchObject({ activeVersion: 1, latestVersion: 2 });
    expect(byName.get('gamma')).toMatchObject({ activeVersion: null, latestVersion: 2 });
    expect(byName.get('epsilon')).toMatchObject({ archived: true, activeVersion: 1 });
    expect(items.every((i) => typeof i.updatedAt === 'string' && !('deletedAt' in i))).toBe(true);
  });

  it('400 naming the parameter for an unknown sort or status', async () => {
    for (const [query, path] of [['?sort=used', 'query.sort'], ['?status=draft', 'query.status']]) {
      const res = await call('GET', `/prompts${query}`);
      expect(res.status, query).toBe(400);
      expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });
});
