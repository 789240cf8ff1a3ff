// The admin UI's live stream (issues 24.3, 25.5): it opens /admin/v1/events with a
// single-use ticket, never the token in the URL, and when the server ends the stream
// at its maximum lifetime the UI reconnects with a fresh ticket, resuming after the
// last event, and keeps showing changes live.
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, rest, signIn, until } from './harness.js';
import { skipE2E, useE2E } from './suite.js';

describe.skipIf(skipE2E)('admin UI live stream (headless Chromium)', () => {
  const { setup } = useE2E();

  it('uses a fresh ticket per connection and reconnects transparently after the stream lifetime', async () => {
    // A short lifetime so the server ends the stream during the test.
    const { server, page, errors } = await setup(1280, 900, { events: { maxLifetimeMs: 1_500 } });
    const streams: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname === '/admin/v1/events') streams.push(r.url());
    });
    await signIn(page, server.url);
    await until(() => streams.length >= 3, 'two reconnects after the stream lifetime', 20_000);
    const tickets = streams.map((u) => new URL(u).searchParams.get('ticket'));
    expect(tickets.every((t) => t?.startsWith('st_'))).toBe(true);
    expect(new Set(tickets).size).toBe(tickets.length);
    expect(streams.some((u) => u.includes(ADMIN_TOKEN) || u.includes('access_token'))).toBe(false);
    expect(new URL(streams[1]!).searchParams.get('lastEventId')).toMatch(/^\d+$/);

    // Still live after the reconnects.
    await page.locator('[data-testid="live-status"][data-status="open"]').waitFor();
    await rest(server.url, 'POST', '/prompts', { name: 'after-reconnect', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] });
    await page.locator('[data-testid="prompt-row"][data-name="after-reconnect"]').waitFor({ timeout: 10_000 });
    expect(errors).toEqual([]);
  });
});
