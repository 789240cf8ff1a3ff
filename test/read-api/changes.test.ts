// GET /v1/changes (paged) and GET /v1/changes/stream (SSE): only entries that move
// what readers are served or rendered, in the reader's shape (no actor, no stored
// details, no resource URIs); paging by `next`; a label move delivered on the stream
// and a resume after Last-Event-ID. Event-driven: each write is awaited, then read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { actor, makeCore } from '../helpers/db.js';
import { textPrompt, TOKEN } from '../helpers/http.js';
import { makeReadClient, problem, sseReader } from './helpers.js';

let core: Core;
let call: ReturnType<typeof makeReadClient>['call'];

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeReadClient(core).call;
});
afterAll(() => core.close());

interface Change { id: number; action: string; kind: string; prompt: string | null; previousName: string | null; labels: string[] | null; version: number | null }
interface ChangePage { items: Change[]; next: number; more: boolean }
const page = async (query: string): Promise<ChangePage> => {
  const res = await call('GET', `/changes${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.json();
};

describe('GET /v1/changes', () => {
  it('pages through what moved, leaving out token events and hiding actors, details and resource URIs', async () => {
    const start = await page('');
    expect(start.items).toEqual([]);
    expect(start.more).toBe(false);

    await core.prompts.create({ ...textPrompt('a'), activate: true } as never, actor);
    await core.tokens.create('not-for-readers');
    await core.prompts.createVersion('a', { ...textPrompt('a', 'v2 {{who}}'), name: undefined } as never, actor);
    await core.labels.set('a', 'staging', 2, actor);
    await core.resources.create({ uri: 'secret://bound-doc', name: 'doc', mimeType: 'text/plain', text: 'x' } as never, actor);
    await core.prompts.update('a', { name: 'b' }, actor);
    await core.prompts.update('b', { archived: true }, actor);
    await core.labels.remove('b', 'staging', actor);
    await core.prompts.update('b', { archived: false }, actor);
    await core.prompts.delete('b', actor);

    const all: Change[] = [];
    let since = start.next;
    for (let pages = 0; ; pages++) {
      expect(pages).toBeLessThan(10);
      const p = await page(`?since=${since}&limit=3`);
      expect(p.items.length).toBeLessThanOrEqual(3);
      all.push(...p.items);
      since = p.next;
      if (!p.more) break;
    }
    expect(all.map((c) => [c.action, c.prompt, c.labels, c.version])).toEqual([
      ['prompt.created', 'a', ['latest'], 1],
      ['prompt.activated', 'a', ['production'], 1],
      ['version.created', 'a', ['latest'], 2],
      ['label.set', 'a', ['staging'], 2],
      ['resource.created', null, null, null],
      ['prompt.renamed', 'b', null, null],
      ['prompt.archived', 'b', null, null],
      // an archived prompt is served nowhere: moving its labels changes nothing served
      ['prompt.unarchived', 'b', null, null],
      ['prompt.deleted', 'b', ['latest', 'production'], null],
    ]);
    expect(all.find((c) => c.action === 'prompt.renamed')?.previousName).toBe('a');
    expect(all.map((c) => c.id)).toEqual([...all.map((c) => c.id)].sort((x, y) => x - y));
    const text = JSON.stringify(all);
    expect(text).not.toMatch(/not-for-readers|secret:\/\/|"actor"|snapshot|"test"/);
    expect(since).toBe(all.at(-1)!.id);
    // Nothing new: the same `next`, no items.
    expect(await page(`?since=${since}`)).toEqual({ items: [], next: since, more: false });
    // since=0 reads the log from the start.
    expect((await page('?since=0&limit=200')).items).toHaveLength(all.length);
  });

  it('400 problem+json for a bad since or limit', async () => {
    expect((await problem(await call('GET', '/changes?since=-1'), 400)).errors?.[0]?.path).toBe('query.since');
    expect((await problem(await call('GET', '/changes?since=0&limit=0'), 400)).errors?.[0]?.path).toBe('query.limit');
    expect((await problem(await call('GET', '/changes?since=0&limit=201'), 400)).errors?.[0]?.path).toBe('query.limit');
  });
});

describe('GET /v1/changes/stream', () => {
  it('delivers a label move as a change event, skips token events, and resumes after Last-Event-ID', async () => {
    await core.prompts.create({ ...textPrompt('live'), activate: true } as never, actor);
    await core.prompts.createVersion('live', { ...textPrompt('live', 'v2 {{who}}'), name: undefined } as never, actor);
    const abort = new AbortController();
    const res = await call('GET', '/changes/stream', undefined, {}, { signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const sse = sseReader(res);
    const ready = await sse.next();
    expect(ready?.event).toBe('ready');
    const from = JSON.parse(ready!.data!).lastEventId as number;

    await core.labels.set('live', 'production', 2, actor);
    const moved = await sse.next();
    expect(moved?.event).toBe('change');
    const change = JSON.parse(moved!.data!);
    expect(change).toEqual({ id: Number(moved!.id), at: expect.any(String), action: 'label.set', kind: 'prompt', prompt: 'live', previousName: null, labels: ['production'], version: 2 });
    expect(change.id).toBeGreaterThan(from);

    await core.tokens.create('hidden');
    await core.labels.set('live', 'canary', 1, actor);
    const next = JSON.parse((await sse.next())!.data!);
    expect(next).toMatchObject({ action: 'label.set', labels: ['canary'], version: 1 });
    abort.abort();
    await sse.cancel().catch(() => {});

    const resumed = await call('GET', '/changes/stream', undefined, { 'last-event-id': String(from) });
    const again = sseReader(resumed);
    expect((await again.next())?.event).toBe('ready');
    const replayed = [JSON.parse((await again.next())!.data!), JSON.parse((await again.next())!.data!)];
    expect(replayed.map((c) => [c.id, c.labels])).toEqual([[change.id, ['production']], [next.id, ['canary']]]);
    await again.cancel();
  });

  it('announces a change only once the served catalog has it: a refetch on the event gets the new version', async () => {
    // A core of its own, whose catalog follows nothing yet: the stream subscribes to the
    // change log before any definition is read.
    const own = await makeCore({ adminToken: TOKEN });
    try {
      await own.prompts.create({ ...textPrompt('race'), activate: true } as never, actor);
      await own.prompts.createVersion('race', { ...textPrompt('race', 'v2 {{who}}'), name: undefined } as never, actor);
      const fresh = makeReadClient(own);
      const sse = sseReader(await fresh.call('GET', '/changes/stream'));
      expect((await sse.next())?.event).toBe('ready');
      expect(await (await fresh.call('GET', '/prompts/race')).json()).toMatchObject({ version: 1 });
      // Not awaited: the reader acts on the event alone, as an application would.
      const moving = own.labels.set('race', 'production', 2, actor);
      const frame = await sse.next();
      expect(JSON.parse(frame!.data!)).toMatchObject({ prompt: 'race', labels: ['production'], version: 2 });
      expect(await (await fresh.call('GET', '/prompts/race')).json()).toMatchObject({ version: 2 });
      await moving;
      await sse.cancel();
    } finally {
      await own.close();
    }
  });

  it("revoking a token ends its open streams at once", async () => {
    const { token, info } = await core.tokens.create('reader');
    const res = await call('GET', '/changes/stream', undefined, { authorization: `Bearer ${token}` });
    const sse = sseReader(res);
    expect((await sse.next())?.event).toBe('ready');
    await core.tokens.revoke(String(info.id));
    // The token service does not poke the feed (revocations come from the CLI, another
    // process, which the feed's poll notices): deliver the log now.
    await core.feed.poke();
    expect(await sse.next()).toBeNull();
  });

  it('is capped per token (429 problem+json)', async () => {
    const capped = makeReadClient(core, { events: { perToken: 1, total: 5 } });
    const first = await capped.call('GET', '/changes/stream');
    const sse = sseReader(first);
    expect((await sse.next())?.event).toBe('ready');
    const second = await capped.call('GET', '/changes/stream');
    expect((await problem(second, 429)).detail).toMatch(/already holds 1 event streams/);
    await sse.cancel();
  });
});
