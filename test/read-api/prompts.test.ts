// The read API's prompt routes over HTTP (app.request), each response checked against
// /v1/openapi.json: definitions and renders by label or pinned version, strong ETags
// answered 304 on If-None-Match, and the ETag moving with a label move and with a
// bound resource's edit; 404s naming what is missing; 401 without a token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { actor, makeCore } from '../helpers/db.js';
import { textPrompt, TOKEN } from '../helpers/http.js';
import { makeReadClient, problem } from './helpers.js';

let core: Core;
let client: ReturnType<typeof makeReadClient>;
let call: ReturnType<typeof makeReadClient>['call'];
let styleId: number;

const v2 = { arguments: [{ name: 'who', required: true }], messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'v2 {{who}}' } }] };

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeReadClient(core);
  call = client.call;
  await core.prompts.create({ ...textPrompt('greet', 'v1 {{who}}'), activate: true } as never, actor);
  await core.prompts.createVersion('greet', v2 as never, actor);
  await core.labels.set('greet', 'staging', 2, actor);
  styleId = (await core.resources.create({ uri: 'docs://style', name: 'style', mimeType: 'text/plain', text: 'Be brief.' } as never, actor)).id;
  await core.prompts.create({
    name: 'styled', activate: true, arguments: [{ name: 'topic', required: true }],
    messages: [{ role: 'user', content: { type: 'text', text: 'Write about {{topic}}' } }, { role: 'user', content: { type: 'resource', uri: 'docs://style' } }],
  } as never, actor);
});
afterAll(() => core.close());

const get = (path: string, headers: Record<string, string> = {}) => call('GET', path, undefined, headers);

describe('GET /v1/prompts/{name}', () => {
  it("serves the production version's definition with a strong ETag, no-cache and Vary: Authorization", async () => {
    const res = await get('/prompts/greet');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ name: 'greet', label: 'production', version: 1, messages: [{ role: 'user', content: { type: 'text', text: 'v1 {{who}}' } }] });
    expect(body.arguments.map((a: { name: string }) => a.name)).toEqual(['who']);
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('vary')).toContain('Authorization');
  });

  it('answers If-None-Match with 304 and no body (a listed, weak-prefixed or * tag matches too), a stale tag with 200', async () => {
    const etag = (await get('/prompts/greet')).headers.get('etag')!;
    for (const inm of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const res = await get('/prompts/greet', { 'if-none-match': inm });
      expect(res.status, inm).toBe(304);
      expect(await res.text()).toBe('');
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
    expect((await get('/prompts/greet', { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it('label= and version= select; a pinned version keeps its ETag when labels move, the label URL does not', async () => {
    expect(await (await get('/prompts/greet?label=staging')).json()).toMatchObject({ label: 'staging', version: 2 });
    expect(await (await get('/prompts/greet?label=latest')).json()).toMatchObject({ label: 'latest', version: 2 });
    const pinned = await get('/prompts/greet?version=1');
    expect(await pinned.json()).toMatchObject({ label: null, version: 1, messages: [{ content: { text: 'v1 {{who}}' } }] });
    const pinnedTag = pinned.headers.get('etag')!;
    const before = (await get('/prompts/greet')).headers.get('etag')!;

    await core.labels.set('greet', 'production', 2, actor);
    const moved = await get('/prompts/greet', { 'if-none-match': before });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).not.toBe(before);
    expect(await moved.json()).toMatchObject({ label: 'production', version: 2, messages: [{ content: { text: 'v2 {{who}}' } }] });
    expect((await get('/prompts/greet?version=1', { 'if-none-match': pinnedTag })).status).toBe(304);

    await core.labels.set('greet', 'production', 1, actor);
    // Back where it was: the same bytes, so the same tag.
    expect((await get('/prompts/greet', { 'if-none-match': before })).status).toBe(304);
  });

  it('404 problem+json naming the prompt, the label or the version; deleted and archived prompts are not served', async () => {
    expect((await problem(await get('/prompts/nope'), 404)).errors).toEqual([{ path: 'name', message: 'no such prompt' }]);
    let body = await problem(await get('/prompts/greet?label=nosuch'), 404);
    expect(body.errors?.[0]?.path).toBe('label');
    expect(body.detail).toMatch(/label "nosuch" is not known/);
    await core.labels.set('styled', 'canary', 1, actor);
    body = await problem(await get('/prompts/greet?label=canary'), 404);
    expect(body).toMatchObject({ detail: 'prompt "greet" has no label "canary"', errors: [{ path: 'label' }] });
    body = await problem(await get('/prompts/greet?version=9'), 404);
    expect(body.errors).toEqual([{ path: 'version', message: 'no such version' }]);

    await core.prompts.create({ ...textPrompt('gone'), activate: true } as never, actor);
    expect((await get('/prompts/gone?version=1')).status).toBe(200);
    await core.prompts.delete('gone', actor);
    for (const q of ['', '?label=latest', '?version=1']) expect((await problem(await get(`/prompts/gone${q}`), 404)).errors?.[0]?.path).toBe('name');

    await core.prompts.create({ ...textPrompt('old'), activate: true } as never, actor);
    await core.prompts.update('old', { archived: true }, actor);
    for (const q of ['', '?version=1']) expect((await problem(await get(`/prompts/old${q}`), 404)).detail).toMatch(/archived/);
  });

  it('400 problem+json for an invalid label or version, or both given', async () => {
    expect((await problem(await get('/prompts/greet?label=Bad_Label'), 400)).errors?.[0]?.path).toBe('query.label');
    expect((await problem(await get('/prompts/greet?version=0'), 400)).errors?.[0]?.path).toBe('query.version');
    expect((await problem(await get('/prompts/greet?label=staging&version=1'), 400)).errors?.[0]?.path).toBe('version');
  });
});

describe('POST /v1/prompts/{name}/render', () => {
  const render = (path: string, args: Record<string, string>, headers: Record<string, string> = {}) => call('POST', path, { arguments: args }, headers);

  it('renders with the label (or version) and answers If-None-Match with 304; other arguments make another tag', async () => {
    const res = await render('/prompts/greet/render', { who: 'Ada' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'greet', label: 'production', version: 1, description: 'prompt greet', messages: [{ role: 'user', content: { type: 'text', text: 'v1 Ada' } }] });
    const etag = res.headers.get('etag')!;
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('vary')).toContain('Authorization');
    const again = await render('/prompts/greet/render', { who: 'Ada' }, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await render('/prompts/greet/render', { who: 'Bob' }, { 'if-none-match': etag });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).not.toBe(etag);
    expect(await (await render('/prompts/greet/render?version=2', { who: 'Ada' })).json()).toMatchObject({ label: null, version: 2, messages: [{ content: { text: 'v2 Ada' } }] });
    expect(await (await render('/prompts/greet/render?label=staging', { who: 'Ada' })).json()).toMatchObject({ label: 'staging', version: 2 });
  });

  it("a label move changes the render's ETag", async () => {
    const etag = (await render('/prompts/greet/render', { who: 'Ada' })).headers.get('etag')!;
    await core.labels.set('greet', 'production', 2, actor);
    try {
      const res = await render('/prompts/greet/render', { who: 'Ada' }, { 'if-none-match': etag });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ version: 2, messages: [{ content: { text: 'v2 Ada' } }] });
    } finally {
      await core.labels.set('greet', 'production', 1, actor);
    }
  });

  it("editing an embedded resource changes the render's ETag though the version did not move", async () => {
    const first = await render('/prompts/styled/render', { topic: 'cats' });
    expect((await first.json()).messages[1].content).toEqual({ type: 'resource', resource: { uri: 'docs://style', mimeType: 'text/plain', text: 'Be brief.' } });
    const etag = first.headers.get('etag')!;
    const defTag = (await get('/prompts/styled')).headers.get('etag')!;
    expect((await render('/prompts/styled/render', { topic: 'cats' }, { 'if-none-match': etag })).status).toBe(304);

    await core.resources.update(styleId, { uri: 'docs://style', name: 'style', mimeType: 'text/plain', text: 'Be very brief.' } as never, actor);
    const res = await render('/prompts/styled/render', { topic: 'cats' }, { 'if-none-match': etag });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(etag);
    expect((await res.json()).messages[1].content.resource.text).toBe('Be very brief.');
    // The definition holds the binding, not the resource's text: its tag stays.
    expect((await get('/prompts/styled', { 'if-none-match': defTag })).status).toBe(304);
  });

  it('422 naming each bad argument, 404 for what is not served, 400 for a body that is not an object of strings', async () => {
    let body = await problem(await render('/prompts/greet/render', {}), 422);
    expect(body.errors).toEqual([{ path: 'arguments.who', message: expect.stringMatching(/missing required argument "who"/) }]);
    body = await problem(await render('/prompts/greet/render', { who: 'a', extra: 'b' }), 422);
    expect(body.errors?.map((e) => e.path)).toEqual(['arguments.extra']);
    expect((await problem(await render('/prompts/nope/render', {}), 404)).errors?.[0]?.path).toBe('name');
    expect((await problem(await render('/prompts/greet/render?version=9', { who: 'a' }), 404)).errors?.[0]?.path).toBe('version');
    body = await problem(await call('POST', '/prompts/greet/render', { arguments: { who: 5 } }), 422);
    expect(body.errors?.[0]?.path).toBe('arguments.who');
    await problem(await call('POST', '/prompts/greet/render', '{"arguments":'), 400);
  });
});

describe('authentication', () => {
  it('every /v1 route needs a bearer token (401 problem+json); the document is public', async () => {
    const routes: [string, string][] = [['GET', '/v1/prompts/greet'], ['POST', '/v1/prompts/greet/render'], ['GET', '/v1/changes'], ['GET', '/v1/changes/stream'], ['GET', '/v1/nope']];
    for (const [method, path] of routes) {
      for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Basic abc' }] as Record<string, string>[]) {
        const res = await client.app.request(path, { method, headers });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="promptd"');
      }
    }
    expect((await client.app.request('/v1/openapi.json')).status).toBe(200);
  });

  it('API tokens work until revoked', async () => {
    const { token, info } = await core.tokens.create('app');
    const get = () => client.app.request('/v1/prompts/greet', { headers: { authorization: `Bearer ${token}` } });
    expect((await get()).status).toBe(200);
    await core.tokens.revoke(String(info.id));
    expect((await get()).status).toBe(401);
  });
});
