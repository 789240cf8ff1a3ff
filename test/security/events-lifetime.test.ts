// Issue 25.5: /admin/v1/events streams get a heartbeat comment every 25 s and end
// after a maximum lifetime (the UI reconnects with a fresh ticket). Fake timers;
// in a file of its own so that no other server's timers share the fake clock.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import type { Core } from '../../src/core/index.js';
import { coreOn, tempDbUrl } from '../helpers/db.js';
import { sseReader } from '../helpers/sse-reader.js';

const ADMIN = 'events-lifetime-admin';
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
let core: Core;

beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  // The change feed must not poll: faked, its 25 ms poll would run a query per step
  // of the simulated hour.
  core = await coreOn(url, { adminToken: ADMIN, pollMs: 24 * 3600_000 });
}, 120_000);
afterAll(async () => {
  vi.useRealTimers();
  await core?.close();
});


it('a heartbeat comment every 25 s, and the server ends the stream after its lifetime (fake timers)', async () => {
  const app = createApp({ core, events: { maxLifetimeMs: 60 * 60_000 } });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  try {
    const res = await app.request('/admin/v1/events', { headers: bearer(ADMIN) });
    expect(res.status).toBe(200);
    const r = sseReader(res);
    expect(await r.until(/event: ready[^\n]*\n[^\n]*\n\n/)).not.toBeNull();
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(25_000);
      expect(await r.until(/: keep-alive\n\n/), `heartbeat ${i + 1}`).not.toBeNull();
    }
    // A minute before the end it is still open...
    await vi.advanceTimersByTimeAsync(60 * 60_000 - 3 * 25_000 - 60_000);
    expect(await r.until(/: keep-alive\n\n/)).not.toBeNull();
    // ...and after the hour the server ends it.
    await vi.advanceTimersByTimeAsync(60_000);
    await r.rest(); // resolves only because the server ended the stream
  } finally {
    vi.useRealTimers();
  }
});
