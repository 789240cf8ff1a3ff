// Scopes that stop at the prompt (issue 36.8, 36.11; docs/access.md), through the SDK's
// real Client on both databases:
// - completion of a resource template's variable offers public resources only: a bound
//   resource's URI is as hidden there as in resources/list;
// - a tag-limited session cannot render another team's prompt through an include
//   (`{{> x}}` or an include message), on prompts/get and the tools face alike;
// - resources carry no tags, so a tag-limited session reads no stored resource or
//   template directly (list, templates, read, subscribe, completion), and gets them only
//   embedded through its prompts;
// - resources/list_changed goes only to sessions that list resources, and only when a
//   listing changed (a bound resource's writes change none).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApp } from '../../src/http/app.js';
import { createMcpHttpApp } from '../../src/mcp/http.js';
import { makeCore, type TestCore } from '../helpers/db.js';
import type { McpSessionAuth } from '../../src/core/mcp-scope.js';
import { actor, connect, countListChanged, createPrompt, createResource, rpcError, textPrompt, until } from './helpers.js';

let core: TestCore;
const sessions: { close(): Promise<void> }[] = [];
const teamA: McpSessionAuth = { tokenName: 'team-a', tokenId: 1, scope: { label: 'production', tags: ['team-a'] } };

async function open(auth?: McpSessionAuth) {
  const s = await connect(core, { ...(auth ? { auth } : {}), tools: true });
  sessions.push(s);
  return s.client;
}

beforeAll(async () => {
  core = await makeCore();
  await createPrompt(core, textPrompt('secret-b', 'TEAM-B-SECRET for {{who}}', { tags: ['team-b'] }));
  await createPrompt(core, textPrompt('shared-a', 'team-a shared text', { tags: ['team-a'] }));
  await createPrompt(core, textPrompt('a-includes-b', 'Hi {{who}}. {{> secret-b}}', { tags: ['team-a'] }));
  await createPrompt(core, textPrompt('a-pins-b', 'Hi {{who}}. {{> secret-b@1}}', { tags: ['team-a'] }));
  await createPrompt(core, textPrompt('a-includes-a', 'Hi {{who}}. {{> shared-a}}', { tags: ['team-a'] }));
  await createPrompt(core, {
    ...textPrompt('a-message-b'),
    tags: ['team-a'],
    messages: [{ role: 'user', content: { type: 'include', prompt: 'secret-b' } }],
  });
  // a team-a prompt including another team-a prompt that includes team-b: refused at depth.
  await createPrompt(core, textPrompt('a-deep', 'Deep {{> a-includes-b}}', { tags: ['team-a'] }));
  await createResource(core, { uri: 'docs://public/guide', name: 'guide', mimeType: 'text/plain', text: 'guide' });
  await createResource(core, { uri: 'docs://internal/plan', name: 'plan', mimeType: 'text/plain', text: 'plan', visibility: 'bound' });
  await core.resources.createTemplate({ uriTemplate: 'docs://{+page}', name: 'docs', mimeType: 'text/plain', text: 'page {{page}}' }, actor);
  await createPrompt(core, { name: 'a-embeds', activate: true, tags: ['team-a'], messages: [{ role: 'user', content: { type: 'resource', uri: 'docs://internal/plan' } }] });
}, 60_000);
afterAll(async () => {
  for (const s of sessions) await s.close();
  await core?.close();
});

describe('completion/complete and bound resources (36.8)', () => {
  it('completes a template variable from public resources only', async () => {
    const client = await open();
    const got = await client.complete({ ref: { type: 'ref/resource', uri: 'docs://{+page}' }, argument: { name: 'page', value: '' } });
    expect(got.completion.values).toEqual(['public/guide']);
    expect(JSON.stringify(got)).not.toContain('internal');
  });
});

describe('includes outside the scope (36.11)', () => {
  it('the full scope renders them', async () => {
    const client = await open();
    const got = await client.getPrompt({ name: 'a-includes-b', arguments: { who: 'x' } });
    expect(JSON.stringify(got)).toContain('TEAM-B-SECRET');
  });

  it.each(['a-includes-b', 'a-pins-b', 'a-message-b', 'a-deep'])('%s: prompts/get is -32602 saying an include is outside the scope, without its text or name', async (name) => {
    const client = await open(teamA);
    const err = await rpcError(client.getPrompt({ name, arguments: { who: 'x' } }));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain("outside this client's scope");
    expect(JSON.stringify(err)).not.toContain('TEAM-B-SECRET');
    expect(JSON.stringify(err)).not.toContain('secret-b');
  });

  it('the tools face refuses it too (an error result, no text)', async () => {
    const client = await open(teamA);
    const res = (await client.callTool({ name: 'get_prompt', arguments: { name: 'a-includes-b', arguments: { who: 'x' } } })) as { isError?: boolean; content: unknown[] };
    expect(res.isError).toBe(true);
    expect(JSON.stringify(res.content)).toContain("outside this client's scope");
    expect(JSON.stringify(res.content)).not.toContain('TEAM-B-SECRET');
  });

  it("the read API's render takes the same scope (core.served.render), by label (a scoped token pins no version)", async () => {
    for (const sel of [{}, { label: 'production' }]) {
      await expect(core.served.render('a-includes-b', sel, { who: 'x' }, undefined, { label: 'production', tags: ['team-a'] })).rejects.toThrow("outside this client's scope");
      expect(JSON.stringify((await core.served.render('a-includes-b', sel, { who: 'x' })).rendered)).toContain('TEAM-B-SECRET');
    }
  });

  it('includes inside the scope still render', async () => {
    const client = await open(teamA);
    const got = await client.getPrompt({ name: 'a-includes-a', arguments: { who: 'x' } });
    expect(JSON.stringify(got)).toContain('team-a shared text');
  });

  it('a tag change that takes the included prompt out of the scope is refused at once', async () => {
    const client = await open(teamA);
    await createPrompt(core, textPrompt('a-helper', 'helper text', { tags: ['team-a'] }));
    await createPrompt(core, textPrompt('a-uses-helper', '{{> a-helper}} {{who}}', { tags: ['team-a'] }));
    expect(JSON.stringify(await client.getPrompt({ name: 'a-uses-helper', arguments: { who: 'x' } }))).toContain('helper text');
    await core.prompts.setTags('a-helper', ['team-b'], actor);
    expect((await rpcError(client.getPrompt({ name: 'a-uses-helper', arguments: { who: 'x' } }))).code).toBe(-32602);
  });
});

describe('resources for a tag-limited scope (36.11)', () => {
  it('the full scope lists, reads, subscribes and completes public resources and templates', async () => {
    const client = await open();
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['docs://public/guide']);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['docs://{+page}']);
    expect((await client.readResource({ uri: 'docs://public/guide' })).contents).toHaveLength(1);
    await expect(client.subscribeResource({ uri: 'docs://public/guide' })).resolves.toEqual({});
  });

  it('a tag-limited scope sees none of them, each absent exactly like a missing one', async () => {
    const client = await open(teamA);
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    for (const uri of ['docs://public/guide', 'docs://other/page']) {
      const read = await rpcError(client.readResource({ uri }));
      expect(read.code).toBe(-32602);
      expect(read.message).toContain('not found');
      const sub = await rpcError(client.subscribeResource({ uri }));
      expect(sub.code).toBe(-32602);
      expect(sub.message).toContain('not found');
    }
    const done = await rpcError(client.complete({ ref: { type: 'ref/resource', uri: 'docs://{+page}' }, argument: { name: 'page', value: '' } }));
    expect(done.code).toBe(-32602);
    expect(done.message).toContain('no resource template');
  });

  it('bound resources follow their prompts: embedded through a prompt in the scope', async () => {
    const client = await open(teamA);
    const got = await client.getPrompt({ name: 'a-embeds', arguments: {} });
    expect(got.messages[0]!.content).toMatchObject({ type: 'resource', resource: { uri: 'docs://internal/plan', text: 'plan' } });
  });
});

describe('resources/list_changed (36.11)', () => {
  function countResourceListChanged(client: Client) {
    let n = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void n++);
    return () => n;
  }

  it('goes to full-scope sessions for public changes only, never to tag-limited ones', async () => {
    const full = await open();
    const scoped = await open(teamA);
    const fullResources = countResourceListChanged(full);
    const scopedResources = countResourceListChanged(scoped);
    const fullPrompts = countListChanged(full);
    const scopedPrompts = countListChanged(scoped);
    // A bound resource's whole life changes no listing. Each write is handed to the
    // notifier before it returns (the feed is drained on commit), and nothing else has
    // called the notifier's resource window yet, so a wrong notification would be sent
    // at once, ahead of the sentinel on the same session.
    const bound = await createResource(core, { uri: 'docs://internal/draft', name: 'draft', mimeType: 'text/plain', text: 'd', visibility: 'bound' });
    await core.resources.update(bound.id, { uri: 'docs://internal/draft', name: 'draft 2', mimeType: 'text/plain', text: 'd2' }, actor);
    await core.resources.delete(bound.id, actor);
    // Sentinel: a team-a prompt change reaches both sessions after everything above.
    await core.prompts.setTags('shared-a', ['team-a', 'x'], actor);
    await fullPrompts.waitFor(1);
    await scopedPrompts.waitFor(1);
    expect(fullResources()).toBe(0);
    expect(scopedResources()).toBe(0);
    // A public resource: the full-scope session hears of it, the tag-limited one does not.
    await createResource(core, { uri: 'docs://public/new', name: 'new', mimeType: 'text/plain', text: 'n' });
    await until(() => fullResources() >= 1, 5_000, 'the public resource list_changed');
    await core.prompts.setTags('shared-a', ['team-a'], actor);
    await scopedPrompts.waitFor(2);
    expect(scopedResources()).toBe(0);
  });

  it('a bound resource written at a subscribed template URI is not announced', async () => {
    const client = await open();
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    const prompts = countListChanged(client);
    await client.listPrompts(); // the view is loaded: its changes are announced
    await client.subscribeResource({ uri: 'docs://watched/page' });
    await client.subscribeResource({ uri: 'docs://public/guide' });
    await createResource(core, { uri: 'docs://watched/page', name: 'w', mimeType: 'text/plain', text: 'hidden', visibility: 'bound' });
    const guide = (await core.resources.list({ visibility: 'public' })).items.find((r) => r.uri === 'docs://public/guide')!;
    await core.resources.update(guide.id, { uri: 'docs://public/guide', name: 'guide', mimeType: 'text/plain', text: 'guide 2' }, actor);
    await until(() => updated.length > 0, 5_000, 'resources/updated of the public guide');
    await core.prompts.setTags('shared-a', ['team-a', 'y'], actor);
    await prompts.waitFor(1);
    expect(updated).toEqual(['docs://public/guide']);
  });
});

describe('over Streamable HTTP with an MCP client token (36.11)', () => {
  it('a tag-limited token gets the include refused and no resources; a full one gets both', async () => {
    let port = 0;
    const mcp = createMcpHttpApp({ core, host: '127.0.0.1', get port() { return port; } });
    const server: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: createApp({ core, mcp: mcp.app }).fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
    const connectWith = async (token: string) => {
      const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
      const client = new Client({ name: 'scope-test', version: '1.0.0' });
      await client.connect(transport);
      return client;
    };
    try {
      const scoped = await connectWith((await core.tokens.create('http-team-a', 'test', { kind: 'mcp', tags: ['team-a'] })).token);
      // The first prompts/get of a session goes through the SDK, the next ones below Hono (fast-path.ts): both refuse.
      for (let i = 0; i < 2; i++) {
        const err = await rpcError(scoped.getPrompt({ name: 'a-includes-b', arguments: { who: 'x' } }));
        expect(err.code).toBe(-32602);
        expect(err.message).toContain("outside this client's scope");
      }
      expect((await scoped.listResources()).resources).toEqual([]);
      const full = await connectWith((await core.tokens.create('http-all', 'test', { kind: 'mcp' })).token);
      expect(JSON.stringify(await full.getPrompt({ name: 'a-includes-b', arguments: { who: 'x' } }))).toContain('TEAM-B-SECRET');
      expect((await full.listResources()).resources.map((r) => r.uri)).toContain('docs://public/guide');
      await scoped.close();
      await full.close();
    } finally {
      await mcp.closeAll();
      (server as http.Server).closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
