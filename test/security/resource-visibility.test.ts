// Issue 25.1: stored resources were readable by every MCP client, also when no
// served prompt binds them, and a `{+u}` binding let the caller pick any stored URI.
// Now a resource is `public` (listed and readable over MCP) or `bound` (the default:
// only embedded through a served prompt's binding), and a template binding reaches
// bound resources only within its allow-list of URI prefixes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCore, type TestCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { connect, rpcError } from '../mcp/helpers.js';

let core: TestCore;
let call: ReturnType<typeof makeClient>['call'];
let mcp: Awaited<ReturnType<typeof connect>>;

const ok = async (res: Response, status = 201) => {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.json();
};
const resourcePrompt = (name: string, uri: string, extra: Record<string, unknown> = {}) => ({
  name,
  activate: true,
  arguments: [{ name: 'u', required: true }],
  messages: [{ role: 'user', content: { type: 'resource', uri, ...extra } }],
});

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
  await ok(await call('POST', '/resources', { uri: 'secret://internal/key', name: 'key', mimeType: 'text/plain', text: 'TOP-SECRET' }));
  await ok(await call('POST', '/resources', { uri: 'docs://handbook', name: 'handbook', mimeType: 'text/plain', text: 'public handbook', visibility: 'public' }));
  await ok(await call('POST', '/resources', { uri: 'docs://internal/runbook', name: 'runbook', mimeType: 'text/plain', text: 'bound runbook' }));
  await ok(await call('POST', '/prompts', resourcePrompt('uri2', '{+u}')));
  await ok(await call('POST', '/prompts', resourcePrompt('docs', '{+u}', { allow: ['docs://'] })));
  await ok(await call('POST', '/prompts', { name: 'runbook', activate: true, messages: [{ role: 'user', content: { type: 'resource', uri: 'docs://internal/runbook' } }] }));
  mcp = await connect(core);
});
afterAll(async () => {
  await mcp?.close();
  await core?.close();
});

describe('resource visibility', () => {
  it('new resources are bound by default; the admin API shows and edits visibility', async () => {
    const list = await ok(await call('GET', '/resources'), 200);
    expect(Object.fromEntries(list.items.map((r: { uri: string; visibility: string }) => [r.uri, r.visibility]))).toEqual({
      'docs://handbook': 'public', 'docs://internal/runbook': 'bound', 'secret://internal/key': 'bound',
    });
    const id = list.items.find((r: { uri: string }) => r.uri === 'docs://handbook').id;
    // A full update that leaves visibility out keeps it.
    expect((await ok(await call('PUT', `/resources/${id}`, { uri: 'docs://handbook', name: 'handbook', mimeType: 'text/plain', text: 'public handbook' }), 200)).visibility).toBe('public');
    const bad = await ok(await call('POST', '/resources', { uri: 'x://y', name: 'y', mimeType: 'text/plain', text: 'y', visibility: 'everyone' }), 422);
    expect(bad.errors.map((e: { path: string }) => e.path)).toEqual(['visibility']);
  });

  it('resources/list shows only public resources; resources/read of a bound one reads as not found', async () => {
    expect((await mcp.client.listResources()).resources.map((r) => r.uri)).toEqual(['docs://handbook']);
    expect((await mcp.client.readResource({ uri: 'docs://handbook' })).contents).toEqual([{ uri: 'docs://handbook', mimeType: 'text/plain', text: 'public handbook' }]);
    for (const uri of ['secret://internal/key', 'docs://internal/runbook']) {
      const err = await rpcError(mcp.client.readResource({ uri }));
      expect(err.code).toBe(-32602);
      expect(err.message).toContain('not found');
      expect(JSON.stringify(err)).not.toContain('SECRET');
    }
  });

  it('resources/subscribe takes a public resource and refuses a bound one exactly like a missing one', async () => {
    await expect(mcp.client.subscribeResource({ uri: 'docs://handbook' })).resolves.toEqual({});
    for (const uri of ['secret://internal/key', 'secret://nothing/here']) {
      const err = await rpcError(mcp.client.subscribeResource({ uri }));
      expect(err.code).toBe(-32602);
      expect(err.message).toContain('not found');
    }
  });

  it('a bound resource still reaches clients embedded through a served prompt that names it', async () => {
    const got = await mcp.client.getPrompt({ name: 'runbook', arguments: {} });
    expect(got.messages[0]!.content).toEqual({ type: 'resource', resource: { uri: 'docs://internal/runbook', mimeType: 'text/plain', text: 'bound runbook' } });
  });

  it('an unrestricted {+u} binding cannot reach a bound resource (MCP -32602, REST 422), only public ones', async () => {
    const err = await rpcError(mcp.client.getPrompt({ name: 'uri2', arguments: { u: 'secret://internal/key' } }));
    expect(err.code).toBe(-32602);
    expect(JSON.stringify(err)).not.toContain('TOP-SECRET');
    const rest = await call('POST', '/prompts/uri2/render', { arguments: { u: 'secret://internal/key' } });
    expect(rest.status).toBe(422);
    expect(await rest.text()).not.toContain('TOP-SECRET');
    const pub = await mcp.client.getPrompt({ name: 'uri2', arguments: { u: 'docs://handbook' } });
    expect(pub.messages[0]!.content).toMatchObject({ resource: { text: 'public handbook' } });
  });

  it('an allow-list lets a template binding reach bound resources under its prefixes and refuses the rest, naming the argument', async () => {
    const inside = await mcp.client.getPrompt({ name: 'docs', arguments: { u: 'docs://internal/runbook' } });
    expect(inside.messages[0]!.content).toMatchObject({ resource: { uri: 'docs://internal/runbook', text: 'bound runbook' } });
    const err = await rpcError(mcp.client.getPrompt({ name: 'docs', arguments: { u: 'secret://internal/key' } }));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('"u"');
    expect(err.message).toContain('docs://');
    const rest = await ok(await call('POST', '/prompts/docs/render', { arguments: { u: 'secret://internal/key' } }), 422);
    expect(rest.errors).toEqual([{ path: 'arguments.u', message: expect.stringContaining('outside what prompt "docs" allows') }]);
    expect(JSON.stringify(rest)).not.toContain('TOP-SECRET');
  });

  it('an allow-list is validated: prefixes need a scheme, and only URI templates take one', async () => {
    const noScheme = await ok(await call('POST', '/prompts', resourcePrompt('p1', '{+u}', { allow: [''] })), 422);
    expect(noScheme.errors[0].path).toMatch(/^messages\[0\]\.content/);
    const literal = await ok(await call('POST', '/prompts', { name: 'p2', messages: [{ role: 'user', content: { type: 'resource', uri: 'docs://handbook', allow: ['docs://'] } }] }), 422);
    expect(literal.errors).toEqual([expect.objectContaining({ path: 'messages[0].content.allow' })]);
  });

  it('the allow-list round-trips through the API', async () => {
    const got = await ok(await call('GET', '/prompts/docs'), 200);
    expect(got.active.messages[0].content).toEqual({ type: 'resource', uri: '{+u}', allow: ['docs://'] });
  });
});
