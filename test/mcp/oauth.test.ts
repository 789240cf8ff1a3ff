// MCP authorization (issue 19): promptd as an OAuth 2.1 resource server. A real issuer
// runs on 127.0.0.1 (test/helpers/issuer.ts: RFC 8414 metadata + JWKS over HTTP); the
// SDK's real Client connects over Streamable HTTP with its access token. Refusals carry
// RFC 6750 challenges naming our RFC 9728 metadata; scopes pick the label view.
// Runs on the test database of PROMPTD_TEST_DB (SQLite or PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { createMcpHttpApp } from '../../src/mcp/http.js';
import { createMcpAuth } from '../../src/mcp/mcp-auth.js';
import { createOAuthVerifier, metadataUrls } from '../../src/mcp/oauth-verifier.js';
import { discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { tempDbUrl } from '../helpers/db.js';
import { startIssuer, type TestIssuer } from '../helpers/issuer.js';
import { actor, createPrompt, createVersion, textPrompt } from './helpers.js';

let issuer: TestIssuer;
let srv: RunningServer;
let resource: string;
let prm: string;
const STATIC = 'static-mcp-token';

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'oauth', version: '1' } } });
const post = (token: string | undefined, path = '/mcp', headers: Record<string, string> = {}) =>
  fetch(`${srv.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: initialize,
  });

async function connectWith(token: string, path = '/mcp') {
  const client = new Client({ name: 'oauth-test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { client, transport };
}
const names = async (client: Client) => (await client.listPrompts()).prompts.map((p) => p.name).sort();

beforeAll(async () => {
  issuer = await startIssuer();
  srv = await startServer({ databaseUrl: await tempDbUrl(), port: 0, seed: false, adminToken: 'admin', mcpToken: STATIC, oauth: { issuer: issuer.issuer }, logger: createLogger('silent') });
  resource = `${srv.url}/mcp`;
  prm = `${srv.url}/.well-known/oauth-protected-resource/mcp`;
  await createPrompt(srv.core, textPrompt('greet', 'v1 {{who}}'));
  await createVersion(srv.core, 'greet', { arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'v2 {{who}}' } }] });
  await createPrompt(srv.core, textPrompt('only-prod', 'p {{who}}'));
  await srv.core.labels.set('greet', 'staging', 2, actor);
}, 120_000);
afterAll(async () => {
  await srv?.close();
  await issuer?.close();
});

describe('Protected Resource Metadata (RFC 9728)', () => {
  it('is served at the path-suffixed and the root well-known URL, names the issuer, the resource and the scopes', async () => {
    for (const url of [prm, `${srv.url}/.well-known/oauth-protected-resource`]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      const doc = OAuthProtectedResourceMetadataSchema.parse(await res.json());
      expect(doc.resource).toBe(resource);
      expect(doc.authorization_servers).toEqual([issuer.issuer]);
      expect(doc.scopes_supported).toContain('prompts:read');
      expect(doc.bearer_methods_supported).toEqual(['header']);
    }
  });

  it("the SDK client's own discovery finds it from the MCP URL", async () => {
    const doc = await discoverOAuthProtectedResourceMetadata(new URL(resource));
    expect(doc.authorization_servers).toEqual([issuer.issuer]);
  });
});

describe('access tokens on /mcp', () => {
  it('a valid token: the SDK Client lists and gets prompts (production view)', async () => {
    const { client } = await connectWith(await issuer.token({ aud: resource }));
    expect(await names(client)).toEqual(['greet', 'only-prod'].sort());
    const got = await client.getPrompt({ name: 'greet', arguments: { who: 'x' } });
    expect((got.messages[0]!.content as { text: string }).text).toBe('v1 x');
    await client.close();
    // Discovery then keys: the issuer was asked, over HTTP.
    expect(issuer.hits).toContain('/.well-known/oauth-authorization-server');
    expect(issuer.hits).toContain('/jwks');
  });

  it('the static PROMPTD_MCP_TOKEN still works beside OAuth', async () => {
    const { client } = await connectWith(STATIC, '/mcp?label=staging');
    expect(await names(client)).toEqual(['greet']);
    await client.close();
  });

  it('no token: 401 with a challenge naming the resource metadata and no error code', async () => {
    const res = await post(undefined);
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).not.toContain('error=');
    expect(extractWWWAuthenticateParams(res).resourceMetadataUrl?.href).toBe(prm);
    expect((await res.json()).error.code).toBe(-32001);
  });

  it('expired, wrong audience, wrong issuer, foreign key, unsigned, HMAC and garbage tokens: 401 invalid_token', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    const bad: Record<string, string> = {
      expired: await issuer.token({ aud: resource }, { expiresIn: past }),
      'wrong audience': await issuer.token({ aud: 'https://other.example/mcp' }),
      'audience of the bare origin': await issuer.token({ aud: srv.url }),
      'wrong issuer': await issuer.token({ aud: resource, iss: 'https://evil.example' }),
      'foreign key': await issuer.token({ aud: resource }, { key: issuer.foreignKey }),
      'unknown kid, foreign key': await issuer.token({ aud: resource }, { key: issuer.foreignKey, kid: 'k2' }),
      'HMAC-signed': await new SignJWT({ scope: 'prompts:read', aud: resource, iss: issuer.issuer }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('5m').sign(new TextEncoder().encode('x'.repeat(32))),
      'alg none': `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify({ iss: issuer.issuer, aud: resource, exp: past + 7200, scope: 'prompts:read' })).toString('base64url')}.`,
      garbage: 'not-a-jwt',
    };
    for (const [what, token] of Object.entries(bad)) {
      const res = await post(token);
      expect(res.status, what).toBe(401);
      const params = extractWWWAuthenticateParams(res);
      expect(params.error, what).toBe('invalid_token');
      expect(params.resourceMetadataUrl?.href, what).toBe(prm);
    }
    const expired = await post(bad.expired);
    expect(expired.headers.get('www-authenticate')).toContain('expired');
  });

  it('a token without exp, or one not valid yet (nbf), is refused', async () => {
    const noExp = await post(await issuer.token({ aud: resource }, { expiresIn: null }));
    expect(noExp.status).toBe(401);
    expect(extractWWWAuthenticateParams(noExp).error).toBe('invalid_token');
    const future = await post(await issuer.token({ aud: resource, nbf: Math.floor(Date.now() / 1000) + 3600 }));
    expect(future.status).toBe(401);
  });

  it('the legacy SSE endpoint asks for the same credentials, and serves the view a token grants', async () => {
    const res = await fetch(`${srv.url}/sse`);
    expect(res.status).toBe(401);
    expect(extractWWWAuthenticateParams(res).resourceMetadataUrl?.href).toBe(prm);
    const token = await issuer.token({ aud: resource, scope: 'prompts:read label:staging' });
    const auth = { authorization: `Bearer ${token}` };
    const client = new Client({ name: 'oauth-sse', version: '1' });
    await client.connect(new SSEClientTransport(new URL(`${srv.url}/sse`), {
      eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string>), ...auth } }) },
      requestInit: { headers: auth },
    }));
    expect(await names(client)).toEqual(['greet']);
    await client.close();
  });

  it('an unreachable issuer is a 503 (our problem, not the token), and no token is still a plain 401', async () => {
    const closed = await startIssuer();
    await closed.close();
    const token = await issuer.token({ aud: resource, iss: closed.issuer });
    const mcp = createMcpHttpApp({
      core: srv.core, host: '127.0.0.1', port: 3000,
      auth: createMcpAuth({ oauth: { verifier: createOAuthVerifier({ issuer: closed.issuer, audience: resource }), resourceMetadataUrl: () => prm } }),
    });
    const req = (headers: Record<string, string>) => mcp.app.request('/', { method: 'POST', headers: { host: 'localhost:3000', 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: initialize });
    const res = await req({ authorization: `Bearer ${token}` });
    expect(res.status).toBe(503);
    expect((await res.json()).error.message).toMatch(/authorization server/);
    expect((await req({})).status).toBe(401);
    await mcp.closeAll();
  });
});

describe('scopes → session scope', () => {
  it('label:staging selects the staging view; a label the token lacks is 403 insufficient_scope', async () => {
    const token = await issuer.token({ aud: resource, scope: 'prompts:read label:staging' });
    const { client } = await connectWith(token);
    expect(await names(client)).toEqual(['greet']);
    expect(((await client.getPrompt({ name: 'greet', arguments: { who: 'x' } })).messages[0]!.content as { text: string }).text).toBe('v2 x');
    await client.close();
    const other = await post(token, '/mcp?label=production');
    expect(other.status).toBe(403);
    expect(extractWWWAuthenticateParams(other).error).toBe('insufficient_scope');
    expect(other.headers.get('www-authenticate')).toContain('scope="prompts:read label:production"');
  });

  it('prompts:read alone is the production view only; no prompts:read is 403', async () => {
    const token = await issuer.token({ aud: resource });
    expect((await post(token, '/mcp?label=staging')).status).toBe(403);
    const none = await post(await issuer.token({ aud: resource, scope: 'label:staging' }));
    expect(none.status).toBe(403);
    expect(extractWWWAuthenticateParams(none).error).toBe('insufficient_scope');
  });

  it("a session id is bound to the principal that opened it: another user's token cannot use it", async () => {
    const { client, transport } = await connectWith(await issuer.token({ aud: resource, sub: 'alice' }));
    const id = transport.sessionId!;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'prompts/list', params: {} });
    const as = async (sub: string) =>
      fetch(resource, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18', authorization: `Bearer ${await issuer.token({ aud: resource, sub })}` },
        body: list,
      });
    expect((await as('mallory')).status).toBe(404);
    expect((await as('alice')).status).toBe(200);
    await client.close();
  });

  it('issue 36.7: a token of the same subject with other scopes cannot use the session (the scope is fixed at initialize)', async () => {
    const broad = await issuer.token({ aud: resource, sub: 'carol', scope: 'prompts:read label:production label:staging' });
    const { client, transport } = await connectWith(broad);
    const id = transport.sessionId!;
    const send = async (scope: string, method: string, params: object) =>
      fetch(resource, {
        method: 'POST',
        headers: {
          'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18',
          authorization: `Bearer ${await issuer.token({ aud: resource, sub: 'carol', scope })}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method, params }),
      });
    const get = { name: 'greet', arguments: { who: 'x' } };
    // Narrower: a tag filter, or fewer labels. prompts/get takes the fast path, prompts/list the SDK's.
    for (const narrow of ['prompts:read label:production label:staging tag:team-a', 'prompts:read']) {
      expect((await send(narrow, 'prompts/get', get)).status, narrow).toBe(404);
      expect((await send(narrow, 'prompts/list', {})).status, narrow).toBe(404);
    }
    // The same grant (scopes in another order, a fresh token) keeps the session.
    const same = await send('label:staging prompts:read label:production', 'prompts/get', get);
    expect(same.status).toBe(200);
    await same.body?.cancel();
    await client.close();
  });
});

describe('issuer discovery', () => {
  it('falls back to OpenID Connect discovery; RFC 8414 paths insert the well-known part after the host', async () => {
    const oidc = await startIssuer({ discovery: 'openid' });
    const verifier = createOAuthVerifier({ issuer: oidc.issuer, audience: resource });
    const info = await verifier.verify(await oidc.token({ aud: resource, scope: 'prompts:read label:staging', sub: 'bob' }));
    expect(info.scopes).toEqual(['prompts:read', 'label:staging']);
    expect(info.clientId).toBe('client-1');
    expect(oidc.hits).toContain('/.well-known/openid-configuration');
    await oidc.close();
    expect(metadataUrls('https://login.example/realms/main')).toEqual([
      'https://login.example/.well-known/oauth-authorization-server/realms/main',
      'https://login.example/.well-known/openid-configuration/realms/main',
      'https://login.example/realms/main/.well-known/openid-configuration',
    ]);
  });
});

describe('tag: scopes', () => {
  it('hide the prompts without one of the granted tags, on list and get (scopedView), on /mcp and the legacy SSE', async () => {
    await createPrompt(srv.core, { ...textPrompt('team-a-only', 'a {{who}}'), tags: ['team-a'] });
    await createPrompt(srv.core, { ...textPrompt('team-b-only', 'b {{who}}'), tags: ['team-b'] });
    const token = await issuer.token({ aud: resource, scope: 'prompts:read tag:team-a' });
    const { client } = await connectWith(token);
    expect(await names(client)).toEqual(['team-a-only']);
    await expect(client.getPrompt({ name: 'greet', arguments: { who: 'x' } })).rejects.toThrow(/not found|unknown/i);
    await expect(client.getPrompt({ name: 'team-b-only', arguments: { who: 'x' } })).rejects.toThrow(/not found|unknown/i);
    await client.close();
    // Without a tag scope the same view shows every prompt.
    const all = await connectWith(await issuer.token({ aud: resource }));
    expect(await names(all.client)).toEqual(expect.arrayContaining(['greet', 'team-a-only', 'team-b-only']));
    await all.client.close();
    const legacy = new Client({ name: 'oauth-sse', version: '1' });
    await legacy.connect(new SSEClientTransport(new URL(`${srv.url}/sse`), { requestInit: { headers: { authorization: `Bearer ${token}` } }, eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` } }) } }));
    expect(await names(legacy)).toEqual(['team-a-only']);
    await legacy.close();
  });
});
