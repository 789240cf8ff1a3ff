// Issue 24.6: a delete leaves a trace and can be undone. Deleting a prompt moves it
// to a bin (absent from every read path: REST, search, MCP), listed with
// ?deleted=true, restorable with all its versions until the retention period ends,
// then purged; the change log keeps a snapshot of what was deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { connect, countListChanged } from '../mcp/helpers.js';

const DAY = 86_400_000;
let clock = new Date('2030-01-01T00:00:00Z');
let core: TestCore;
let call: ReturnType<typeof makeClient>['call'];
let mcp: Awaited<ReturnType<typeof connect>>;

const version = (text: string, activate = true) => ({ arguments: [], messages: [{ role: 'user', content: { type: 'text', text } }], activate });
const json = async (res: Response, status = 200) => {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.status === 204 ? undefined : res.json();
};

beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { adminToken: TOKEN, deletedRetentionDays: 30, purgeIntervalMs: 0, now: () => clock });
  call = makeClient(core).call;
  mcp = await connect(core);
});
afterAll(async () => {
  await mcp?.close();
  await core?.close();
});

describe('soft delete', () => {
  it('a deleted prompt is absent everywhere (REST get/list/search/versions/render, MCP list/get) and listed with ?deleted=true', async () => {
    await json(await call('POST', '/prompts', { name: 'doomed', title: 'Doomed title', ...version('v1 text') }), 201);
    await json(await call('POST', '/prompts/doomed/versions', version('v2 text')), 201);
    await json(await call('POST', '/prompts', { name: 'keeper', ...version('keep') }), 201);
    const changed = countListChanged(mcp.client);
    expect((await mcp.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['doomed', 'keeper']);

    await json(await call('DELETE', '/prompts/doomed'), 204);
    await changed.waitFor(1);

    expect((await call('GET', '/prompts/doomed')).status).toBe(404);
    expect((await call('GET', '/prompts/doomed/versions')).status).toBe(404);
    expect((await call('GET', '/prompts/doomed/versions/1')).status).toBe(404);
    expect((await call('POST', '/prompts/doomed/render', { arguments: {} })).status).toBe(404);
    expect((await json(await call('GET', '/prompts'))).items.map((p: { name: string }) => p.name)).toEqual(['keeper']);
    expect((await json(await call('GET', '/prompts?q=doom'))).items).toEqual([]);
    expect((await json(await call('GET', '/prompts?archived=all'))).items.map((p: { name: string }) => p.name)).toEqual(['keeper']);
    expect((await mcp.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['keeper']);
    await expect(mcp.client.getPrompt({ name: 'doomed', arguments: {} })).rejects.toThrow(/not found/);

    const bin = await json(await call('GET', '/prompts?deleted=true'));
    expect(bin.items).toEqual([
      expect.objectContaining({ name: 'doomed', activeVersion: 2, latestVersion: 2, deletedAt: clock.toISOString(), deletedBy: 'admin' }),
    ]);
    expect((await json(await call('GET', '/prompts?deleted=true&q=doom'))).items).toHaveLength(1);
  });

  it('the change log keeps a snapshot of what was deleted: the served version, the version count', async () => {
    const events = await core.feed.since(0, 1000);
    const deleted = events.find((e) => e.action === 'prompt.deleted' && e.entityKey === 'doomed')!;
    expect(deleted.actor).toBe('admin');
    expect(deleted.served).toBe(true);
    const snapshot = deleted.details!.snapshot as Record<string, unknown>;
    expect(snapshot).toMatchObject({ activeVersion: 2, latestVersion: 2, versions: 2, archived: false });
    expect(snapshot.served).toMatchObject({ version: 2, messages: [{ role: 'user', content: { type: 'text', text: 'v2 text' } }] });
    expect(deleted.details!.purgeAfter).toBe(new Date(clock.getTime() + 30 * DAY).toISOString());
  });

  it('the name stays reserved while the prompt is in the bin: creating or renaming onto it is a 409 naming `name`', async () => {
    const created = await json(await call('POST', '/prompts', { name: 'doomed', ...version('impostor') }), 409);
    expect(created.errors).toEqual([{ path: 'name', message: 'held by a deleted prompt' }]);
    expect(created.detail).toContain('restore');
    expect((await call('PATCH', '/prompts/keeper', { name: 'doomed' })).status).toBe(409);
  });

  it('restore brings the prompt back with every version and serves it again (list_changed)', async () => {
    const changed = countListChanged(mcp.client);
    const restored = await json(await call('POST', '/prompts/doomed/restore'));
    expect(restored).toMatchObject({ name: 'doomed', activeVersion: 2, latestVersion: 2 });
    await changed.waitFor(1);
    expect((await json(await call('GET', '/prompts/doomed/versions'))).items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect((await json(await call('GET', '/prompts/doomed/versions/1'))).messages[0].content.text).toBe('v1 text');
    expect((await mcp.client.getPrompt({ name: 'doomed', arguments: {} })).messages[0]!.content).toEqual({ type: 'text', text: 'v2 text' });
    expect((await json(await call('GET', '/prompts?deleted=true'))).items).toEqual([]);
    expect((await call('POST', '/prompts/doomed/restore')).status).toBe(404);
    const events = await core.feed.since(0, 1000);
    expect(events.at(-1)).toMatchObject({ action: 'prompt.restored', entityKey: 'doomed', served: true, actor: 'admin' });
  });

  it('after the retention period the prompt is purged for good and its name is free again', async () => {
    await json(await call('DELETE', '/prompts/doomed'), 204);
    clock = new Date(clock.getTime() + 29 * DAY);
    expect(await core.prompts.purgeExpired()).toBe(0);
    expect((await json(await call('GET', '/prompts?deleted=true'))).items).toHaveLength(1);

    clock = new Date(clock.getTime() + 2 * DAY);
    expect(await core.prompts.purgeExpired()).toBe(1);
    expect((await json(await call('GET', '/prompts?deleted=true'))).items).toEqual([]);
    expect((await call('POST', '/prompts/doomed/restore')).status).toBe(404);
    expect(await core.db.prisma.promptVersion.count({ where: { prompt: { name: 'doomed' } } })).toBe(0);
    const events = await core.feed.since(0, 1000);
    // (token.used: the audit's note of the test token's use in the new hour, docs/audit.md)
    expect(events.filter((e) => e.action !== 'token.used').at(-1)).toMatchObject({ action: 'prompt.purged', entityKey: 'doomed', actor: 'retention' });
    await json(await call('POST', '/prompts', { name: 'doomed', ...version('reborn') }), 201);
  });
});
