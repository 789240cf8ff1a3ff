// GET /admin/v1/activity: the change log newest first, filtered by who and what, paged
// with keyset cursors; every response checked strictly against the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';
import { assertConforms } from '../helpers/openapi.js';

let core: Core;
let client: ReturnType<typeof makeClient>;
let editor: { id: number; token: string };

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
  editor = await (await client.call('POST', '/tokens', { name: 'editor' })).json();
  // admin creates and activates; the editor token makes a version, activates, rolls back,
  // moves a label, archives, renames and deletes.
  await client.call('POST', '/prompts', { ...textPrompt('greet'), activate: true });
  await client.call('POST', '/prompts', textPrompt('other'));
  const as = async (method: string, path: string, body?: unknown) => {
    const res = await client.app.request(`/admin/v1${path}`, {
      method, headers: { authorization: `Bearer ${editor.token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    await assertConforms(await client.openapi(), method, path, res);
    expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
  };
  const { name: _n, ...v2 } = textPrompt('greet', 'Hi {{who}}');
  await as('POST', '/prompts/greet/versions', v2);
  await as('PUT', '/prompts/greet/active', { version: 2 });
  await as('PUT', '/prompts/greet/active', { version: 1 });
  await as('PUT', '/prompts/greet/labels/staging', { version: 2 });
  await as('PATCH', '/prompts/greet', { archived: true });
  await as('PATCH', '/prompts/greet', { name: 'hello' });
  await as('DELETE', '/prompts/hello');
});
afterAll(() => core.close());

type Item = { id: number; at: string; actor: string; action: string; entity: string; entityKey: string; details: Record<string, unknown> | null };
const get = async (query: string) => {
  const res = await client.call('GET', `/activity${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { items: Item[]; nextCursor: string | null };
};

describe('GET /admin/v1/activity', () => {
  it('lists activations, rollbacks, label moves, archives, renames and deletes newest first, naming the token', async () => {
    const { items } = await get('?limit=200');
    const ids = items.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const mine = items.filter((e) => e.actor === `token:editor#${editor.id}`).map((e) => e.action);
    expect(mine).toEqual(['prompt.deleted', 'prompt.renamed', 'prompt.archived', 'label.set', 'prompt.rolled_back', 'prompt.activated', 'version.created']);
    const rename = items.find((e) => e.action === 'prompt.renamed')!;
    // A delete's snapshot is summarised: no version content in a listing.
    const deleted = items.find((e) => e.action === 'prompt.deleted')!;
    expect(deleted.details).toMatchObject({ snapshot: { archived: true, activeVersion: 1, latestVersion: 2, versions: 2, labels: { production: 1, staging: 2 } } });
    expect(JSON.stringify(deleted.details)).not.toContain('Hello {{who}}');
    expect(JSON.stringify((await core.feed.since(0)).find((e) => e.action === 'prompt.deleted'))).toContain('Hello {{who}}');
    expect(rename).toMatchObject({ entity: 'prompt', entityKey: 'hello', details: { from: 'greet', to: 'hello' } });
    expect(items.at(-1)).toMatchObject({ action: 'token.created', actor: 'admin', entity: 'token', entityKey: String(editor.id) });
    expect(Object.keys(items[0]!).sort()).toEqual(['action', 'actor', 'at', 'details', 'entity', 'entityKey', 'id']);
  });

  it('filters by actor, action, action pattern and prompt, together', async () => {
    expect((await get('?actor=admin')).items.map((e) => e.action)).toEqual(['prompt.created', 'prompt.activated', 'prompt.created', 'token.created']);
    expect((await get(`?actor=${encodeURIComponent(`token:editor#${editor.id}`)}&action=prompt.activated`)).items).toHaveLength(1);
    expect((await get('?action=prompt.rolled_back')).items.map((e) => e.details)).toEqual([expect.objectContaining({ from: 2, to: 1 })]);
    expect((await get('?action=label.*')).items.map((e) => e.action)).toEqual(['label.set']);
    expect((await get('?action=token.*')).items.map((e) => e.action)).toEqual(['token.created']);
    expect((await get('?prompt=greet')).items.map((e) => e.action)).toEqual(['prompt.archived', 'label.set', 'prompt.rolled_back', 'prompt.activated', 'version.created', 'prompt.activated', 'prompt.created']);
    expect((await get('?prompt=hello')).items.map((e) => e.action)).toEqual(['prompt.deleted', 'prompt.renamed']);
    expect((await get('?prompt=greet&actor=admin')).items.map((e) => e.action)).toEqual(['prompt.activated', 'prompt.created']);
    expect((await get('?actor=nobody')).items).toEqual([]);
  });

  it('pages with keyset cursors, newest first, without gaps or repeats', async () => {
    const all = (await get('?limit=200')).items.map((e) => e.id);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const p = await get(`?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(p.items.length).toBeLessThanOrEqual(3);
      seen.push(...p.items.map((e) => e.id));
      cursor = p.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
    // A filtered walk too.
    const first = await get('?prompt=greet&limit=4');
    const rest = await get(`?prompt=greet&limit=4&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect([...first.items, ...rest.items].map((e) => e.action)).toEqual((await get('?prompt=greet')).items.map((e) => e.action));
    expect(rest.nextCursor).toBeNull();
  });

  it('problem+json naming the field for a bad filter or cursor', async () => {
    const cases: [string, string][] = [
      ['?action=prompt.explode', 'action'],
      ['?action=nope.*', 'action'],
      ['?cursor=forged.cursor', 'cursor'],
      ['?limit=0', 'query.limit'],
      ['?actor=', 'query.actor'],
      ['?actor=a%00b', 'query.actor'],
    ];
    for (const [query, path] of cases) {
      const res = await client.call('GET', `/activity${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect((await res.json()).errors.map((e: { path: string }) => e.path), query).toContain(path);
    }
    // A cursor of another list is refused.
    await client.call('POST', '/prompts', textPrompt('paged'));
    const promptCursor = (await (await client.call('GET', '/prompts?limit=1&archived=all')).json()).nextCursor;
    expect((await client.call('GET', `/activity?cursor=${encodeURIComponent(promptCursor)}`)).status).toBe(400);
    expect((await client.app.request('/admin/v1/activity')).status).toBe(401);
  });
});
