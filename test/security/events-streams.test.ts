// Issues 23.6, 24.3, 25.5 on /admin/v1/events:
// - the stream opens with a single-use ticket (POST /admin/v1/events/ticket), never a
//   token in the URL; `?access_token=` used to work on any path ending in /events with
//   any method (DELETE /admin/v1/prompts/events?access_token=… deleted a prompt);
// - revoking a token closes its open streams at once, on every instance (through the
//   change log every instance follows);
// - streams are capped per token and in total (429), with a heartbeat and a maximum
//   lifetime (timing, with fake timers, in events-lifetime.test.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { createTicketStore } from '../../src/rest/events/stream-tickets.js';
import { loadConfig } from '../../src/config.js';
import { CreatePromptInputSchema } from '../../src/core/schemas.js';
import { tempDbUrl } from '../helpers/db.js';
import { textPrompt } from '../helpers/http.js';
import { sseReader } from '../helpers/sse-reader.js';

const ADMIN = 'events-admin-token';
let a: RunningServer;
let b: RunningServer;

beforeAll(async () => {
  const databaseUrl = await tempDbUrl();
  const opts = { databaseUrl, port: 0, seed: false, adminToken: ADMIN, events: { perToken: 2, total: 3 }, logger: createLogger('silent') };
  a = await startServer(opts);
  b = await startServer(opts);
}, 120_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const ticketFor = async (srv: RunningServer, token: string) => {
  const res = await fetch(`${srv.url}/admin/v1/events/ticket`, { method: 'POST', headers: bearer(token) });
  expect(res.status).toBe(200);
  return (await res.json()) as { ticket: string; expiresAt: string };
};


const openStream = async (srv: RunningServer, token: string) => {
  const { ticket } = await ticketFor(srv, token);
  const res = await fetch(`${srv.url}/admin/v1/events?ticket=${encodeURIComponent(ticket)}`);
  return res;
};

describe('stream tickets instead of tokens in URLs', () => {
  it('a ticket opens GET /admin/v1/events once; no token or ticket in a URL works anywhere else', async () => {
    const { ticket, expiresAt } = await ticketFor(a, ADMIN);
    expect(ticket).toMatch(/^st_[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(30_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    const res = await fetch(`${a.url}/admin/v1/events?ticket=${ticket}`);
    expect(res.status).toBe(200);
    const r = sseReader(res);
    expect(await r.until(/event: ready/)).not.toBeNull();
    await r.cancel();
    const again = await fetch(`${a.url}/admin/v1/events?ticket=${ticket}`);
    expect(again.status).toBe(401);
    expect((await again.json()).detail).toContain('ticket');

    // The report's request: a prompt named "events", deleted with the token in the URL.
    await a.core.prompts.create(CreatePromptInputSchema.parse(textPrompt('events')), { name: 'test' });
    const del = await fetch(`${a.url}/admin/v1/prompts/events?access_token=${ADMIN}`, { method: 'DELETE' });
    expect(del.status).toBe(401);
    const fresh = await ticketFor(a, ADMIN);
    expect((await fetch(`${a.url}/admin/v1/prompts/events?ticket=${fresh.ticket}`, { method: 'DELETE' })).status).toBe(401);
    expect((await fetch(`${a.url}/admin/v1/prompts/events?ticket=${fresh.ticket}`)).status).toBe(401);
    expect((await fetch(`${a.url}/admin/v1/prompts/events`, { headers: bearer(ADMIN) })).status).toBe(200);
    // Only GET /events takes a ticket (a HEAD or POST with one is unauthenticated).
    expect((await fetch(`${a.url}/admin/v1/events/ticket?ticket=${fresh.ticket}`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${a.url}/admin/v1/events?access_token=${ADMIN}`)).status).toBe(401);
    // A ticket is per instance: b never issued this one.
    expect((await fetch(`${b.url}/admin/v1/events?ticket=${fresh.ticket}`)).status).toBe(401);
  });

  it('a ticket expires after 60 s and is single-use (injected clock)', () => {
    let now = 0;
    const store = createTicketStore({ now: () => now });
    const principal = { actor: 'admin', tokenId: null };
    const t1 = store.issue(principal);
    const t2 = store.issue(principal);
    expect(t1.expiresAt.getTime()).toBe(60_000);
    now = 59_999;
    expect(store.redeem(t1.ticket)).toEqual(principal);
    expect(store.redeem(t1.ticket)).toBeNull();
    now = 60_000;
    expect(store.redeem(t2.ticket)).toBeNull();
    store.issue(principal);
    now = 120_000;
    store.issue(principal);
    expect(store.size()).toBe(1); // expired ones are pruned
  });
});

describe('revocation closes open streams, on every instance', () => {
  it('revoking a token ends its streams on this and the other instance at once, and its unused tickets', async () => {
    const { token, info } = await a.core.tokens.create('stream-holder');
    const onA = sseReader(await openStream(a, token));
    const onB = sseReader(await openStream(b, token));
    expect(await onA.until(/event: ready/)).not.toBeNull();
    expect(await onB.until(/event: ready/)).not.toBeNull();
    const spare = await ticketFor(b, token);
    await a.core.tokens.revoke(String(info.id), 'test');
    // Before the fix both streams kept going (and received prompt.created after token.revoked).
    await a.core.prompts.create(CreatePromptInputSchema.parse(textPrompt('after-revoke')), { name: 'test' });
    const [restA, restB] = await Promise.all([onA.rest(), onB.rest()]);
    expect(restA).not.toContain('after-revoke');
    expect(restB).not.toContain('after-revoke');
    expect((await fetch(`${b.url}/admin/v1/events?ticket=${spare.ticket}`)).status).toBe(401);
  });
});

describe('caps, heartbeat and lifetime', () => {
  it('at most perToken streams per token and total on the instance; over either, 429 problem+json', async () => {
    const t1 = (await a.core.tokens.create('cap-1')).token;
    const t2 = (await a.core.tokens.create('cap-2')).token;
    const open: ReturnType<typeof sseReader>[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const res = await openStream(a, t1);
        expect(res.status).toBe(200);
        open.push(sseReader(res));
      }
      const third = await openStream(a, t1);
      expect(third.status).toBe(429);
      expect(third.headers.get('content-type')).toContain('application/problem+json');
      expect(third.headers.get('retry-after')).toBe('30');
      expect((await third.json()).detail).toContain('2 event streams');
      const other = await openStream(a, t2);
      expect(other.status).toBe(200);
      open.push(sseReader(other));
      const full = await openStream(a, t2);
      expect(full.status).toBe(429);
      expect((await full.json()).detail).toContain('3 event streams');
      // Closing one frees its slot.
      await open.shift()!.cancel();
      await vi.waitFor(async () => {
        const res = await openStream(a, t1);
        expect(res.status).toBe(200);
        open.push(sseReader(res));
      });
    } finally {
      await Promise.all(open.map((r) => r.cancel()));
    }
  });

  it('the limits come from PROMPTD_EVENTS_STREAMS_PER_TOKEN, PROMPTD_EVENTS_STREAMS_MAX and PROMPTD_EVENTS_STREAM_LIFETIME (seconds)', () => {
    expect(loadConfig({ PROMPTD_EVENTS_STREAMS_PER_TOKEN: '3', PROMPTD_EVENTS_STREAMS_MAX: '40', PROMPTD_EVENTS_STREAM_LIFETIME: '600' }).events).toEqual({ perToken: 3, total: 40, maxLifetimeMs: 600_000 });
  });
});
