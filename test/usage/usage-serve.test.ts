// Usage across real `promptd serve` processes: two instances on one database record
// fetches from two MCP clients (the SDK's Client over Streamable HTTP); SIGTERM flushes
// what each holds in memory, and a new process answers the sum. No flush timer fires
// here (10 s), so the counts can only have come from the shutdown flush.
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import { openStore } from '../../src/db/store.js';
import { tempDbUrl } from '../helpers/db.js';
import { startServe, waitFor } from '../helpers/spawn.js';
import { assertBuilt } from '../cli/helpers.js';

const TOKEN = 'usage-serve-token';
type Instance = Awaited<ReturnType<typeof startServe>>;
const running: Instance[] = [];
afterAll(async () => {
  await Promise.all(running.map((i) => i.stop()));
});

async function serve(url: string): Promise<Instance> {
  const i = await startServe({ DATABASE_URL: url, PROMPTD_ADMIN_TOKEN: TOKEN, PROMPTD_USAGE_FLUSH_MS: '3600000' });
  running.push(i);
  return i;
}
async function stop(i: Instance) {
  await i.stop();
  running.splice(running.indexOf(i), 1);
}

async function mcp(base: string, name: string, version: string) {
  const client = new Client({ name, version });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return client;
}

describe('usage across promptd serve processes', () => {
  it('two instances each flush on SIGTERM, and a new process reads the sum', async () => {
    assertBuilt();
    const url = await tempDbUrl();
    await migrateDatabase(url);
    const a = await serve(url);
    const b = await serve(url);
    const res = await fetch(`${a.base}/admin/v1/prompts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'usage-greet', arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Hi {{who}}' } }], activate: true }),
    });
    expect(res.status).toBe(201);

    const desktop = await mcp(a.base, 'claude-desktop', '1.2.0');
    for (let i = 0; i < 3; i++) await desktop.getPrompt({ name: 'usage-greet', arguments: { who: 'x' } });
    await expect(desktop.getPrompt({ name: 'usage-greet', arguments: {} })).rejects.toThrow();
    // B learns of the new prompt through the change feed; until then it is not found there.
    const cursor = await mcp(b.base, 'cursor', '0.42');
    await waitFor(async () => (await cursor.listPrompts()).prompts.some((p) => p.name === 'usage-greet') || undefined, 10_000, 'the prompt served on B');
    for (let i = 0; i < 2; i++) await cursor.getPrompt({ name: 'usage-greet', arguments: { who: 'y' } });
    await expect(cursor.getPrompt({ name: 'nope', arguments: {} })).rejects.toThrow();
    await desktop.close();
    await cursor.close();
    await Promise.all([stop(a), stop(b)]);

    const c = await serve(url);
    const report = await (await fetch(`${c.base}/admin/v1/usage`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    expect(report.totals.fetches).toBe(7);
    expect(report.totals.byClient).toEqual([
      { client: 'claude-desktop', fetches: 4, errors: 1, versions: [{ clientVersion: '1.2.0', fetches: 4 }] },
      { client: 'cursor', fetches: 3, errors: 1, versions: [{ clientVersion: '0.42', fetches: 3 }] },
    ]);
    expect(report.totals.byOutcome).toEqual([
      { outcome: 'ok', fetches: 5 },
      { outcome: 'invalid_arguments', fetches: 1 },
      { outcome: 'not_found', fetches: 1 },
      { outcome: 'error', fetches: 0 },
    ]);
    expect(report.totals.byVersion).toEqual([{ prompt: 'usage-greet', version: 1, fetches: 6 }]);
    // Each instance wrote its own rows, over Streamable HTTP.
    const store = await openStore(url);
    try {
      const rows = await store.db.prisma.usageBucket.findMany();
      expect(new Set(rows.map((r) => r.transport))).toEqual(new Set(['http']));
      expect(new Set(rows.filter((r) => r.client === 'cursor').map((r) => r.instance)).size).toBe(1);
      expect(new Set(rows.map((r) => r.instance)).size).toBe(2);
    } finally {
      await store.close();
    }
  }, 120_000);
});
