// Who and what usage counts are kept under (issue 37, items 15 to 17): a client's name
// and version apart (client= finds every version), a prompt by its id (its history
// follows a rename), the prompt list's last use merging this process's unflushed
// counts, and the migration's backfill of rows recorded before. Both databases.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import { migrationsDir } from '../../src/db/schema-engine.js';
import { connectMcpServer, createMcpServer } from '../../src/mcp/server.js';
import { coreOn, tempDbUrl, TEST_DB, type TestCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';
import { PromptUsageSchema, UsageReportSchema } from '../../src/rest/usage/usage.routes.js';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');
const cores: TestCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

async function setup(clock = { t: T0 }) {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  const core = await coreOn(url, { poolMax: 2, adminToken: TOKEN, now: () => new Date(clock.t), usage: { flushMs: 0, instance: 'i' } });
  cores.push(core);
  const http = makeClient(core);
  for (const name of ['greet', 'other', 'never']) expect((await http.call('POST', '/prompts', { ...textPrompt(name), activate: true })).status).toBe(201);
  const json = async <T>(p: string): Promise<T> => {
    const res = await http.call('GET', p);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  };
  return { core, http, json, clock };
}

async function fetchAs(core: TestCore, info: { name: string; version: string }, prompts: string[]) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ core, transport: 'http', log: () => {} });
  const client = new Client(info);
  await connectMcpServer(server, serverSide, core);
  await client.connect(clientSide);
  for (const name of prompts) await client.getPrompt({ name, arguments: { who: 'x' } });
  await client.close();
}

type Report = ReturnType<typeof UsageReportSchema.parse>;

describe('usage by client name and version', () => {
  it('client= finds every version of a client, clientVersion= narrows; the CSV and prompt usage show both', async () => {
    const { core, http, json } = await setup();
    await fetchAs(core, { name: 'claude-desktop', version: '1.2.0' }, ['greet', 'greet']);
    await core.usage.flush(); // stored and pending alike
    await fetchAs(core, { name: 'claude-desktop', version: '1.3.0' }, ['greet']);
    await fetchAs(core, { name: 'cursor', version: '0.42' }, ['greet']);
    const all = UsageReportSchema.parse(await json<Report>('/usage?client=claude-desktop'));
    expect(all.totals.fetches).toBe(3);
    expect(all.totals.byClient).toEqual([
      { client: 'claude-desktop', fetches: 3, errors: 0, versions: [{ clientVersion: '1.2.0', fetches: 2 }, { clientVersion: '1.3.0', fetches: 1 }] },
    ]);
    const newer = UsageReportSchema.parse(await json<Report>('/usage?client=claude-desktop&clientVersion=1.3.0'));
    expect(newer.totals.fetches).toBe(1);
    const csv = await (await http.call('GET', '/usage.csv?client=claude-desktop')).text();
    expect(csv.trimEnd().split('\r\n').map((l) => l.split(',').slice(1, 6).join(' '))).toEqual([
      'prompt version label client clientVersion',
      'greet 1 production claude-desktop 1.2.0',
      'greet 1 production claude-desktop 1.3.0',
    ]);
    const u = PromptUsageSchema.parse(await json('/prompts/greet/usage'));
    expect(u.clients.map((c) => [c.client, c.clientVersion, c.fetches])).toEqual([['claude-desktop', '1.3.0', 3], ['cursor', '0.42', 1]]);
  });
});

describe('usage by prompt id', () => {
  it("a renamed prompt's history stays with it, under its current name", async () => {
    const { core, http, json } = await setup();
    await fetchAs(core, { name: 'c', version: '1' }, ['greet', 'greet']);
    await core.usage.flush();
    await fetchAs(core, { name: 'c', version: '1' }, ['greet']); // pending across the rename
    expect((await http.call('PATCH', '/prompts/greet', { name: 'hello' })).status).toBe(200);
    await fetchAs(core, { name: 'c', version: '1' }, ['hello']);
    const r = UsageReportSchema.parse(await json<Report>('/usage?prompt=hello'));
    expect(r.totals.fetches).toBe(4); // the pending fetch served as greet, by its version's id
    await core.usage.flush();
    const after = UsageReportSchema.parse(await json<Report>('/usage'));
    expect(after.totals.byPrompt).toEqual([{ prompt: 'hello', fetches: 4, errors: 0 }]);
    const u = PromptUsageSchema.parse(await json('/prompts/hello/usage'));
    expect(u.fetches).toBe(4);
    // A new prompt taking the old name starts with no history.
    expect((await http.call('POST', '/prompts', { ...textPrompt('greet'), activate: true })).status).toBe(201);
    expect(PromptUsageSchema.parse(await json('/prompts/greet/usage')).fetches).toBe(0);
    expect(UsageReportSchema.parse(await json<Report>('/usage?prompt=greet')).totals.fetches).toBe(0);
    // The list's last use follows the id too.
    const list = await json<{ items: { name: string; lastUsedAt: string | null }[] }>('/prompts?sort=lastUsed');
    expect(list.items.map((p) => [p.name, p.lastUsedAt !== null])).toEqual([['hello', true], ['greet', false], ['never', false], ['other', false]]);
  });
});

describe('the prompt list merges counts not flushed yet', () => {
  it('lastUsedAt, sort=lastUsed (across pages) and unusedFor give the answer /usage gives', async () => {
    const { core, json, clock } = await setup();
    await fetchAs(core, { name: 'c', version: '1' }, ['other']);
    await core.usage.flush();
    clock.t = T0 + 5 * 60_000;
    await fetchAs(core, { name: 'c', version: '1' }, ['greet']); // not flushed
    expect((await core.usage.report({})).totals.byPrompt.map((p) => p.prompt)).toEqual(['greet', 'other']);
    type Page = { items: { name: string; lastUsedAt: string | null }[]; nextCursor: string | null };
    const all: Page['items'] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await json(`/prompts?sort=lastUsed&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(all.map((p) => [p.name, p.lastUsedAt])).toEqual([
      ['greet', new Date(T0 + 5 * 60_000).toISOString()],
      ['other', new Date(T0).toISOString()],
      ['never', null],
    ]);
    const names = async (q: string) => (await json<Page>(`/prompts?${q}`)).items.map((p) => p.name);
    expect(await names('unusedFor=2m')).toEqual(['never', 'other']);
    expect(await names('unusedFor=2m&sort=lastUsed')).toEqual(['other', 'never']);
    expect((await json<Page>('/prompts?limit=5')).items.find((p) => p.name === 'greet')?.lastUsedAt).toBe(new Date(T0 + 5 * 60_000).toISOString());
    // Once flushed, the same answers from the stored rows.
    await core.usage.flush();
    expect(await names('unusedFor=2m&sort=lastUsed')).toEqual(['other', 'never']);
    expect(await names('sort=lastUsed')).toEqual(['greet', 'other', 'never']);
  });
});

describe('the migration backfill', () => {
  it('splits "name version" clients, keys rows by prompt id, folds unknown names and cuts long text', async () => {
    const { core, json } = await setup();
    const ids = new Map((await core.db.prisma.prompt.findMany()).map((p) => [p.name, p.id]));
    const base = { instance: 'old', grain: 'minute', start: new Date(T0), label: 'production', token: '', outcome: 'ok', fetches: 1, latencyMs: 1, lastAt: new Date(T0), promptId: null, clientVersion: '' };
    // Rows as the previous schema stored them (clientVersion '' and promptId null by the migration's defaults).
    await core.db.prisma.usageBucket.createMany({
      data: [
        { ...base, prompt: 'greet', version: 1, client: 'claude-desktop 1.2.0', transport: 'http' },
        { ...base, prompt: 'greet', version: 1, client: 'Claude Desktop v2.0.1-beta+3', transport: 'stdio' },
        { ...base, prompt: 'greet', version: 1, client: 'curl/8.4.0 extra 1.0', transport: 'read-api' },
        { ...base, prompt: 'greet', version: 1, client: 'team token 2', transport: 'http', token: 'team token 2' },
        { ...base, prompt: 'greet', version: 1, client: 'no-version', transport: 'sse' },
        { ...base, prompt: 'greet', version: 1, client: 'odd 1.2;drop', transport: 'sse' },
        { ...base, prompt: 'gone', version: 3, client: 'x 1', transport: 'sse' },
        { ...base, prompt: '=cmd|' + 'x'.repeat(5_000), version: 0, client: 'y'.repeat(5_000), transport: 'http', outcome: 'not_found' },
      ],
    });
    const file = path.join(migrationsDir(TEST_DB === 'postgres' ? 'postgresql' : 'sqlite'), readdirMigration(TEST_DB), 'migration.sql');
    const sql = readFileSync(file, 'utf8');
    const backfill = sql.slice(sql.indexOf('-- Backfill'));
    for (const statement of backfill.split(';').map((s) => s.replace(/^\s*--.*$/gm, '').trim()).filter(Boolean)) await core.db.prisma.$executeRawUnsafe(statement);
    const rows = await core.db.prisma.usageBucket.findMany({ orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.prompt.slice(0, 12), r.promptId, r.client.slice(0, 20), r.clientVersion])).toEqual([
      ['greet', ids.get('greet'), 'claude-desktop', '1.2.0'],
      ['greet', ids.get('greet'), 'Claude Desktop', 'v2.0.1-beta+3'],
      ['greet', ids.get('greet'), 'curl/8.4.0 extra 1.0', ''], // a User-Agent stays whole
      ['greet', ids.get('greet'), 'team token 2', ''], // a token's name stays whole
      ['greet', ids.get('greet'), 'no-version', ''],
      ['greet', ids.get('greet'), 'odd 1.2;drop', ''],
      ['gone', null, 'x', '1'],
      ['(unknown)', null, 'y'.repeat(20), ''],
    ]);
    expect(rows.at(-1)!.client).toHaveLength(200);
    const r = UsageReportSchema.parse(await json<Report>(`/usage?client=claude-desktop&from=${new Date(T0 - 60_000).toISOString()}`));
    expect(r.totals.fetches).toBe(1);
  });
});

function readdirMigration(db: string): string {
  return readdirSync(migrationsDir(db === 'postgres' ? 'postgresql' : 'sqlite')).find((d) => d.endsWith('_usage_by_prompt_id'))!;
}
