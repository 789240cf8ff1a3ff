// MCP client tokens (docs/access.md) through the SDK's real Client over Streamable
// HTTP: a token sees one label's view, optionally only prompts carrying one of its
// tags, on every prompt path (list, get, completion, tools, list_changed); once one
// exists /mcp needs a token; a revoked token stops at once on the instance that revoked it,
// on the others once their change feed brings it, and its sessions end, on every instance (two cores on one database; PostgreSQL with PROMPTD_TEST_DB=postgres).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import type { Core } from '../../src/core/index.js';
import { createApp } from '../../src/http/app.js';
import { createMcpHttpApp } from '../../src/mcp/http.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { actor, afterSentinel, countListChanged, createPrompt, createResource, rpcError, textPrompt, until } from './helpers.js';

const SHARED = 'shared-mcp-secret';
const ADMIN = 'admin-secret';

async function listen(core: Core, opts: { token?: string } = {}) {
  let port = 0;
  const mcp = createMcpHttpApp({ core, host: '127.0.0.1', get port() { return port; }, ...opts });
  const app = createApp({ core, mcp: mcp.app });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  return {
    mcp,
    url: (q = '') => `http://127.0.0.1:${port}/mcp${q}`,
    close: async () => {
      await mcp.closeAll();
      (server as http.Server).closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

async function connectWith(url: string, token?: string) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} } });
  const client = new Client({ name: 'token-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });

const names = async (c: Client) => (await c.listPrompts()).prompts.map((p) => p.name).sort();

describe('MCP client tokens', () => {
  let url: string;
  let core: TestCore;
  let other: TestCore;
  let srv: Awaited<ReturnType<typeof listen>>;
  let srv2: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    url = await tempDbUrl();
    await migrateDatabase(url);
    core = await coreOn(url, { adminToken: ADMIN });
    other = await coreOn(url, { adminToken: ADMIN });
    const withChoices = (name: string, tags: string[]) => ({
      ...textPrompt(name),
      arguments: [{ name: 'who', description: 'who', required: true, choices: ['alice', 'bob'] }],
      tags,
    });
    await createPrompt(core, withChoices('a-one', ['team-a']));
    await createPrompt(core, withChoices('a-two', ['support', 'team-a']));
    await createPrompt(core, withChoices('b-one', ['team-b']));
    await createPrompt(core, withChoices('untagged', []));
    // staging carries everything but a-two
    for (const n of ['a-one', 'b-one', 'untagged']) await core.labels.set(n, 'staging', 1, actor);
    srv = await listen(core, { token: SHARED });
    srv2 = await listen(other);
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
    await srv2?.close();
    await other?.close();
    await core?.close();
  });

  it('without an MCP token, /mcp is open (no shared token) or needs the shared one', async () => {
    const anon = await connectWith(srv2.url());
    expect(await names(anon.client)).toEqual(['a-one', 'a-two', 'b-one', 'untagged']);
    await anon.client.close();
    const res = await post(srv.url());
    expect(res.status).toBe(401);
  });

  it('a token sees its label, only its tags, on list, get, completion and tools; others get 401', async () => {
    const { token, info } = await core.tokens.create('cursor-team-a', 'test', { kind: 'mcp', label: 'staging', tags: ['team-a'] });
    expect(info).toMatchObject({ kind: 'mcp', role: null, scope: { label: 'staging', tags: ['team-a'] } });
    await other.feed.poke();

    // Now /mcp needs a token on the instance without a shared one too.
    let res = await post(srv2.url());
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 }, id: null });
    // An admin API token is not an MCP token.
    expect((await post(srv2.url(), { authorization: `Bearer ${ADMIN}` })).status).toBe(401);
    const admin = await core.tokens.create('an-admin', 'test', { role: 'admin' });
    expect((await post(srv2.url(), { authorization: `Bearer ${admin.token}` })).status).toBe(401);
    // The token's label only.
    expect((await post(srv2.url('?label=production'), { authorization: `Bearer ${token}` })).status).toBe(403);

    for (const s of [srv, srv2]) {
      const { client } = await connectWith(s.url(), token);
      // staging ∩ team-a: a-one (a-two is not on staging, b-one and untagged lack the tag)
      expect(await names(client)).toEqual(['a-one']);
      expect((await client.getPrompt({ name: 'a-one', arguments: { who: 'alice' } })).messages).toHaveLength(1);
      for (const hidden of ['b-one', 'untagged', 'a-two']) {
        const e = await rpcError(client.getPrompt({ name: hidden, arguments: { who: 'alice' } }));
        expect(e.code).toBe(-32602);
        expect(e.message).not.toMatch(/\btags?\b|scope|team/);
        const ce = await rpcError(client.complete({ ref: { type: 'ref/prompt', name: hidden }, argument: { name: 'who', value: 'a' } }));
        expect(ce.code).toBe(-32602);
      }
      expect((await client.complete({ ref: { type: 'ref/prompt', name: 'a-one' }, argument: { name: 'who', value: 'a' } })).completion.values).toEqual(['alice']);
      // The tools face: list_prompts and get_prompt see the same scope.
      const listed = await client.callTool({ name: 'list_prompts', arguments: {} });
      const text = JSON.stringify(listed.content);
      expect(text).toContain('a-one');
      expect(text).not.toContain('b-one');
      expect(text).not.toContain('untagged');
      const got = await client.callTool({ name: 'get_prompt', arguments: { name: 'b-one', arguments: { who: 'alice' } } });
      expect(got.isError).toBe(true);
      await client.close();
    }
    // The session knows who the client is (usage and audit).
    const { client, transport } = await connectWith(srv2.url(), token);
    expect(srv2.mcp.sessionAuth(transport.sessionId!)).toEqual({ tokenId: info.id, tokenName: 'cursor-team-a', scope: { label: 'staging', tags: ['team-a'] } });
    // Usage counts the token's name as the client, whatever clientInfo says ('token-test').
    await client.getPrompt({ name: 'a-one', arguments: { who: 'bob' } });
    const used = await other.usage.ofPrompt('a-one', {});
    expect(used.clients.map((c) => c.client)).toContain('cursor-team-a');
    expect(used.clients.map((c) => c.client)).not.toContain('token-test 1.0.0');
    await client.close();
    // The shared token keeps working, full scope.
    const shared = await connectWith(srv.url(), SHARED);
    expect(await names(shared.client)).toEqual(['a-one', 'a-two', 'b-one', 'untagged']);
    await shared.client.close();
  });

  it('list_changed only for changes inside the scope', async () => {
    const { token } = await core.tokens.create('scoped-watch', 'test', { kind: 'mcp', label: 'staging', tags: ['team-a'] });
    const { client, transport } = await connectWith(srv.url(), token);
    const changed = countListChanged(client);
    // Notifications travel on the GET stream the SDK opens after initialize.
    await until(() => (srv.mcp.table.get(transport.sessionId!)?.streams ?? 0) > 0, 10_000, 'the GET stream');
    // Out of scope: a team-b prompt's new tags, a production-only move.
    await core.prompts.setTags('b-one', ['team-b', 'other'], actor);
    await core.prompts.setTags('a-two', ['support', 'team-a', 'x'], actor); // not on staging
    // A tag-limited session hears no resource changes (resources carry no tags), so the
    // sentinel is a full-scope session's: the notifier sends prompt notifications for a
    // change before any resource notification of a later one.
    const full = await connectWith(srv.url(), SHARED);
    await until(() => (srv.mcp.table.get(full.transport.sessionId!)?.streams ?? 0) > 0, 10_000, 'the GET stream');
    await afterSentinel(full.client, () => createResource(core, { uri: 'note://sentinel-1', name: 's1', mimeType: 'text/plain', text: 's' }));
    await full.client.close();
    expect(changed.count()).toBe(0);
    // Into the scope: b-one gains team-a.
    await core.prompts.setTags('b-one', ['team-a', 'team-b'], actor);
    await changed.waitFor(1);
    expect(await names(client)).toEqual(['a-one', 'b-one']);
    // Out of it again: also a change the client can see (the prompt disappears).
    changed.reset();
    await core.prompts.setTags('b-one', ['team-b'], actor);
    await changed.waitFor(1);
    expect(await names(client)).toEqual(['a-one']);
    await client.close();
  });

  it('revoking a token stops it at once and ends its open sessions, on every instance', async () => {
    const { token, info } = await core.tokens.create('to-revoke', 'test', { kind: 'mcp', label: 'staging' });
    const a = await connectWith(srv.url(), token);
    const b = await connectWith(srv2.url(), token);
    expect(await names(b.client)).toEqual(['a-one', 'b-one', 'untagged']);
    let closedA = false;
    let closedB = false;
    a.client.onclose = () => void (closedA = true);
    b.client.onclose = () => void (closedB = true);
    // Open the notification streams (the SDK opens the GET stream after initialize).
    await core.tokens.revoke(info.id, 'test');
    // Immediate on the instance that revoked it.
    expect((await rpcErrorOrHttp(a.client.listPrompts())).toString()).toMatch(/401|Unauthorized|404|Session not found/);
    // On another instance once its change feed brings `token.revoked` (it keeps valid MCP tokens in memory).
    await other.feed.poke();
    expect((await rpcErrorOrHttp(b.client.listPrompts())).toString()).toMatch(/401|Unauthorized|404|Session not found/);
    expect((await post(srv2.url(), { authorization: `Bearer ${token}` })).status).toBe(401);
    // And the sessions themselves end.
    await core.feed.poke();
    await until(() => srv2.mcp.sessionAuth(b.transport.sessionId!) === undefined, 10_000, 'the revoked session to close on instance 2');
    await until(() => srv.mcp.sessionAuth(a.transport.sessionId!) === undefined, 10_000, 'the revoked session to close on instance 1');
    void closedA;
    void closedB;
    await a.client.close().catch(() => {});
    await b.client.close().catch(() => {});
  });
});

async function rpcErrorOrHttp(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error('expected the call to fail');
}
