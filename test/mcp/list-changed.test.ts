// notifications/prompts/list_changed: coalesced bursts, silence for drafts, and
// delivery across cores on the same database (what another process looks like).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { coalesce } from '../../src/mcp/notifier.js';
import { connect, countListChanged, createPrompt, createVersion, newCore, sleep, tempDbUrl, textPrompt, until } from './helpers.js';

// Fake timers: the coalescing windows are exact and independent of machine load.
const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

describe('coalesce', () => {
  afterEach(() => vi.useRealTimers());

  it('fires on the leading edge, then at most once per window, and always after the last call', () => {
    fakeTimers();
    let calls = 0;
    const fire = coalesce(() => void calls++, 50);
    fire();
    expect(calls).toBe(1);
    for (let i = 0; i < 100; i++) fire();
    expect(calls).toBe(1);
    vi.advanceTimersByTime(49);
    expect(calls).toBe(1);
    vi.advanceTimersByTime(1);
    expect(calls).toBe(2); // the trailing call, one window after the leading one
    vi.advanceTimersByTime(1_000);
    expect(calls).toBe(2); // quiet: nothing more
    fire();
    expect(calls).toBe(3); // the window has reset: leading edge again
  });

  it('widens the window during a sustained burst, up to ten times, and resets after a quiet window', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const start = Date.now();
    const at: number[] = [];
    const fire = coalesce(() => void at.push(Date.now() - start), 100);
    for (let t = 0; t < 5_000; t += 10) {
      fire();
      vi.advanceTimersByTime(10);
    }
    // leading, then windows of 100, 200, 400, 800, then 1000 (the cap)
    expect(at).toEqual([0, 100, 300, 700, 1_500, 2_500, 3_500, 4_500]);
    vi.advanceTimersByTime(3_000);
    expect(at.slice(8)).toEqual([5_500]); // the calls after 4,500 announced once
    fire();
    expect(at.slice(9)).toEqual([8_000]); // quiet since 6,500: leading edge again
  });
});

describe('list_changed', () => {
  let url: string;
  let core: Core;
  let other: Core;
  let a: Awaited<ReturnType<typeof connect>>;
  let b: Awaited<ReturnType<typeof connect>>;

  beforeAll(async () => {
    url = tempDbUrl();
    core = await newCore({ url });
    other = await newCore({ url });
    await createPrompt(core, textPrompt('seed'));
    a = await connect(core);
    b = await connect(core);
    await a.client.listPrompts({});
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await core?.close();
    await other?.close();
  });

  /** Resolves once every notification sent to `client` before now has arrived: a request's answer follows them. */
  const barrier = (x: Awaited<ReturnType<typeof connect>>) => x.client.ping();

  it('300 activating writes in a burst give at least one and far fewer than 300 notifications, to every session', async () => {
    const ca = countListChanged(a.client);
    const cb = countListChanged(b.client);
    fakeTimers();
    try {
      // 300 writes, 25 ms apart on the fake clock: a 7.5 s burst.
      for (let i = 0; i < 300; i++) {
        await createPrompt(core, textPrompt(`burst-${String(i).padStart(3, '0')}`));
        vi.advanceTimersByTime(25);
      }
      // Past the widest window: the trailing notification goes out, the window resets.
      vi.advanceTimersByTime(10_000);
      await barrier(a);
      await barrier(b);
    } finally {
      vi.useRealTimers();
    }
    const n = ca.count();
    expect(n).toBeGreaterThanOrEqual(2); // the leading edge and the trailing one after the last write
    // At most one per 200 ms window (windows widen during a burst), plus the leading edge.
    expect(n).toBeLessThanOrEqual(Math.ceil(7_500 / 200) + 2);
    expect(n).toBeLessThan(30);
    expect(cb.count()).toBe(n);
    // The last notification came after the last write: listing now shows all of them.
    let total = 0;
    let cursor: string | undefined;
    do {
      const page = await a.client.listPrompts(cursor ? { cursor } : {});
      total += page.prompts.length;
      cursor = page.nextCursor;
    } while (cursor);
    expect(total).toBe(301);
  }, 120_000);

  it('a draft version sends nothing; activating it does', async () => {
    // The burst test left every coalescing window closed (fake clock), so a
    // notification here would be a leading edge, sent at once.
    const c = countListChanged(a.client);
    await createVersion(core, 'seed', { arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Draft {{who}}' } }] });
    await createPrompt(core, textPrompt('draft-only', 'x', { activate: false }));
    await barrier(a);
    expect(c.count()).toBe(0);
    expect((await a.client.getPrompt({ name: 'seed', arguments: { who: 'A' } })).messages[0]!.content).toEqual({ type: 'text', text: 'Hello A' });

    await core.prompts.activate('seed', 2, { name: 't' });
    await c.waitFor(1);
    expect((await a.client.getPrompt({ name: 'seed', arguments: { who: 'A' } })).messages[0]!.content).toEqual({ type: 'text', text: 'Draft A' });
  });

  it('rename, archive, deactivate and delete each reach sessions', async () => {
    const c = countListChanged(a.client);
    const steps: Array<() => Promise<unknown>> = [
      () => core.prompts.update('seed', { name: 'seed2' }, { name: 't' }),
      () => core.prompts.update('seed2', { archived: true }, { name: 't' }),
      () => core.prompts.update('seed2', { archived: false }, { name: 't' }),
      () => core.prompts.deactivate('seed2', { name: 't' }),
      () => core.prompts.delete('burst-000', { name: 't' }),
    ];
    for (const [i, step] of steps.entries()) {
      await sleep(250);
      await step();
      await c.waitFor(i + 1);
    }
  });

  it('a write made by another core on the same database reaches sessions here (change-log polling)', async () => {
    // A core of its own: the burst test above ran `core`'s change-marker poll on the
    // fake clock, and a poll tick that completes before the clock is real again
    // schedules its successor there, where it never fires (SQLite reads the marker
    // synchronously on the writer connection now, so that is every time).
    const here = await newCore({ url });
    const s = await connect(here);
    try {
      await s.client.listPrompts({});
      const c = countListChanged(s.client);
      await createPrompt(other, textPrompt('from-elsewhere', 'Elsewhere {{who}}'));
      await c.waitFor(1);
      await until(() => here.catalog.find('from-elsewhere') !== undefined, 2_000, 'catalog reload');
      expect((await s.client.getPrompt({ name: 'from-elsewhere', arguments: { who: 'B' } })).messages[0]!.content).toEqual({ type: 'text', text: 'Elsewhere B' });
    } finally {
      await s.close();
      await here.close();
    }
  });
});
