// Who reads which part of the change log (issue 36.9, docs/access.md): readers and
// editors get GET /activity and the event stream without token, webhook and settings
// events (every token's name, role and MCP scope; webhook URLs), left out in the query
// so pages stay full; asking for them by action is a 403. /server-info, /audit and
// /audit.csv are admin routes. Every response is checked against the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { ADMIN_ONLY_ACTIONS } from '../../src/core/services/activity-service.js';
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
  // Interleaved: prompt events between token, webhook and settings events.
  for (let i = 0; i < 6; i++) {
    expect((await client.call('POST', '/prompts', textPrompt(`p${i}`))).status).toBe(201);
    expect((await client.call('POST', '/tokens', { name: `mcp-${i}`, kind: 'mcp', tags: ['team-a'] })).status).toBe(201);
  }
  expect((await client.call('POST', '/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] })).status).toBe(201);
  expect((await client.call('PUT', '/settings/rate-limits', { mcpPerMinute: 600, adminWritesPerMinute: 120, adminReadsPerMinute: 600 })).status).toBe(200);
  // A token's first use in the hour is `token.used`.
  expect((await callAs('reader', 'GET', '/prompts')).status).toBe(200);
});
afterAll(() => core.close());

async function callAs(role: Role, method: string, path: string) {
  const res = await client.app.request(`/admin/v1${path}`, { method, headers: { authorization: `Bearer ${tokens[role]}` } });
  await assertConforms(await client.openapi(), method, path.split('?')[0]!, res);
  return res;
}

type Item = { action: string; entity: string };
async function activity(role: Role, query: string) {
  const res = await callAs(role, 'GET', `/activity${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { items: Item[]; nextCursor: string | null };
}

/** Every item of the activity log as `role` pages through it, `limit` at a time. */
async function all(role: Role, query: string, limit: number) {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const page = await activity(role, `?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    // Filtered in the query: every page but the last is full.
    if (page.nextCursor) expect(page.items).toHaveLength(limit);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

describe('GET /admin/v1/activity by role', () => {
  it('admins see token, webhook and settings events', async () => {
    const actions = (await all('admin', '', 200)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['token.created', 'webhook.created', 'settings.updated', 'prompt.created']));
    expect((await activity('admin', '?action=token.used')).items.length).toBeGreaterThan(0);
  });

  it.each(['reader', 'editor'] as const)('a %s sees every other event, in full pages, and none of those', async (role) => {
    const admin = (await all('admin', '', 200)).filter((e) => !ADMIN_ONLY_ACTIONS.includes(e.action));
    const mine = await all(role, '', 4);
    expect(mine.map((e) => e.action)).toEqual(admin.map((e) => e.action));
    expect(mine.filter((e) => ['token', 'webhook', 'settings'].includes(e.entity))).toEqual([]);
    expect(mine.filter((e) => e.action === 'prompt.created')).toHaveLength(6);
  });

  it.each(['reader', 'editor'] as const)('a %s asking for token, webhook or settings events gets a 403 naming action', async (role) => {
    for (const action of ['token.used', 'token.*', 'token.created', 'webhook.created', 'webhook.*', 'settings.updated', 'settings.*']) {
      const res = await callAs(role, 'GET', `/activity?action=${encodeURIComponent(action)}`);
      expect(res.status, action).toBe(403);
      const body = await res.json();
      expect(body.errors).toEqual([{ path: 'action', message: 'admin only' }]);
      expect(body.detail).toContain('admin role');
    }
    expect((await activity(role, '?action=prompt.*')).items).toHaveLength(6);
  });
});

describe('admin-only routes', () => {
  it.each([['/server-info'], ['/audit'], ['/audit.csv'], ['/audit?action=token.used']])('%s: 403 for readers and editors, 200 for admins', async (path) => {
    for (const role of ['reader', 'editor'] as const) {
      const res = await callAs(role, 'GET', path);
      expect(res.status, `${role} ${path}`).toBe(403);
      expect((await res.json()).detail).toContain('needs the admin role');
    }
    expect((await callAs('admin', 'GET', path)).status).toBe(200);
  });
});

describe('GET /admin/v1/events by role', () => {
  it('streams token events to admins only', async () => {
    const seen = async (role: Role) => {
      const ac = new AbortController();
      const res = await client.app.request('/admin/v1/events', { headers: { authorization: `Bearer ${tokens[role]}`, 'last-event-id': '0' }, signal: ac.signal });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      // Replayed from id 0: read until the last prompt event has arrived.
      while (!text.includes('"entityKey":"p5"')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
      ac.abort();
      await reader.cancel().catch(() => {});
      return text;
    };
    expect(await seen('admin')).toContain('"action":"token.created"');
    for (const role of ['reader', 'editor'] as const) {
      const text = await seen(role);
      expect(text).toContain('"action":"prompt.created"');
      expect(text).not.toMatch(/"action":"(token|webhook|settings)\./);
    }
  });
});
