// Usage recorded from real MCP clients (the SDK's Client, two clientInfo names), the
// read API and admin renders, then answered by the admin API: exact counts per
// version, label, client and outcome; the CSV mirrors the JSON; the prompt list sorts
// by last use. Flushes are explicit and the clock is injected: no timers, no sleeps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import { connectMcpServer, createMcpServer } from '../../src/mcp/server.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';
import { UsageReportSchema, PromptUsageSchema } from '../../src/rest/usage/usage.routes.js';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');
let clock = T0;
let core: TestCore;
let http: ReturnType<typeof makeClient>;

async function mcpClient(name: string, version: string, label?: string) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ core, label, transport: 'http', log: () => {} });
  const client = new Client({ name, version });
  await connectMcpServer(server, serverSide, core);
  await client.connect(clientSide);
  return client;
}

const json = async <T>(path: string): Promise<T> => {
  const res = await http.call('GET', path);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
};
type Report = ReturnType<typeof UsageReportSchema.parse>;

beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { poolMax: 4, adminToken: TOKEN, now: () => new Date(clock), usage: { flushMs: 0, instance: 'test-a' } });
  http = makeClient(core);
  await http.call('POST', '/prompts', { ...textPrompt('greet'), activate: true });
  const { name: _n, ...v2 } = textPrompt('greet', 'Hi {{who}}');
  await http.call('POST', '/prompts/greet/versions', v2);
  await http.call('PUT', '/prompts/greet/labels/staging', { version: 2 });
  await http.call('POST', '/prompts', { ...textPrompt('other'), activate: true });
  await http.call('POST', '/prompts', { ...textPrompt('never'), activate: true });

  const desktop = await mcpClient('claude-desktop', '1.2.0');
  const cursor = await mcpClient('cursor', '0.42', 'staging');
  for (let i = 0; i < 3; i++) await desktop.getPrompt({ name: 'greet', arguments: { who: 'a' } });
  await expect(desktop.getPrompt({ name: 'greet', arguments: {} })).rejects.toThrow();
  await expect(desktop.getPrompt({ name: 'nope', arguments: {} })).rejects.toThrow();
  clock += 60_000; // the next minute
  for (let i = 0; i < 2; i++) await cursor.getPrompt({ name: 'greet', arguments: { who: 'b' } });
  const tool = await cursor.callTool({ name: 'get_prompt', arguments: { name: 'greet', arguments: { who: 'c' } } });
  expect(tool.isError).toBeFalsy();
  const bad = await cursor.callTool({ name: 'get_prompt', arguments: { name: 'greet', arguments: { who: 1 } } });
  expect(bad.isError).toBe(true);
  clock += 60_000;
  await core.usage.flush();
  // Fetched later by a read API client (token "reader"); recorded, not yet flushed.
  clock += 60_000;
  const { token } = (await (await http.call('POST', '/tokens', { name: 'reader' })).json()) as { token: string };
  const res = await http.app.request('/v1/prompts/other', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  await desktop.close();
  await cursor.close();
});
afterAll(() => core.close());

describe('GET /admin/v1/usage', () => {
  it('counts every fetch exactly per prompt, version, label, client and outcome', async () => {
    const r = UsageReportSchema.parse(await json<Report>(`/usage?from=${new Date(T0 - 60_000).toISOString()}&bucket=minute`));
    expect(r.bucket).toBe('minute');
    expect(r.totals.fetches).toBe(10);
    expect(r.totals.errors).toBe(3);
    expect(r.totals.byPrompt).toEqual([
      { prompt: 'greet', fetches: 8, errors: 2 },
      { prompt: '(unknown)', fetches: 1, errors: 1 },
      { prompt: 'other', fetches: 1, errors: 0 },
    ]);
    expect(r.totals.byVersion).toEqual([
      { prompt: 'greet', version: 1, fetches: 4 },
      { prompt: 'greet', version: 2, fetches: 4 },
      { prompt: 'other', version: 1, fetches: 1 },
    ]);
    expect(r.totals.byLabel).toEqual([{ label: 'production', fetches: 6 }, { label: 'staging', fetches: 4 }]);
    expect(r.totals.byClient).toEqual([
      { client: 'claude-desktop', fetches: 5, errors: 2, versions: [{ clientVersion: '1.2.0', fetches: 5 }] },
      { client: 'cursor', fetches: 4, errors: 1, versions: [{ clientVersion: '0.42', fetches: 4 }] },
      { client: 'reader', fetches: 1, errors: 0, versions: [{ clientVersion: '', fetches: 1 }] },
    ]);
    expect(r.totals.byOutcome).toEqual([
      { outcome: 'ok', fetches: 7 },
      { outcome: 'invalid_arguments', fetches: 2 },
      { outcome: 'not_found', fetches: 1 },
      { outcome: 'error', fetches: 0 },
    ]);
    // Minute buckets from `from` to now (T0 + 3 min), zero-filled.
    expect(r.series.map((p) => [p.start, p.fetches, p.errors])).toEqual([
      [new Date(T0 - 60_000).toISOString(), 0, 0],
      [new Date(T0).toISOString(), 5, 2],
      [new Date(T0 + 60_000).toISOString(), 4, 1],
      [new Date(T0 + 120_000).toISOString(), 0, 0],
      [new Date(T0 + 180_000).toISOString(), 1, 0],
    ]);
    expect(r.series.every((p) => Object.keys(p.byVersion).length === 0)).toBe(true);
  });

  it('filters by prompt (with versions per bucket), label and client', async () => {
    const r = UsageReportSchema.parse(await json<Report>(`/usage?prompt=greet&bucket=hour`));
    expect(r.series.at(-1)).toEqual({ start: new Date(T0).toISOString(), fetches: 8, errors: 2, byVersion: { 1: 4, 2: 4 } });
    expect(r.series).toHaveLength(30 * 24 + 1);
    const staging = UsageReportSchema.parse(await json<Report>('/usage?label=staging'));
    expect(staging.totals.byClient).toEqual([{ client: 'cursor', fetches: 4, errors: 1, versions: [{ clientVersion: '0.42', fetches: 4 }] }]);
    const desktop = UsageReportSchema.parse(await json<Report>('/usage?client=claude-desktop'));
    expect(desktop.totals.fetches).toBe(5);
    expect(desktop.series).toHaveLength(31);
  });

  it('serves the same counts as CSV, one row per bucket × prompt × version × label × client × outcome', async () => {
    const res = await http.call('GET', '/usage.csv?bucket=minute');
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...lines] = (await res.text()).trimEnd().split('\r\n');
    expect(header).toBe('start,prompt,version,label,client,clientVersion,outcome,fetches');
    const rows = lines.map((l) => l.split(','));
    expect(rows).toContainEqual([new Date(T0).toISOString(), 'greet', '1', 'production', 'claude-desktop', '1.2.0', 'ok', '3']);
    expect(rows).toContainEqual([new Date(T0).toISOString(), '(unknown)', '', 'production', 'claude-desktop', '1.2.0', 'not_found', '1']);
    const r = UsageReportSchema.parse(await json<Report>('/usage?bucket=minute&from=' + new Date(T0 - 86_400_000).toISOString()));
    const sum = (pick: (row: string[]) => string) => {
      const m = new Map<string, number>();
      for (const row of rows) m.set(pick(row), (m.get(pick(row)) ?? 0) + Number(row[7]));
      return m;
    };
    expect(Object.fromEntries(sum((x) => x[1]!))).toEqual(Object.fromEntries(r.totals.byPrompt.map((p) => [p.prompt, p.fetches])));
    expect(Object.fromEntries(sum((x) => x[4]!))).toEqual(Object.fromEntries(r.totals.byClient.map((p) => [p.client, p.fetches])));
    expect(Object.fromEntries(sum((x) => x[6]!))).toEqual(Object.fromEntries(r.totals.byOutcome.filter((o) => o.fetches).map((p) => [p.outcome, p.fetches])));
    expect(Object.fromEntries(sum((x) => x[0]!))).toEqual(Object.fromEntries(r.series.filter((p) => p.fetches).map((p) => [p.start, p.fetches])));
  });

  it('refuses bad parameters with a problem naming the parameter', async () => {
    for (const [q, status, param] of [
      ['bucket=week', 400, 'bucket'],
      ['from=yesterday', 400, 'from'],
      ['to=2026-13-01T00:00:00Z', 400, 'to'],
      [`from=${new Date(T0).toISOString()}&to=${new Date(T0 - 1).toISOString()}`, 422, 'from'],
      ['bucket=minute&from=2026-01-01T00:00:00Z', 422, 'bucket'],
    ] as const) {
      const res = await http.call('GET', `/usage?${q}`);
      expect(res.status, q).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      const body = (await res.json()) as { errors?: { path: string }[] };
      expect(body.errors?.map((e) => e.path).join(' '), q).toContain(param);
    }
    expect((await http.call('GET', '/usage.csv?bucket=year')).status).toBe(400);
    expect((await http.call('GET', '/prompts/greet/usage?from=x')).status).toBe(400);
  });
});

describe('GET /admin/v1/prompts/{name}/usage', () => {
  it('answers per version and per client, with the version each client got last', async () => {
    const u = PromptUsageSchema.parse(await json('/prompts/greet/usage'));
    expect(u).toMatchObject({ prompt: 'greet', fetches: 8, errors: 2 });
    expect(u.lastServedAt).toBe(new Date(T0 + 60_000).toISOString());
    expect(u.versions.map((v) => [v.version, v.fetches])).toEqual([[2, 4], [1, 4]]);
    expect(u.clients).toEqual([
      { client: 'claude-desktop', clientVersion: '1.2.0', fetches: 4, errors: 1, lastVersion: 1, lastLabel: 'production', lastServedAt: new Date(T0).toISOString() },
      { client: 'cursor', clientVersion: '0.42', fetches: 4, errors: 1, lastVersion: 2, lastLabel: 'staging', lastServedAt: new Date(T0 + 60_000).toISOString() },
    ]);
    const never = PromptUsageSchema.parse(await json('/prompts/never/usage'));
    expect(never).toEqual({ prompt: 'never', fetches: 0, errors: 0, lastServedAt: null, versions: [], clients: [] });
    expect((await http.call('GET', '/prompts/missing/usage')).status).toBe(404);
  });
});

describe('GET /admin/v1/prompts?sort=lastUsed and ?unusedFor=', () => {
  it('lists the most recently served first, never-served last, across pages', async () => {
    await core.usage.flush();
    type Page = { items: { name: string; lastUsedAt: string | null }[]; nextCursor: string | null };
    const all: Page['items'] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await json(`/prompts?sort=lastUsed&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(all.map((p) => [p.name, p.lastUsedAt])).toEqual([
      ['other', new Date(T0 + 180_000).toISOString()],
      ['greet', new Date(T0 + 60_000).toISOString()],
      ['never', null],
    ]);
  });

  it('filters prompts not served within a duration, never-served included', async () => {
    type Page = { items: { name: string }[]; total: number };
    clock = T0 + 3 * 60_000 + 30_000;
    const names = async (q: string) => ((await json(`/prompts?${q}`)) as Page).items.map((p) => p.name);
    expect(await names('unusedFor=1m')).toEqual(['greet', 'never']);
    expect(await names('unusedFor=12h')).toEqual(['never']);
    expect(await names('unusedFor=30d&sort=lastUsed')).toEqual(['never']);
    const res = await http.call('GET', '/prompts?unusedFor=soon');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { path: string }[] }).errors[0]!.path).toContain('unusedFor');
  });
});

describe('what each row records', () => {
  it('the transport and token of MCP, read API and admin render fetches', async () => {
    const res = await http.call('POST', '/prompts/never/render', { arguments: { who: 'z' } });
    expect(res.status).toBe(200);
    // The admin UI's preview: rendered, never counted (no `other|…|rest` row below).
    const preview = await http.call('POST', '/prompts/other/render', { arguments: { who: 'z' }, preview: true });
    expect(preview.status).toBe(200);
    await core.usage.flush();
    const rows = await core.db.prisma.usageBucket.findMany({ orderBy: { id: 'asc' } });
    const seen = new Set(rows.map((r) => `${r.prompt}|${r.version}|${r.label}|${r.client}|${r.clientVersion}|${r.token}|${r.transport}|${r.outcome}|${r.instance}`));
    expect(seen).toEqual(new Set([
      'greet|1|production|claude-desktop|1.2.0||http|ok|test-a',
      'greet|1|production|claude-desktop|1.2.0||http|invalid_arguments|test-a',
      '(unknown)|0|production|claude-desktop|1.2.0||http|not_found|test-a',
      'greet|2|staging|cursor|0.42||http|ok|test-a',
      'greet|2|staging|cursor|0.42||http|invalid_arguments|test-a',
      'other|1|production|reader||reader|read-api|ok|test-a',
      'never|1|production|admin||admin|rest|ok|test-a',
    ]));
    // Served rows carry their prompt's id; the unknown one none.
    const ids = new Map((await core.db.prisma.prompt.findMany()).map((p) => [p.name, p.id]));
    expect(rows.every((r) => r.promptId === (r.version > 0 ? ids.get(r.prompt) : null))).toBe(true);
    expect(rows.every((r) => r.latencyMs >= 0 && r.grain === 'minute')).toBe(true);
  });
});
