// notifications/prompts/list_changed: coalesced bursts, silence for drafts, and
// delivery across cores on the same database (what another process looks like).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { coalesce } from '../../src/mcp/notifier.js';
import { connect, countListChanged, createPrompt, createVersion, newCore, sleep, tempDbUrl, textPrompt, until } from './helpers.js';

describe('coalesce', () => {
  it('fires on the leading edge, then at most once per window, and always after the last call', async () => {
    let calls = 0;
    const fire = coalesce(() => void calls++, 50);
    fire();
    expect(calls).toBe(1);
    for (let i = 0; i < 100; i++) fire();
    expect(calls).toBe(1);
    await sleep(80);
    expect(calls).toBe(2);
    await sleep(80);
    expect(calls).toBe(2);
    fire();
    expect(calls).toBe(3);
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

  it('300 activating writes in a burst give at least one and far fewer than 300 notifications, to every session', async () => {
    const ca = countListChanged(a.client);
    const cb = countListChanged(b.client);
    const started = Date.now();
    for (let i = 0; i < 300; i++) {
      await createPrompt(core, textPrompt(`burst-${String(i).padStart(3, '0')}`));
      // Yield to the event loop as separate HTTP requests would: the coalescing
      // timers get to run mid-burst (SQLite writes alone never leave microtasks).
      await new Promise((r) => setImmediate(r));
    }
    const elapsed = Date.now() - started;
    // Let the trailing notification out: quiet for longer than the widest window.
    for (let n = -1; n !== ca.count(); ) {
      n = ca.count();
      await sleep(2_200);
    }
    console.log(`burst: ${ca.count()} notifications over ${elapsed} ms`);
    expect(ca.count()).toBeGreaterThanOrEqual(1);
    // At most one per 200 ms window (windows widen during a burst), plus the leading edge.
    expect(ca.count()).toBeLessThanOrEqual(Math.ceil(elapsed / 200) + 2);
    expect(ca.count()).toBeLessThan(30);
    expect(cb.count()).toBe(ca.count());
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
    await sleep(300); // outside any coalescing window
    const c = countListChanged(a.client);
    await createVersion(core, 'seed', { arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Draft {{who}}' } }] });
    await createPrompt(core, textPrompt('draft-only', 'x', { activate: false }));
    await sleep(500);
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
    await sleep(250);
    const c = countListChanged(a.client);
    await createPrompt(other, textPrompt('from-elsewhere', 'Elsewhere {{who}}'));
    await c.waitFor(1);
    await until(() => core.catalog.find('from-elsewhere') !== undefined, 2_000, 'catalog reload');
    expect((await a.client.getPrompt({ name: 'from-elsewhere', arguments: { who: 'B' } })).messages[0]!.content).toEqual({ type: 'text', text: 'Elsewhere B' });
  });
});
