import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { tempPostgresUrl, TEST_DB } from '../helpers/db.js';
import { startServe, waitFor } from '../helpers/spawn.js';

const TOKEN = 'multi-instance-token';
type Instance = Awaited<ReturnType<typeof startServe>>;

async function connect(base: string) {
  const client = new Client({ name: 'multi-instance-test', version: '1.0.0' });
  let notifications = 0;
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void notifications++);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return { client, notifications: () => notifications };
}

const rest = (base: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

const version = (text: string) => ({ arguments: [], messages: [{ role: 'user', content: { type: 'text', text } }], activate: true });

describe.runIf(TEST_DB === 'postgres')('several promptd serve instances on one PostgreSQL', () => {
  let instances: Instance[] = [];

  beforeAll(async () => {
    const url = await tempPostgresUrl();
    // Start one first so that migrations run once, then the others.
    instances.push(await startServe({ DATABASE_URL: url, PROMPTD_ADMIN_TOKEN: TOKEN }));
    instances.push(...(await Promise.all([1, 2].map(() => startServe({ DATABASE_URL: url, PROMPTD_ADMIN_TOKEN: TOKEN })))));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
  });

  it('writes through each instance reach MCP sessions on the other two, which then read the new content', async () => {
    const sessions = await Promise.all(instances.map((i) => connect(i.base)));
    for (const [w, writer] of instances.entries()) {
      const name = `from-${w}`;
      const before = sessions.map((s) => s.notifications());
      const res = await rest(writer.base, 'POST', '/prompts', { name, ...version(`written via instance ${w}`) });
      expect(res.status).toBe(201);
      for (const [r, s] of sessions.entries()) {
        if (r === w) continue;
        await waitFor(() => s.notifications() > before[r]! || undefined, 10_000, `list_changed on instance ${r} after a write on ${w}`);
        const got = await s.client.getPrompt({ name, arguments: {} });
        expect(got.messages[0]!.content).toEqual({ type: 'text', text: `written via instance ${w}` });
      }
    }
    await Promise.all(sessions.map((s) => s.client.close()));
  });

  it('versions stay gapless under concurrent writes spread across instances', async () => {
    expect((await rest(instances[0]!.base, 'POST', '/prompts', { name: 'spread', ...version('v1') })).status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => rest(instances[i % 3]!.base, 'POST', '/prompts/spread/versions', { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: `v${i}` } }] })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(201));
    const numbers = (await Promise.all(results.map((r) => r.json()))).map((v: { version: number }) => v.version).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => i + 2));
  });

  it('killing one instance does not affect the sessions on the others', async () => {
    const [a, b, c] = instances as [Instance, Instance, Instance];
    const sb = await connect(b.base);
    const sc = await connect(c.base);
    a.child.kill('SIGKILL');
    await a.exited;
    instances = [b, c];
    const before = sb.notifications();
    expect((await rest(c.base, 'POST', '/prompts', { name: 'after-kill', ...version('still here') })).status).toBe(201);
    await waitFor(() => sb.notifications() > before || undefined, 10_000, 'list_changed on B after A was killed');
    expect((await sb.client.getPrompt({ name: 'after-kill' })).messages[0]!.content).toEqual({ type: 'text', text: 'still here' });
    expect((await sc.client.listPrompts()).prompts.map((p) => p.name)).toContain('after-kill');
    await sb.client.close();
    await sc.client.close();
  });
});
