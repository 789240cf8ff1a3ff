// Usage recording against hostile clients (issue 36, items 1 and 2): requested names are
// never stored, every recorded string is clean and bounded, one client's share of the
// counters per flush is bounded, the CSV defuses formulas and control characters, and
// a row the database refuses neither blocks the others nor stays forever. On both
// databases (NUL is what PostgreSQL refuses).
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import { connectMcpServer, createMcpServer } from '../../src/mcp/server.js';
import { coreOn, tempDbUrl, TEST_DB, type TestCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';
import { MAX_ROW_FAILURES, OVERFLOW } from '../../src/core/usage/recorder.js';
import { csvCell } from '../../src/core/usage/report.js';
import type { UsageHit } from '../../src/core/usage/types.js';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');
const cores: TestCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

async function setup(usage: { maxCellsPerClient?: number } = {}) {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  const errors: unknown[] = [];
  const core = await coreOn(url, { poolMax: 2, adminToken: TOKEN, now: () => new Date(T0), usage: { flushMs: 0, instance: 'h', ...usage }, onError: (e) => errors.push(e) });
  cores.push(core);
  const http = makeClient(core);
  expect((await http.call('POST', '/prompts', { ...textPrompt('greet'), tags: ['team-a'], activate: true })).status).toBe(201);
  return { core, http, errors };
}

async function session(core: TestCore, info: { name: string; version: string }, auth?: Parameters<typeof createMcpServer>[0]['auth']) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ core, transport: 'http', log: () => {}, auth });
  const client = new Client(info);
  await connectMcpServer(server, serverSide, core);
  await client.connect(clientSide);
  return client;
}

const rows = (c: TestCore) => c.db.prisma.usageBucket.findMany({ orderBy: { id: 'asc' } });
const hit = (over: Partial<UsageHit> = {}): UsageHit => ({
  prompt: 'greet', version: 1, label: 'production', client: 'c', clientVersion: '', token: null, transport: 'http', outcome: 'ok', latencyMs: 1, ...over,
});

describe('usage against hostile clients', () => {
  it('never stores a requested name: huge, NUL and ESC names count as (unknown), with the tag-scoped token as client', async () => {
    const { core, http } = await setup();
    const scoped = await session(core, { name: 'x', version: '1' }, { tokenName: 'team-a-token', tokenId: 1, scope: { label: 'production', tags: ['team-a'] } });
    const huge = '=cmd|' + 'x'.repeat(1_000_000);
    for (let i = 0; i < 25; i++) await expect(scoped.getPrompt({ name: huge })).rejects.toThrow();
    await expect(scoped.getPrompt({ name: 'nul\u0000x' })).rejects.toThrow();
    await expect(scoped.getPrompt({ name: '\u001b[31mred \u001b]8;;http://x\u0007' })).rejects.toThrow();
    await scoped.getPrompt({ name: 'greet', arguments: { who: 'a' } });
    await scoped.close();
    await core.usage.flush(); // on PostgreSQL a NUL here failed every flush (22021)
    const stored = await rows(core);
    expect(stored.map((r) => [r.prompt, r.version, r.client, r.outcome, r.fetches])).toEqual([
      ['(unknown)', 0, 'team-a-token', 'not_found', 27],
      ['greet', 1, 'team-a-token', 'ok', 1],
    ]);
    const body = await (await http.call('GET', '/usage?bucket=minute&from=' + new Date(T0 - 60_000).toISOString())).text();
    expect(body.length).toBeLessThan(4_000);
  });

  it('cleans and cuts clientInfo and request text before it is counted', async () => {
    const { core } = await setup();
    const c = await session(core, { name: ' \u0000evil\u001b[2J' + 'n'.repeat(100_000), version: '1.0\u0000' + 'v'.repeat(100_000) });
    await c.getPrompt({ name: 'greet', arguments: { who: 'a' } });
    await c.close();
    core.usage.record(hit({ client: 'ua\u0000\u001b', label: 'l'.repeat(10_000), token: 't\u0000'.repeat(10_000), prompt: 'p\u0000'.repeat(10_000) }));
    await core.usage.flush();
    const stored = await rows(core);
    expect(stored).toHaveLength(2);
    for (const r of stored) {
      for (const s of [r.prompt, r.client, r.clientVersion, r.label, r.token]) {
        expect(s).not.toMatch(/\p{C}/u);
        expect(s.length).toBeLessThanOrEqual(200);
      }
    }
    expect(stored[0]!.client).toBe('evil[2J' + 'n'.repeat(193));
    expect(stored[0]!.clientVersion).toBe('1.0' + 'v'.repeat(61));
    expect(stored[1]!.client).toBe('ua');
    expect(stored[1]!.label).toHaveLength(64);
  });

  it('bounds the counters one client adds per flush; the others keep theirs', async () => {
    const { core } = await setup({ maxCellsPerClient: 10 });
    for (let i = 0; i < 30; i++) core.usage.record(hit({ client: 'greedy', prompt: `p${i}` }));
    for (let i = 0; i < 5; i++) core.usage.record(hit({ client: 'polite', prompt: `p${i}` }));
    await core.usage.flush();
    const stored = await rows(core);
    expect(stored.filter((r) => r.client === 'greedy' && r.prompt !== OVERFLOW)).toHaveLength(10);
    expect(stored.filter((r) => r.client === 'greedy' && r.prompt === OVERFLOW).map((r) => r.fetches)).toEqual([20]);
    expect(stored.filter((r) => r.client === 'polite')).toHaveLength(5);
    // The next flush gives the client its share again.
    core.usage.record(hit({ client: 'greedy', prompt: 'p99' }));
    await core.usage.flush();
    expect((await rows(core)).at(-1)).toMatchObject({ client: 'greedy', prompt: 'p99' });
  });

  it('CSV cells defuse formulas after leading whitespace and lose control characters', async () => {
    const { core } = await setup();
    // Rows as recorded before recording cleaned its text (SQLite took NUL-free ESC too).
    const legacy = { instance: 'old', grain: 'minute', start: new Date(T0), promptId: null, version: 0, label: '', token: '', transport: 'read-api', outcome: 'ok', fetches: 1, latencyMs: 1, lastAt: new Date(T0) };
    await core.db.prisma.usageBucket.createMany({
      data: [
        { ...legacy, prompt: '(unknown)', client: ' =3+3' },
        { ...legacy, prompt: '(unknown)', client: '\u001b[31m=HYPERLINK("http://x")' },
        { ...legacy, prompt: '(unknown)', client: '\t@SUM(1)' },
      ],
    });
    const csv = await core.usage.csv({ bucket: 'minute', from: new Date(T0 - 60_000) });
    expect(csv).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
    const clients = csv.trimEnd().split('\r\n').slice(1).map((l) => l.split(',')[4]);
    // ESC removed (what is left of its sequence is text); the quote keeps " =3+3" text.
    expect(clients.sort()).toEqual([`"[31m=HYPERLINK(""http://x"")"`, `' =3+3`, `'@SUM(1)`].sort());
    expect(csvCell('-2+3')).toBe(`'-2+3`);
    expect(csvCell('\u00a0+1')).toBe(`'\u00a0+1`);
    expect(csvCell('plain name')).toBe('plain name');
  });

  it('a row the database refuses is written apart from the others, kept, then dropped with one log line', async () => {
    const { core, errors } = await setup();
    // The database refuses this one client's rows (a constraint of the test's own).
    if (TEST_DB === 'postgres') await core.db.prisma.$executeRawUnsafe(`ALTER TABLE "UsageBucket" ADD CONSTRAINT "refuse_poison" CHECK ("client" <> 'poison')`);
    else await core.db.prisma.$executeRawUnsafe(`CREATE TRIGGER "refuse_poison" BEFORE INSERT ON "UsageBucket" WHEN NEW."client" = 'poison' BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    for (let flush = 1; flush <= MAX_ROW_FAILURES; flush++) {
      core.usage.record(hit({ client: 'poison' }));
      for (let i = 0; i < 7; i++) core.usage.record(hit({ client: `good-${i}` }));
      if (flush < MAX_ROW_FAILURES) await expect(core.usage.flush()).rejects.toThrow();
      else await core.usage.flush();
      // The good rows of each flush are written all the same.
      const stored = await rows(core);
      expect(stored).toHaveLength(7 * flush);
      expect(stored.every((r) => r.client.startsWith('good-'))).toBe(true);
      // The refused row is still counted in this process's answers until it is dropped.
      const pending = (await core.usage.report({ client: 'poison', from: new Date(T0 - 60_000) })).totals.fetches;
      expect(pending).toBe(flush < MAX_ROW_FAILURES ? flush : 0);
    }
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toMatch(/usage: dropped 3 fetches of "greet" by "poison" that the database refused 3 times/);
    // Nothing is left to retry: the next flush writes only new counts.
    core.usage.record(hit({ client: 'after' }));
    await core.usage.flush();
    expect((await rows(core)).at(-1)).toMatchObject({ client: 'after', fetches: 1 });
  });

  it('a NUL given straight to a session counter (a served name never has one) costs that row only', async () => {
    const { core, errors } = await setup();
    const count = core.usage.counter({ label: 'production', client: 'c', clientVersion: '', token: null, transport: 'http' });
    count('nul\u0000x', 1, 1);
    count('greet', 1, 1);
    for (let i = 0; i < MAX_ROW_FAILURES; i++) await core.usage.flush().catch(() => {});
    const stored = await rows(core);
    expect(stored.some((r) => r.prompt === 'greet')).toBe(true);
    // PostgreSQL refuses the NUL row (22021) and drops it after 3 flushes; SQLite stores it.
    if (TEST_DB === 'postgres') {
      expect(stored.map((r) => r.prompt)).toEqual(['greet']);
      expect(errors).toHaveLength(1);
    } else expect(stored).toHaveLength(2);
  });
});
