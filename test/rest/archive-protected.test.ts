// Archiving takes a prompt out of every label's view, production included; unarchiving
// puts it back. Under a protected label (PROMPTD_PROTECTED_LABELS, default production)
// either needs the admin role, as moving the label does (issue 36.11; docs/access.md).
// Deleting to the bin is an admin route already. Through HTTP, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';
import { assertConforms } from '../helpers/openapi.js';

type Role = 'reader' | 'editor' | 'admin';
let core: Core;
let client: ReturnType<typeof makeClient>;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
  for (const role of ['reader', 'editor', 'admin'] as const) tokens[role] = (await core.tokens.create(`${role}-bot`, 'test', { role })).token;
  for (const name of ['live', 'staged', 'draft']) expect((await client.call('POST', '/prompts', textPrompt(name))).status).toBe(201);
  expect((await client.call('PUT', '/prompts/live/active', { version: 1 })).status).toBe(200);
  expect((await client.call('PUT', '/prompts/staged/labels/staging', { version: 1 })).status).toBe(200);
});
afterAll(() => core.close());

async function patchAs(role: Role, name: string, body: unknown) {
  const path = `/prompts/${name}`;
  const res = await client.app.request(`/admin/v1${path}`, {
    method: 'PATCH', headers: { authorization: `Bearer ${tokens[role]}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  await assertConforms(await client.openapi(), 'PATCH', '/prompts/{name}', res);
  return res;
}

describe('archiving a prompt under a protected label', () => {
  it('is a 403 for an editor, naming the label and both roles; nothing changes', async () => {
    const res = await patchAs('editor', 'live', { archived: true });
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.detail).toBe('the prompt is served under protected label "production": archiving it needs the admin role; token "editor-bot" is an editor');
    expect(body.errors).toEqual([{ path: 'archived', message: 'protected label "production"' }]);
    expect((await (await client.call('GET', '/prompts/live')).json()).archived).toBe(false);
    expect((await (await core.catalog.open('production')).render('live', { who: 'x' })).messages).toHaveLength(1);
  });

  it('an editor archives and unarchives prompts without a protected label', async () => {
    for (const name of ['staged', 'draft']) {
      expect((await patchAs('editor', name, { archived: true })).status).toBe(200);
      expect((await patchAs('editor', name, { archived: false })).status).toBe(200);
    }
  });

  it('an admin archives it; unarchiving it back into production needs the admin too', async () => {
    expect((await patchAs('admin', 'live', { archived: true })).status).toBe(200);
    const res = await patchAs('editor', 'live', { archived: false });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toContain('unarchiving it needs the admin role');
    expect((await patchAs('admin', 'live', { archived: false })).status).toBe(200);
  });

  it('a reader may not archive at all; deleting to the bin is the admin\'s', async () => {
    expect((await patchAs('reader', 'draft', { archived: true })).status).toBe(403);
    const del = await client.app.request('/admin/v1/prompts/live', { method: 'DELETE', headers: { authorization: `Bearer ${tokens.editor}` } });
    expect(del.status).toBe(403);
  });

  it('other edits of a production prompt stay the editor\'s (tags)', async () => {
    expect((await patchAs('editor', 'live', { tags: ['team-a'] })).status).toBe(200);
  });
});
