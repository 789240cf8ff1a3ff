import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { openStore, type DbStore } from '../../src/db/store.js';
import { createCore, type Core } from '../../src/core/index.js';
import { createWebhookDispatcher, IN_FLIGHT_PER_WEBHOOK, LEASE_MS, MAX_ATTEMPTS, RETRY_SCHEDULE_MS, type WebhookPayload } from '../../src/core/webhook-dispatcher.js';
import { eventNameProblem, labelsOf, matches, subscribes } from '../../src/core/webhooks/events.js';
import { signatureOf, verifySignature } from '../../src/core/webhooks/signature.js';
import type { ChangeEvent } from '../../src/core/types.js';
import { actor, tempDbUrl, TEST_DB } from '../helpers/db.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/spawn.js';

// An injected clock, a day ahead of real time so rows the services stamp with the
// real time are always due; tests move it explicitly instead of sleeping.
let t = 0;
const now = () => new Date(t);
const advance = (ms: number) => (t += ms);

interface Instance { store: DbStore; core: Core; close(): Promise<void> }
async function instance(url: string): Promise<Instance> {
  const store = await openStore(url, { poolMax: 4 });
  const core = await createCore({ store, allowPrivateWebhooks: true });
  return { store, core, close: () => core.close() };
}
const dispatcherOn = (i: Instance, extra: { timeoutMs?: number; allowPrivate?: boolean } = {}) =>
  createWebhookDispatcher({ store: i.store, now, allowPrivate: true, ...extra });

const prompt = (name: string) => ({ name, arguments: [], messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `hi ${name}` } }] });
const version = (text: string) => ({ arguments: [], messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });
const bodyOf = (r: { body: string }) => JSON.parse(r.body) as WebhookPayload;

let url: string;
let main: Instance;
let rx: Receiver;

beforeAll(async () => {
  url = await tempDbUrl();
  await migrateDatabase(url);
  main = await instance(url);
});
afterAll(() => main.close());
beforeEach(async () => {
  t = Date.now() + 86_400_000;
  rx = await startReceiver();
  // Each test starts from a clean slate of webhooks.
  for (const w of await main.core.webhooks.list()) await main.core.webhooks.remove(w.id, actor);
});
afterEach(() => rx.close());

describe('event names and matching', () => {
  const ev = (action: string, details: Record<string, unknown> | null = null, id = 10): ChangeEvent =>
    ({ id, action, details, at: new Date(), actor: 'a', entity: 'prompt', entityKey: 'p', served: false });

  it('accepts documented names and patterns, refuses the rest', () => {
    for (const ok of ['*', 'version.created', 'labels.promoted', 'label.set', 'prompt.restored', 'prompt.purged', 'prompt.*', 'resource_template.*']) expect(eventNameProblem(ok)).toBeNull();
    for (const bad of ['version.create', 'prompt', '*.created', 'nope.*', 'webhook.ping', '']) expect(eventNameProblem(bad)).toMatch(/unknown event/);
  });

  it('"*" and prefix patterns match; pings match no subscription', () => {
    expect(subscribes(['*'], 'token.created')).toBe(true);
    expect(subscribes(['prompt.*'], 'prompt.archived')).toBe(true);
    expect(subscribes(['prompt.*'], 'version.created')).toBe(false);
    expect(subscribes(['label.*'], 'labels.promoted')).toBe(false);
    expect(subscribes(['*'], 'webhook.ping')).toBe(false);
  });

  it('the label filter reads details.label and details.labels, never from/to (version numbers, a rename\'s names)', () => {
    expect(labelsOf(ev('label.set', { label: 'production', from: null, to: 3 }))).toEqual(['production']);
    expect(labelsOf(ev('labels.promoted', { label: 'production', from: 2, to: 3, source: 'staging' }))).toEqual(['production']);
    expect(labelsOf(ev('prompt.renamed', { from: 'old-name', to: 'staging' }))).toEqual([]);
    expect(labelsOf(ev('x', { labels: ['a', 'b', 3] }))).toEqual(['a', 'b']);
    const hook = { events: ['*'], label: 'production', sinceEventId: 0 };
    expect(matches(hook, ev('label.set', { label: 'production' }))).toBe(true);
    expect(matches(hook, ev('label.set', { label: 'staging' }))).toBe(false);
    expect(matches(hook, ev('version.created', { version: 2 }))).toBe(false);
    expect(matches({ ...hook, label: null }, ev('version.created'))).toBe(true);
    expect(matches({ ...hook, label: null, sinceEventId: 10 }, ev('version.created'))).toBe(false);
  });

  it('signatures verify, and tampered bodies, other secrets and stale timestamps do not', () => {
    const ts = 1_900_000_000;
    const sig = signatureOf('whsec_x', ts, '{"a":1}');
    expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature('whsec_x', { signature: sig, timestamp: String(ts) }, '{"a":1}', ts + 10)).toBe(true);
    expect(verifySignature('whsec_x', { signature: sig, timestamp: String(ts) }, '{"a":2}', ts + 10)).toBe(false);
    expect(verifySignature('whsec_y', { signature: sig, timestamp: String(ts) }, '{"a":1}', ts + 10)).toBe(false);
    expect(verifySignature('whsec_x', { signature: sig, timestamp: String(ts + 1) }, '{"a":1}', ts + 10)).toBe(false);
    expect(verifySignature('whsec_x', { signature: sig, timestamp: String(ts) }, '{"a":1}', ts + 301)).toBe(false);
  });
});

describe(`dispatcher (${TEST_DB})`, () => {
  it('delivers matching events once, signed, with the documented payload and headers', async () => {
    const { webhook, secret } = await main.core.webhooks.create({ url: rx.url, events: ['version.created'] }, actor);
    const d = dispatcherOn(main);
    await main.core.prompts.create(prompt('signed'), actor);
    await main.core.prompts.createVersion('signed', version('v2'), actor);
    expect((await d.tick()).attempts).toBe(1);
    expect(await d.tick()).toEqual({ scanned: 0, attempts: 0 });
    expect(rx.requests).toHaveLength(1);
    const [r] = rx.requests;
    expect(verifySignature(secret, { signature: r!.headers['x-promptd-signature'] as string, timestamp: r!.headers['x-promptd-timestamp'] as string }, r!.body, t / 1000)).toBe(true);
    expect(r!.headers['x-promptd-timestamp']).toBe(String(Math.floor(t / 1000)));
    expect(r!.headers['x-promptd-event']).toBe('version.created');
    expect(r!.headers['content-type']).toBe('application/json');
    const body = bodyOf(r!);
    expect(body).toMatchObject({ event: 'version.created', actor: 'test', entity: 'prompt', key: 'signed', details: { version: 2 } });
    expect(Object.keys(body).sort()).toEqual(['actor', 'at', 'details', 'entity', 'event', 'id', 'key']);
    const log = await main.core.webhooks.deliveries(webhook.id);
    expect(log.items).toHaveLength(1);
    expect(log.items[0]).toMatchObject({ id: Number(r!.headers['x-promptd-delivery']), eventId: body.id, event: 'version.created', status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null });
  });

  it('events before a webhook existed are never delivered to it', async () => {
    await main.core.prompts.create(prompt('before-hook'), actor);
    await main.core.webhooks.create({ url: rx.url, events: ['*'] }, actor);
    await dispatcherOn(main).tick();
    expect(rx.requests.map((r) => bodyOf(r).event)).toEqual(['webhook.created']);
  });

  it('filters by release label, on the events the label service writes', async () => {
    await main.core.prompts.create(prompt('labelled'), actor);
    await main.core.prompts.createVersion('labelled', version('v2'), actor);
    const { webhook } = await main.core.webhooks.create({ url: rx.url, events: ['label.set', 'labels.promoted', 'version.created', 'prompt.deleted', 'prompt.restored'], label: 'production' }, actor);
    await main.core.labels.set('labelled', 'staging', 2, actor);
    await main.core.labels.set('labelled', 'production', 1, actor);
    await main.core.labels.promote('staging', { to: 'production' }, actor);
    await main.core.prompts.createVersion('labelled', version('v3'), actor);
    await main.core.prompts.delete('labelled', actor);
    await main.core.prompts.restore('labelled', actor);
    await dispatcherOn(main).tick();
    expect(rx.requests.map((r) => [bodyOf(r).event, bodyOf(r).details?.label ?? null])).toEqual([
      ['label.set', 'production'], ['labels.promoted', 'production'], ['prompt.deleted', null], ['prompt.restored', null],
    ]);
    expect(bodyOf(rx.requests[1]!).details).toMatchObject({ label: 'production', from: 1, to: 2, source: 'staging' });
    expect((await main.core.webhooks.deliveries(webhook.id)).items.every((d) => d.status === 'delivered')).toBe(true);
  });

  it('retries a failing receiver on the documented schedule, logs each failure, and gives up after the last attempt', async () => {
    rx.state.status = 500;
    const { webhook } = await main.core.webhooks.create({ url: rx.url, events: ['prompt.created'] }, actor);
    const d = dispatcherOn(main);
    await main.core.prompts.create(prompt('flaky'), actor);
    const start = t;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect((await d.tick()).attempts).toBe(1);
      const [row] = (await main.core.webhooks.deliveries(webhook.id)).items;
      expect(row).toMatchObject({ attempts: attempt, lastStatusCode: 500 });
      expect(row!.lastError).toContain('HTTP 500');
      if (attempt === MAX_ATTEMPTS) {
        expect(row).toMatchObject({ status: 'failed', nextAttemptAt: null });
        expect(row!.lastError).toContain(`gave up after ${MAX_ATTEMPTS} attempts`);
        break;
      }
      const delay = RETRY_SCHEDULE_MS[attempt - 1]!;
      expect(row).toMatchObject({ status: 'pending', nextAttemptAt: new Date(t + delay) });
      advance(delay - 1);
      expect((await d.tick()).attempts).toBe(0); // not due yet
      advance(1);
    }
    expect(rx.requests).toHaveLength(MAX_ATTEMPTS);
    expect(t - start).toBeGreaterThanOrEqual(60 * 60_000); // retried for at least an hour
    // A redelivery starts a fresh schedule and succeeds once the receiver recovers.
    rx.state.status = 204;
    const [failed] = (await main.core.webhooks.deliveries(webhook.id)).items;
    await main.core.webhooks.redeliver(webhook.id, failed!.id);
    expect((await d.tick()).attempts).toBe(1);
    expect((await main.core.webhooks.deliveries(webhook.id)).items[0]).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 204, lastError: null });
    expect(new Set(rx.requests.map((r) => r.headers['x-promptd-delivery'])).size).toBe(1);
  });

  it('a receiver that never answers is a failed attempt after the timeout', async () => {
    rx.state.hang = true;
    const { webhook } = await main.core.webhooks.create({ url: rx.url, events: ['prompt.created'] }, actor);
    await main.core.prompts.create(prompt('hung'), actor);
    await createWebhookDispatcher({ store: main.store, now, allowPrivate: true, timeoutMs: 100 }).tick();
    expect((await main.core.webhooks.deliveries(webhook.id)).items[0]).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null, lastError: 'no response within 0.1 s' });
  });

  // #36.10: sends were batches of 10 due deliveries across all webhooks, awaited together,
  // so three hooks at a host that never answers held every batch for the whole timeout
  // (the healthy hook had 9 of 30 events after 45 s). Each webhook now has its own lane.
  it('a receiver that never answers delays only its own webhooks: a healthy one gets all 30 events while those stay pending', { timeout: 60_000 }, async () => {
    const dead = await startReceiver();
    dead.state.hang = true;
    // The hung sends would end after ten minutes: nothing below waits for them.
    const d = createWebhookDispatcher({ store: main.store, feed: main.core.feed, now, allowPrivate: true, timeoutMs: 600_000, pollMs: 50 });
    try {
      const hung = [];
      for (const i of [1, 2, 3]) hung.push((await main.core.webhooks.create({ url: `${dead.url}?${i}`, events: ['prompt.created'] }, actor)).webhook);
      const { webhook: healthy } = await main.core.webhooks.create({ url: rx.url, events: ['prompt.created'] }, actor);
      d.start();
      const names = Array.from({ length: 30 }, (_, i) => `dead-host-${i}`);
      for (const n of names) await main.core.prompts.create(prompt(n), actor);
      await waitFor(async () => {
        const { items } = await main.core.webhooks.deliveries(healthy.id, { limit: 100 });
        return items.length === 30 && items.every((x) => x.status === 'delivered');
      }, 30_000, 'all 30 deliveries of the healthy webhook');
      expect(rx.requests.map((r) => bodyOf(r).key).sort()).toEqual([...names].sort());
      // Each hung webhook holds its in-flight slots and no more; its deliveries are pending.
      await dead.received(3 * IN_FLIGHT_PER_WEBHOOK);
      expect(dead.requests).toHaveLength(3 * IN_FLIGHT_PER_WEBHOOK);
      for (const h of hung) {
        expect(d.inFlight().get(h.id)).toBe(IN_FLIGHT_PER_WEBHOOK);
        const { items } = await main.core.webhooks.deliveries(h.id, { limit: 100 });
        expect(items).toHaveLength(30);
        expect(items.every((x) => x.status === 'pending' && x.lastError === null)).toBe(true);
        expect(items.filter((x) => x.attempts === 1)).toHaveLength(IN_FLIGHT_PER_WEBHOOK);
      }
    } finally {
      await d.stop();
      await dead.close();
    }
  });

  it('a ping goes to its webhook alone, even past "*" subscribers', async () => {
    const a = await main.core.webhooks.create({ url: `${rx.url}?a`, events: ['*'] }, actor);
    await main.core.webhooks.create({ url: `${rx.url}?b`, events: ['*'] }, actor);
    const d = dispatcherOn(main);
    await d.tick();
    rx.requests.length = 0;
    const delivery = await main.core.webhooks.ping(a.webhook.id, actor);
    expect(delivery).toMatchObject({ event: 'webhook.ping', status: 'pending', attempts: 0 });
    await d.tick();
    expect(rx.requests.map((r) => [r.path, bodyOf(r).event])).toEqual([['/hook?a', 'webhook.ping']]);
  });

  it('an inactive webhook gets nothing, not even later; with nothing active a tick writes nothing', async () => {
    const { webhook } = await main.core.webhooks.create({ url: rx.url, events: ['prompt.created'], active: false }, actor);
    const d = dispatcherOn(main);
    await d.tick();
    const cursor = await main.store.read.webhooks.cursor();
    await main.core.prompts.create(prompt('quiet'), actor);
    await d.tick();
    expect(await main.store.read.webhooks.cursor()).toBe(cursor);
    expect(rx.requests).toHaveLength(0);
    expect((await main.core.webhooks.deliveries(webhook.id)).items).toHaveLength(0);
    await main.core.webhooks.update(webhook.id, { active: true }, actor);
    await main.core.prompts.create(prompt('loud'), actor);
    await d.tick();
    expect(rx.requests.map((r) => bodyOf(r).key)).toEqual(['loud']);
  });

  it('without an active webhook a write wakes nothing (no queries per write); a new webhook hears the next write', async () => {
    let cursorReads = 0;
    const hooks = main.store.read.webhooks;
    const webhooks = new Proxy(hooks, { get: (o, k) => (k === 'cursor' ? () => (cursorReads++, o.cursor()) : Reflect.get(o, k)) });
    // Only the change feed wakes it here: the poll is an hour away.
    const d = createWebhookDispatcher({ store: { ...main.store, read: { ...main.store.read, webhooks } }, feed: main.core.feed, now, allowPrivate: true, pollMs: 3_600_000 });
    d.start();
    try {
      await main.core.prompts.create(prompt('idle-1'), actor);
      await main.core.feed.poke();
      await d.idle();
      const before = cursorReads;
      for (const n of ['idle-2', 'idle-3', 'idle-4']) await main.core.prompts.create(prompt(n), actor);
      await main.core.feed.poke();
      await d.idle();
      expect(cursorReads).toBe(before);
      // Creating a webhook is a webhook event of the change log: writes wake the dispatcher again.
      await main.core.webhooks.create({ url: rx.url, events: ['prompt.created'] }, actor);
      await main.core.prompts.create(prompt('heard'), actor);
      await rx.received(1);
      expect(rx.requests.map((r) => bodyOf(r).key)).toEqual(['heard']);
      expect(cursorReads).toBeGreaterThan(before);
    } finally {
      await d.stop();
    }
  });

  it('after a restart, events committed while no dispatcher ran are delivered, and an abandoned claim is retried after its lease', async () => {
    const { webhook } = await main.core.webhooks.create({ url: rx.url, events: ['prompt.created'] }, actor);
    await dispatcherOn(main).tick();
    // Written while no dispatcher runs (e.g. by the CLI), then the "process" restarts.
    await main.core.prompts.create(prompt('while-down-1'), actor);
    await main.core.prompts.create(prompt('while-down-2'), actor);
    const second = await instance(url);
    try {
      const d = dispatcherOn(second);
      await d.tick();
      expect(rx.requests.map((r) => bodyOf(r).key)).toEqual(['while-down-1', 'while-down-2']);
      // A dispatcher that scanned and claimed a delivery, then died before sending.
      await main.core.prompts.create(prompt('claimed'), actor);
      await main.store.write(async (tx) => {
        const from = (await tx.webhooks.cursor())!;
        const [e] = await tx.events.after(from, 10);
        const [id] = await tx.webhooks.enqueue([{ webhookId: webhook.id, eventId: e!.id }], now());
        await tx.webhooks.setCursor(e!.id);
        expect(await tx.webhooks.claim(id!, 0, now(), new Date(t + LEASE_MS))).toBe(true);
      });
      expect((await d.tick()).attempts).toBe(0);
      advance(LEASE_MS);
      expect((await d.tick()).attempts).toBe(1);
      expect(rx.requests.map((r) => bodyOf(r).key)).toEqual(['while-down-1', 'while-down-2', 'claimed']);
      expect((await second.core.webhooks.deliveries(webhook.id)).items[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    } finally {
      await second.close();
    }
  });

  it('two dispatchers on one database never send the same delivery twice', async () => {
    const other = await instance(url);
    try {
      await main.core.webhooks.create({ url: `${rx.url}?1`, events: ['prompt.created', 'version.created'] }, actor);
      await main.core.webhooks.create({ url: `${rx.url}?2`, events: ['*'] }, actor);
      const a = dispatcherOn(main);
      const b = dispatcherOn(other);
      await a.tick();
      await b.tick();
      rx.requests.length = 0;
      const made = { a: 0, b: 0 };
      const until = async (step: () => Promise<number>) => {
        for (let idle = 0; idle < 3; ) idle = (await step()) ? 0 : idle + 1;
      };
      const tickA = async () => { const r = await a.tick(); made.a += r.attempts; return r.attempts + r.scanned; };
      const tickB = async () => { const r = await b.tick(); made.b += r.attempts; return r.attempts + r.scanned; };
      if (TEST_DB === 'postgres') {
        // Real races: writes through both instances and both dispatchers at once.
        const writes = Promise.all(Array.from({ length: 15 }, (_, i) => (i % 2 ? main : other).core.prompts.create(prompt(`pair-${i}`), actor)));
        await Promise.all([writes, until(tickA), until(tickB)]);
        await Promise.all([until(tickA), until(tickB)]);
      } else {
        // better-sqlite3 waits for another connection's lock synchronously, which would
        // stall this one process; here the two take turns over their own connections.
        for (let i = 0; i < 15; i++) {
          await (i % 2 ? main : other).core.prompts.create(prompt(`pair-${i}`), actor);
          await (i % 3 ? tickA : tickB)();
        }
        await until(async () => (await tickB()) + (await tickA()));
      }
      expect(rx.requests).toHaveLength(30); // 15 prompt.created × 2 webhooks
      const ids = rx.requests.map((r) => r.headers['x-promptd-delivery']);
      expect(new Set(ids).size).toBe(30);
      const pairs = rx.requests.map((r) => `${r.path}:${bodyOf(r).id}`);
      expect(new Set(pairs).size).toBe(30);
      expect(made.a + made.b).toBe(30);
    } finally {
      await other.close();
    }
  });
});
