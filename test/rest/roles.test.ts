// Roles of admin API tokens (docs/access.md): reader (reads), editor (authoring,
// unprotected labels), admin (everything). One table says what each route needs
// (src/rest/access-table.ts); protected labels are decided by the label policy on every
// path that moves them. Every response is checked against the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { ACCESS_TABLE } from '../../src/rest/access-table.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';
import { assertConforms } from '../helpers/openapi.js';

let core: Core;
let client: ReturnType<typeof makeClient>;
const tokens: Record<'reader' | 'editor' | 'admin', string> = { reader: '', editor: '', admin: '' };

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
  for (const role of ['reader', 'editor', 'admin'] as const) tokens[role] = (await core.tokens.create(`${role}-bot`, 'test', { role })).token;
  expect((await client.call('POST', '/prompts', textPrompt('greet'))).status).toBe(201);
  expect((await client.call('POST', '/prompts/greet/versions', { ...textPrompt('greet', 'Hi {{who}}'), name: undefined })).status).toBe(201);
});
afterAll(() => core.close());

async function callAs(token: string, method: string, path: string, body?: unknown) {
  const res = await client.app.request(`/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await assertConforms(await client.openapi(), method, path.split('?')[0]!, res);
  return res;
}

// One request per route of the table; targets that do not exist where a request would
// destroy something (the role check comes before the handler, so an allowed role sees 404).
const REQUESTS: [method: string, path: string, body?: unknown][] = [
  ['GET', '/me'], ['GET', '/server-info'], ['GET', '/activity'], ['POST', '/events/ticket'],
  ['GET', '/prompts'], ['GET', '/prompts/greet'], ['GET', '/prompts/greet/versions'], ['GET', '/prompts/greet/versions/1'],
  ['GET', '/prompts/greet/labels'], ['GET', '/prompts/greet/label-history'], ['GET', '/labels'],
  ['GET', '/prompts/greet/dependents'], ['GET', '/prompts/greet/includes'],
  ['GET', '/usage'], ['GET', '/usage.csv'], ['GET', '/prompts/greet/usage'],
  ['POST', '/prompts/greet/render', { arguments: { who: 'x' } }],
  ['POST', '/prompts/greet/versions/1/check', {}],
  ['GET', '/resources'], ['GET', '/resources/999'], ['GET', '/resource-templates'], ['GET', '/resource-templates/999'],
  ['POST', '/prompts', { name: 'x' }], ['PATCH', '/prompts/nope', { archived: true }], ['PUT', '/prompts/nope/tags', { tags: [] }],
  ['POST', '/prompts/nope/versions', {}], ['PUT', '/prompts/nope/active', { version: 1 }], ['DELETE', '/prompts/nope/active'],
  ['PUT', '/prompts/nope/labels/staging', { version: 1 }], ['DELETE', '/prompts/nope/labels/staging'],
  ['POST', '/labels/nope/promote', { to: 'staging' }], ['POST', '/resources', {}], ['PUT', '/resources/999', {}],
  ['POST', '/resource-templates', {}], ['PUT', '/resource-templates/999', {}], ['POST', '/import', {}],
  ['DELETE', '/prompts/nope'], ['POST', '/prompts/nope/restore'], ['DELETE', '/resources/999'], ['DELETE', '/resource-templates/999'],
  ['GET', '/tokens'], ['POST', '/tokens', {}], ['PATCH', '/tokens/999999', {}], ['DELETE', '/tokens/999999'],
  ['GET', '/audit'], ['GET', '/audit.csv'], ['GET', '/settings/rate-limits'], ['PUT', '/settings/rate-limits', {}],
  ['GET', '/webhooks'], ['POST', '/webhooks', {}], ['GET', '/webhooks/999'], ['PATCH', '/webhooks/999', {}], ['DELETE', '/webhooks/999'],
  ['GET', '/webhooks/999/deliveries'], ['POST', '/webhooks/999/deliveries/1/redeliver'], ['POST', '/webhooks/999/ping'],
];

const templateOf = (path: string) => path.replace(/\/(greet|nope|staging|999999|999|1)(?=\/|$)/g, (_m, seg: string) => ({ greet: '/{name}', nope: '/{name}', staging: '/{label}', 999999: '/{id}', 999: '/{id}', 1: '/{n}' })[seg]!);

describe('roles', () => {
  it('the table covers every route of the OpenAPI document, and the requests below cover the table', async () => {
    const doc = await client.openapi();
    const ops = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${p}`));
    expect(ops.filter((o) => !(o in ACCESS_TABLE))).toEqual([]);
    expect(Object.keys(ACCESS_TABLE).filter((k) => !ops.includes(k))).toEqual([]);
    // A write needing editor or admin documents its 403.
    expect((doc.paths['/tokens'] as Record<string, { responses: Record<string, { description: string }> }>).post!.responses['403']!.description).toContain('admin role');
    expect(REQUESTS.length).toBe(Object.keys(ACCESS_TABLE).length - 1); // GET /events is a stream: below
  });

  it('reader: every read; 403 on every write, naming the role needed and the one it has', async () => {
    for (const [method, path, body] of REQUESTS) {
      const need = ACCESS_TABLE[`${method} ${templateOf(path).replace('/labels/{name}/', '/labels/{from}/').replace('/deliveries/{n}/', '/deliveries/{deliveryId}/')}` as keyof typeof ACCESS_TABLE];
      expect(need, `${method} ${path}`).toBeDefined();
      for (const role of ['reader', 'editor', 'admin'] as const) {
        const res = await callAs(tokens[role], method, path, body);
        const allowed = ['reader', 'editor', 'admin'].indexOf(role) >= ['reader', 'editor', 'admin'].indexOf(need);
        // Allowed by the table; a 403 can only be the label policy's (production is protected).
        if (allowed) {
          if (res.status === 403) expect((await res.json()).detail, `${role} ${method} ${path}`).toMatch(/^label "production" is protected/);
        } else {
          expect(res.status, `${role} ${method} ${path}`).toBe(403);
          const p = await res.json();
          expect(p.detail).toBe(`this needs the ${need} role; token "${role}-bot" is ${role === 'editor' ? 'an' : 'a'} ${role}`);
        }
        expect(res.status, `${role} ${method} ${path}`).not.toBe(401);
      }
    }
  });

  it('protected labels need admin on every path: label routes, activate, promote, import', async () => {
    const { editor, admin } = tokens;
    let res = await callAs(editor, 'PUT', '/prompts/greet/labels/staging', { version: 2 });
    expect(res.status).toBe(200);
    res = await callAs(editor, 'PUT', '/prompts/greet/labels/production', { version: 2 });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toBe('label "production" is protected: moving it needs the admin role; token "editor-bot" is an editor');
    expect((await callAs(editor, 'PUT', '/prompts/greet/active', { version: 2 })).status).toBe(403);
    expect((await callAs(editor, 'POST', '/labels/staging/promote', { to: 'production' })).status).toBe(403);
    expect((await callAs(editor, 'POST', '/labels/staging/promote', { to: 'qa' })).status).toBe(200);
    expect((await callAs(admin, 'POST', '/labels/staging/promote', { to: 'production' })).status).toBe(200);
    expect((await callAs(editor, 'DELETE', '/prompts/greet/active')).status).toBe(403);
    // Import as an editor: allowed (the label policy, the same for every path, refuses a
    // protected activation; test/core/labels.test.ts covers import).
    res = await callAs(editor, 'POST', '/import?format=auto', { files: [{ path: '.claude/commands/imported.md', text: 'Say hi to $ARGUMENTS\n' }] });
    expect(res.status).toBe(200);
    expect((await res.json()).counts.created).toBe(1);
    // An editor may create prompts and versions, not delete them.
    expect((await callAs(editor, 'POST', '/prompts', textPrompt('by-editor'))).status).toBe(201);
    expect((await callAs(editor, 'DELETE', '/prompts/by-editor')).status).toBe(403);
    expect((await callAs(admin, 'DELETE', '/prompts/by-editor')).status).toBe(204);
  });

  it('GET /me names the caller and its role; the env token is an admin', async () => {
    for (const role of ['reader', 'editor', 'admin'] as const) {
      const me = await (await callAs(tokens[role], 'GET', '/me')).json();
      expect(me).toMatchObject({ role, actor: expect.stringMatching(new RegExp(`^token:${role}-bot#\\d+$`)) });
    }
    expect(await (await client.call('GET', '/me')).json()).toEqual({ actor: 'admin', tokenId: null, role: 'admin' });
  });

  it('tokens carry their role; REST creates any role; an MCP token is refused by the admin and read APIs', async () => {
    let res = await client.call('POST', '/tokens', { name: 'new-editor', role: 'editor' });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ kind: 'admin', role: 'editor', label: null, tags: null });
    expect((await (await callAs(created.token, 'GET', '/me')).json()).role).toBe('editor');
    const listed = (await (await client.call('GET', '/tokens')).json()).items;
    expect(listed.find((t: { name: string }) => t.name === 'new-editor').role).toBe('editor');
    // Default: admin (as every token made before roles existed).
    expect((await (await client.call('POST', '/tokens', { name: 'plain' })).json()).role).toBe('admin');
    // An MCP token is not an admin token.
    res = await client.call('POST', '/tokens', { name: 'mcp-x', kind: 'mcp', label: 'staging', tags: ['team-a'] });
    const mcp = await res.json();
    expect(mcp).toMatchObject({ kind: 'mcp', role: null, label: 'staging', tags: ['team-a'] });
    expect(mcp.token).toMatch(/^pdm_/);
    expect((await client.app.request('/admin/v1/me', { headers: { authorization: `Bearer ${mcp.token}` } })).status).toBe(401);
    expect((await client.app.request('/v1/changes', { headers: { authorization: `Bearer ${mcp.token}` } })).status).toBe(401);
    // Role and MCP fields do not mix.
    for (const body of [{ name: 'm1', kind: 'mcp', role: 'editor' }, { name: 'm2', label: 'staging' }, { name: 'm3', kind: 'mcp', label: 'latest' }]) {
      expect((await client.call('POST', '/tokens', body)).status, JSON.stringify(body)).toBe(422);
    }
  });

  it('a reader may open the event stream (a ticket) and use the read API', async () => {
    const t = await (await callAs(tokens.reader, 'POST', '/events/ticket')).json();
    const res = await client.app.request(`/admin/v1/events?ticket=${t.ticket}`);
    expect(res.status).toBe(200);
    await res.body?.cancel();
    expect((await client.app.request('/v1/changes', { headers: { authorization: `Bearer ${tokens.reader}` } })).status).toBe(200);
  });
});
