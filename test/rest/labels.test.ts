// The label routes over HTTP (app.request): every route, its errors as problem+json
// naming the field, If-Match, and the `active` aliases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
let openapi: ReturnType<typeof makeClient>['openapi'];

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  ({ call, openapi } = makeClient(core));
  expect((await call('POST', '/prompts', textPrompt('greet', 'v1 {{who}}', { activate: true }))).status).toBe(201);
  expect((await call('POST', '/prompts/greet/versions', { arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'v2 {{who}}' } }] })).status).toBe(201);
  expect((await call('POST', '/prompts', textPrompt('other', 'o1 {{who}}', { activate: true }))).status).toBe(201);
});
afterAll(() => core.close());

const problem = async (res: Response, status: number) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return res.json() as Promise<{ detail: string; errors?: { path: string; message: string }[] }>;
};

describe('labels REST API', () => {
  it('GET /prompts/{name}/labels lists the production label that activation made', async () => {
    const res = await call('GET', '/prompts/greet/labels');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ items: [{ label: 'production', version: 1 }] });
    await problem(await call('GET', '/prompts/nope/labels'), 404);
  });

  it('PUT sets a label (200 {label, version}, ETag); details and version summaries carry labels', async () => {
    const res = await call('PUT', '/prompts/greet/labels/staging', { version: 2 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ label: 'staging', version: 2, impact: { dependents: [], message: 'no other prompt includes it' } });
    expect(res.headers.get('etag')).toMatch(/^"\d+"$/);
    const detail = await (await call('GET', '/prompts/greet')).json();
    expect(detail.labels).toEqual(['production', 'staging']);
    expect(detail.activeVersion).toBe(1);
    const versions = await (await call('GET', '/prompts/greet/versions')).json();
    expect(versions.items.map((v: { version: number; labels: string[] }) => [v.version, v.labels])).toEqual([[2, ['staging']], [1, ['production']]]);
  });

  it('PUT errors: 404 unknown prompt or version, 422 bad label name or latest, 412 stale If-Match', async () => {
    await problem(await call('PUT', '/prompts/nope/labels/staging', { version: 1 }), 404);
    await problem(await call('PUT', '/prompts/greet/labels/staging', { version: 7 }), 404);
    let body = await problem(await call('PUT', '/prompts/greet/labels/Bad_Name', { version: 1 }), 422);
    expect(body.errors?.[0]?.path).toBe('label');
    body = await problem(await call('PUT', '/prompts/greet/labels/latest', { version: 1 }), 422);
    expect(body.errors?.[0]).toMatchObject({ path: 'label', message: expect.stringMatching(/latest/) });
    body = await problem(await call('PUT', '/prompts/greet/labels/staging', { version: 'two' }), 422);
    expect(body.errors?.[0]?.path).toBe('version');
    await problem(await call('PUT', '/prompts/greet/labels/staging', { version: 1 }, { 'if-match': '"1"' }), 412);
    const etag = (await call('GET', '/prompts/greet')).headers.get('etag')!;
    const ok = await call('PUT', '/prompts/greet/labels/canary', { version: 1 }, { 'if-match': etag });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('etag')).not.toBe(etag);
  });

  it('DELETE removes a label (204), 404 when absent, 412 on a stale If-Match, 422 for latest', async () => {
    await problem(await call('DELETE', '/prompts/greet/labels/canary', undefined, { 'if-match': '"1"' }), 412);
    expect((await call('DELETE', '/prompts/greet/labels/canary')).status).toBe(204);
    await problem(await call('DELETE', '/prompts/greet/labels/canary'), 404);
    await problem(await call('DELETE', '/prompts/greet/labels/latest'), 422);
  });

  it('GET /labels counts prompts per label; GET /prompts?label= lists the prompts carrying it', async () => {
    expect(await (await call('GET', '/labels')).json()).toEqual({ items: [{ label: 'production', prompts: 2 }, { label: 'staging', prompts: 1 }] });
    const page = await (await call('GET', '/prompts?label=staging')).json();
    expect(page.items.map((p: { name: string }) => p.name)).toEqual(['greet']);
    expect((await (await call('GET', '/prompts?label=production')).json()).items).toHaveLength(2);
    await problem(await call('GET', '/prompts?label=NOT%20A%20LABEL'), 400);
  });

  it('POST /labels/{from}/promote: dryRun, release, named prompts, errors', async () => {
    let res = await call('POST', '/labels/staging/promote', { to: 'production', dryRun: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ changes: [{ prompt: 'greet', from: 1, to: 2 }], impact: { dependents: [], message: 'no other prompt includes it' } });
    expect((await (await call('GET', '/prompts/greet')).json()).activeVersion).toBe(1);
    res = await call('POST', '/labels/staging/promote', { to: 'production' });
    expect(await res.json()).toEqual({ changes: [{ prompt: 'greet', from: 1, to: 2 }] });
    expect((await (await call('GET', '/prompts/greet')).json()).activeVersion).toBe(2);
    res = await call('POST', '/labels/production/promote', { to: 'beta', prompts: ['other'] });
    expect(await res.json()).toEqual({ changes: [{ prompt: 'other', from: null, to: 1 }] });
    let body = await problem(await call('POST', '/labels/production/promote', { to: 'latest' }), 422);
    expect(body.errors?.[0]?.path).toBe('to');
    body = await problem(await call('POST', '/labels/staging/promote', { to: 'beta', prompts: ['other'] }), 422);
    expect(body.errors?.[0]?.path).toBe('prompts[0]');
    await problem(await call('POST', '/labels/staging/promote', { to: 'beta', prompts: ['ghost'] }), 404);
    body = await problem(await call('POST', '/labels/Nope!/promote', { to: 'beta' }), 422);
    expect(body.errors?.[0]?.path).toBe('from');
    body = await problem(await call('POST', '/labels/staging/promote', { to: 'beta', extra: 1 }), 422);
  });

  it('PUT/DELETE /prompts/{name}/active stay aliases of the production label', async () => {
    let res = await call('PUT', '/prompts/greet/active', { version: 1 });
    expect(res.status).toBe(200);
    expect(await (await call('GET', '/prompts/greet/labels')).json()).toEqual({ items: [{ label: 'production', version: 1 }, { label: 'staging', version: 2 }] });
    res = await call('DELETE', '/prompts/greet/active');
    expect(res.status).toBe(200);
    expect((await res.json()).labels).toEqual(['staging']);
    const events = await core.feed.since(0, 1000);
    expect(events.filter((e) => e.entityKey === 'greet').map((e) => e.action).slice(-2)).toEqual(['prompt.rolled_back', 'prompt.deactivated']);
  });

  it('GET /prompts/{name}/label-history lists the label moves newest first, paginated', async () => {
    const res = await call('GET', '/prompts/greet/label-history');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { id: number; action: string; label: string; from: number | null; to: number | null; source: string | null; actor: string }[]; nextCursor: string | null };
    const moves = body.items.map(({ action, label, from, to, source }) => ({ action, label, from, to, source }));
    // Newest first: the alias moves, the release, the labels set and removed, the activation at creation.
    expect(moves.slice(0, 3)).toEqual([
      { action: 'prompt.deactivated', label: 'production', from: 1, to: null, source: null },
      { action: 'prompt.rolled_back', label: 'production', from: 2, to: 1, source: null },
      { action: 'labels.promoted', label: 'production', from: 1, to: 2, source: 'staging' },
    ]);
    expect(moves).toContainEqual({ action: 'label.removed', label: 'canary', from: 1, to: null, source: null });
    expect(moves).toContainEqual({ action: 'label.set', label: 'staging', from: null, to: 2, source: null });
    expect(body.items[0]!.actor).toBeTruthy();
    expect(body.nextCursor).toBeNull();
    const first = (await (await call('GET', '/prompts/greet/label-history?limit=2')).json()) as typeof body;
    expect(first.items).toHaveLength(2);
    const next = (await (await call('GET', `/prompts/greet/label-history?limit=2&cursor=${first.nextCursor}`)).json()) as typeof body;
    expect(next.items[0]).toEqual(body.items[2]);
    // other prompts' moves are not in it
    expect(body.items.every((m) => m.label !== 'beta')).toBe(true);
    await problem(await call('GET', '/prompts/nope/label-history'), 404);
    expect((await problem(await call('GET', '/prompts/greet/label-history?cursor=abc'), 400)).errors?.[0]?.path).toBe('cursor');
  });

  it('the OpenAPI document has every label route', async () => {
    const doc = (await openapi()) as unknown as { paths: Record<string, unknown>; components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    for (const p of ['/prompts/{name}/labels', '/prompts/{name}/labels/{label}', '/prompts/{name}/label-history', '/labels', '/labels/{from}/promote']) expect(doc.paths[p], p).toBeDefined();
    expect(doc.components.schemas.VersionSummary!.properties.labels).toBeDefined();
    expect(doc.components.schemas.PromptDetail!.properties.labels).toBeDefined();
  });
});
