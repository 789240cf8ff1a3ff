// Issue 36.12: app tokens (`kind: "app"`, `pda_…`) give an application the read API
// (/v1) with an MCP token's scope: its label only (another label or a pinned version is
// a 403 naming why), only prompts carrying one of its tags (others read as not found),
// only changes in that scope; 401 on the admin API and on /mcp's token check, and an
// app token never locks /mcp. Every response checked against /v1/openapi.json; both
// databases (PROMPTD_TEST_DB=postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { actor, makeCore } from '../helpers/db.js';
import { textPrompt, TOKEN } from '../helpers/http.js';
import { makeReadClient, problem, sseReader } from './helpers.js';

let core: Core;
let client: ReturnType<typeof makeReadClient>;
let app = '';
let untagged = '';

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeReadClient(core);
  for (const [name, tags] of [['shop-greet', ['shop']], ['shop-help', ['shop', 'support']], ['internal', ['ops']]] as const) {
    await core.prompts.create({ ...textPrompt(name, `${name} {{who}}`), tags: [...tags], activate: true } as never, actor);
    await core.labels.set(name, 'staging', 1, actor);
  }
  // Created through the admin API, as an operator would.
  const res = await client.app.request('/admin/v1/tokens', {
    method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'shop-frontend', kind: 'app', label: 'staging', tags: ['shop'] }),
  });
  expect(res.status).toBe(201);
  const created = (await res.json()) as { token: string; kind: string; label: string; tags: string[]; role: null };
  expect(created).toMatchObject({ kind: 'app', label: 'staging', tags: ['shop'], role: null });
  expect(created.token).toMatch(/^pda_/);
  app = created.token;
  untagged = (await core.tokens.create('whole-label', 'test', { kind: 'app' })).token;
});
afterAll(() => core.close());

const as = (token: string) => ({ authorization: `Bearer ${token}` });

describe('app tokens on the read API', () => {
  it('read their label, default to it, and only prompts carrying one of their tags', async () => {
    let res = await client.call('GET', '/prompts/shop-greet', undefined, as(app));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'shop-greet', label: 'staging' });
    res = await client.call('GET', '/prompts/shop-help?label=staging', undefined, as(app));
    expect(res.status).toBe(200);
    res = await client.call('POST', '/prompts/shop-greet/render', { arguments: { who: 'x' } }, as(app));
    expect(res.status).toBe(200);
    // Out of its tags: the same answer as a prompt that does not exist.
    const hidden = await problem(await client.call('GET', '/prompts/internal', undefined, as(app)), 404);
    const missing = await problem(await client.call('GET', '/prompts/no-such', undefined, as(app)), 404);
    expect(hidden.detail.replace('internal', 'X')).toBe(missing.detail.replace('no-such', 'X'));
    await problem(await client.call('POST', '/prompts/internal/render', { arguments: { who: 'x' } }, as(app)), 404);
    // Without tags: every prompt of its label.
    expect((await client.call('GET', '/prompts/internal', undefined, as(untagged))).status).toBe(200);
  });

  it('another label or a pinned version is a 403 naming the field and the label it reads', async () => {
    let p = await problem(await client.call('GET', '/prompts/shop-greet?label=production', undefined, as(app)), 403);
    expect(p.detail).toContain('reads label "staging" only');
    expect(p.errors?.map((e) => e.path)).toEqual(['label']);
    p = await problem(await client.call('GET', '/prompts/shop-greet?version=1', undefined, as(app)), 403);
    expect(p.errors?.map((e) => e.path)).toEqual(['version']);
    await problem(await client.call('POST', '/prompts/shop-greet/render?label=latest', { arguments: { who: 'x' } }, as(app)), 403);
  });

  it('see only the changes in their scope', async () => {
    const start = ((await (await client.call('GET', '/changes', undefined, as(app))).json()) as { next: number }).next;
    await core.prompts.createVersion('internal', { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'v2' } }] } as never, actor);
    await core.labels.set('internal', 'staging', 2, actor);
    await core.prompts.createVersion('shop-greet', { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'v2' } }] } as never, actor);
    await core.labels.set('shop-greet', 'staging', 2, actor);
    await core.labels.set('shop-help', 'canary', 1, actor); // its tags, another label
    const seen = async (token: string) => ((await (await client.call('GET', `/changes?since=${start}`, undefined, as(token))).json()) as { items: { prompt: string; labels: string[] | null }[] }).items;
    const mine = await seen(app);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((i) => i.prompt === 'shop-greet')).toBe(true);
    expect(mine.some((i) => i.labels?.includes('staging'))).toBe(true);
    // An admin token sees them all.
    expect(new Set((await seen(TOKEN)).map((i) => i.prompt))).toEqual(new Set(['internal', 'shop-greet', 'shop-help']));
  });

  it('hear only the changes in their scope on the stream', async () => {
    const abort = new AbortController();
    const res = await client.call('GET', '/changes/stream', undefined, as(app), { signal: abort.signal });
    expect(res.status).toBe(200);
    const sse = sseReader(res);
    expect((await sse.next())?.event).toBe('ready');
    // Out of scope first (another tag, then another label), then in scope: the first change heard is the last write.
    await core.labels.set('internal', 'staging', 1, actor);
    await core.labels.set('shop-greet', 'canary', 1, actor);
    await core.labels.set('shop-greet', 'staging', 1, actor);
    const heard = await sse.next();
    expect(heard?.event).toBe('change');
    expect(JSON.parse(heard!.data!)).toMatchObject({ prompt: 'shop-greet', labels: ['staging'], version: 1 });
    abort.abort();
  });

  it('are refused on the admin API (401) and are not MCP tokens', async () => {
    const res = await client.app.request('/admin/v1/prompts', { headers: as(app) });
    const p = await problem(res, 401);
    expect(p.detail).toContain('app token');
    expect(await core.tokens.authenticateMcp(app)).toBeNull();
    expect(await core.tokens.authenticate(app)).toBeNull();
    // An app token does not make /mcp require tokens.
    expect(await core.tokens.mcpTokensExist()).toBe(false);
  });

  it('an MCP token is refused on the read API; a revoked app token at once', async () => {
    const mcp = (await core.tokens.create('an-mcp', 'test', { kind: 'mcp' })).token;
    await problem(await client.call('GET', '/prompts/shop-greet', undefined, as(mcp)), 401);
    const gone = await core.tokens.create('gone', 'test', { kind: 'app', label: 'staging' });
    expect((await client.call('GET', '/prompts/shop-greet', undefined, as(gone.token))).status).toBe(200);
    await core.tokens.revoke(gone.info.id);
    await problem(await client.call('GET', '/prompts/shop-greet', undefined, as(gone.token)), 401);
  });
});
