import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
const HOOK = 'https://hooks.example.com/promptd';

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
});
afterAll(() => core.close());

const paths = async (res: Response) => ((await res.json()).errors ?? []).map((e: { path: string }) => e.path);

describe('/admin/v1/webhooks', () => {
  it('creates (secret shown once), lists, reads, changes, rotates and deletes', async () => {
    let res = await call('POST', '/webhooks', { url: HOOK, events: ['version.created', 'labels.promoted'], label: 'production' });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(res.headers.get('location')).toBe(`/admin/v1/webhooks/${created.id}`);
    expect(created).toMatchObject({ url: HOOK, events: ['version.created', 'labels.promoted'], label: 'production', active: true });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.secretHint).toBe(`${created.secret.slice(0, 10)}…`);

    const listed = await (await call('GET', '/webhooks')).json();
    expect(listed.items.map((w: { id: number }) => w.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const got = await (await call('GET', `/webhooks/${created.id}`)).json();
    expect(got).not.toHaveProperty('secret');
    expect(got).toMatchObject({ id: created.id, label: 'production' });

    res = await call('PATCH', `/webhooks/${created.id}`, { events: ['*'], label: null, active: false });
    expect(res.status).toBe(200);
    const changed = await res.json();
    expect(changed).toMatchObject({ events: ['*'], label: null, active: false });
    expect(changed).not.toHaveProperty('secret');

    res = await call('PATCH', `/webhooks/${created.id}`, { rotateSecret: true });
    const rotated = await res.json();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);

    expect((await call('DELETE', `/webhooks/${created.id}`)).status).toBe(204);
    expect((await call('GET', `/webhooks/${created.id}`)).status).toBe(404);
    expect((await call('DELETE', `/webhooks/${created.id}`)).status).toBe(404);
    // Its lifecycle is in the change log, without URL or secret.
    const log = await core.feed.since(0);
    const mine = log.filter((e) => e.entity === 'webhook' && e.entityKey === String(created.id));
    expect(mine.map((e) => e.action)).toEqual(['webhook.created', 'webhook.updated', 'webhook.updated', 'webhook.deleted']);
    expect(JSON.stringify(mine)).not.toMatch(/whsec_|hooks\.example/);
  });

  it('problem+json naming the failing field for bad input', async () => {
    const cases: [unknown, string][] = [
      [{ url: 'ftp://x.example/hook', events: ['*'] }, 'url'],
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: HOOK, events: [] }, 'events'],
      [{ url: HOOK, events: ['version.create'] }, 'events[0]'],
      [{ url: HOOK, events: ['*', 'nope.*'] }, 'events[1]'],
      [{ url: HOOK, events: ['*'], label: 'bad label!' }, 'label'],
      // the release label format: lowercase, at most 36 characters
      [{ url: HOOK, events: ['*'], label: 'Production' }, 'label'],
      [{ url: HOOK, events: ['*'], label: 'rc_1' }, 'label'],
      [{ url: HOOK, events: ['*'], label: 'a'.repeat(37) }, 'label'],
      [{ url: HOOK, events: ['*'], secret: 'mine' }, '(body)'],
      [{ events: ['*'] }, 'url'],
    ];
    for (const [input, path] of cases) {
      const res = await call('POST', '/webhooks', input);
      expect(res.status, JSON.stringify(input)).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(await paths(res), JSON.stringify(input)).toContain(path);
    }
    const res = await call('POST', '/webhooks', { url: HOOK, events: ['nope'] });
    expect((await res.json()).errors[0].message).toContain('version.created');
    expect((await call('GET', '/webhooks/abc')).status).toBe(400);
    expect((await call('PATCH', '/webhooks/999999', { active: true })).status).toBe(404);
    expect((await call('PATCH', '/webhooks/1', { rotateSecret: false })).status).toBe(422);
    expect((await call('GET', '/webhooks/999999/deliveries')).status).toBe(404);
    expect((await call('POST', '/webhooks/999999/ping')).status).toBe(404);
    expect((await call('GET', '/webhooks')).status).toBe(200);
    expect((await makeClient(core).app.request('/admin/v1/webhooks')).status).toBe(401);
  });

  it('refuses private and loopback targets unless PROMPTD_WEBHOOK_ALLOW_PRIVATE=1', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://10.1.2.3/x', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://[::ffff:127.0.0.1]/x', 'http://0x7f000001/x', 'http://app.localhost/x']) {
      const res = await call('POST', '/webhooks', { url, events: ['*'] });
      expect(res.status, url).toBe(422);
      const body = await res.json();
      expect(body.errors[0].path).toBe('url');
      expect(body.detail).toContain('PROMPTD_WEBHOOK_ALLOW_PRIVATE');
    }
    const id = (await (await call('POST', '/webhooks', { url: HOOK, events: ['*'] })).json()).id;
    expect((await call('PATCH', `/webhooks/${id}`, { url: 'http://192.168.1.1/' })).status).toBe(422);
  });

  it('ping queues a delivery; the delivery log pages newest first; redeliver resets it; inactive webhooks refuse both', async () => {
    const { id } = await (await call('POST', '/webhooks', { url: HOOK, events: ['prompt.created'] })).json();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call('POST', `/webhooks/${id}/ping`);
      expect(res.status).toBe(202);
      const d = await res.json();
      expect(d).toMatchObject({ webhookId: id, event: 'webhook.ping', status: 'pending', attempts: 0, lastError: null, deliveredAt: null });
      ids.push(d.id);
    }
    let res = await call('GET', `/webhooks/${id}/deliveries?limit=2`);
    const first = await res.json();
    expect(first.items.map((d: { id: number }) => d.id)).toEqual([ids[2], ids[1]]);
    res = await call('GET', `/webhooks/${id}/deliveries?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`);
    const second = await res.json();
    expect(second).toMatchObject({ items: [{ id: ids[0] }], nextCursor: null });
    expect((await call('GET', `/webhooks/${id}/deliveries?cursor=forged`)).status).toBe(400);

    res = await call('POST', `/webhooks/${id}/deliveries/${ids[0]}/redeliver`);
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ id: ids[0], status: 'pending', attempts: 0 });
    expect((await call('POST', `/webhooks/${id}/deliveries/999999/redeliver`)).status).toBe(404);

    await call('PATCH', `/webhooks/${id}`, { active: false });
    res = await call('POST', `/webhooks/${id}/ping`);
    expect(res.status).toBe(409);
    expect(await paths(res)).toEqual(['active']);
    expect((await call('POST', `/webhooks/${id}/deliveries/${ids[0]}/redeliver`)).status).toBe(409);
    // Another webhook's delivery id is not found under this one.
    const other = (await (await call('POST', '/webhooks', { url: HOOK, events: ['*'] })).json()).id;
    expect((await call('POST', `/webhooks/${other}/deliveries/${ids[0]}/redeliver`)).status).toBe(404);
  });

  it('the OpenAPI document describes the webhook routes', async () => {
    const doc = await (await makeClient(core).app.request('/admin/v1/openapi.json')).json();
    for (const p of ['/webhooks', '/webhooks/{id}', '/webhooks/{id}/deliveries', '/webhooks/{id}/deliveries/{deliveryId}/redeliver', '/webhooks/{id}/ping']) expect(doc.paths[p], p).toBeDefined();
    expect(Object.keys(doc.paths['/webhooks/{id}'])).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
    expect(doc.components.schemas.WebhookWithSecret.required).toContain('secret');
    expect(doc.components.schemas.Webhook.properties).not.toHaveProperty('secret');
  });
});
