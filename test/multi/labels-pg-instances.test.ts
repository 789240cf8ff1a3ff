// Two `promptd serve` instances on one PostgreSQL: label moves and a promotion made
// through one reach a staging session and a production session on the other, each
// seeing its own label's version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { tempPostgresUrl, TEST_DB } from '../helpers/db.js';
import { startServe, waitFor } from '../helpers/spawn.js';

const TOKEN = 'labels-multi-token';
type Instance = Awaited<ReturnType<typeof startServe>>;

async function session(base: string, label?: string) {
  const client = new Client({ name: 'labels-multi', version: '1.0.0' });
  let notifications = 0;
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void notifications++);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp${label ? `?label=${label}` : ''}`)));
  const text = async (name: string) => ((await client.getPrompt({ name })).messages[0]!.content as { text: string }).text;
  return { client, text, notifications: () => notifications };
}

const rest = (base: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
const version = (text: string, activate = false) => ({ arguments: [], messages: [{ role: 'user', content: { type: 'text', text } }], activate });

describe.runIf(TEST_DB === 'postgres')('labels across two promptd instances on one PostgreSQL', () => {
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    const url = await tempPostgresUrl();
    a = await startServe({ DATABASE_URL: url, PROMPTD_ADMIN_TOKEN: TOKEN });
    b = await startServe({ DATABASE_URL: url, PROMPTD_ADMIN_TOKEN: TOKEN });
    expect((await rest(a.base, 'POST', '/prompts', { name: 'release', ...version('v1', true) })).status).toBe(201);
    expect((await rest(a.base, 'POST', '/prompts/release/versions', version('v2'))).status).toBe(201);
    expect((await rest(a.base, 'PUT', '/prompts/release/labels/staging', { version: 1 })).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a staging move on A reaches the staging session on B; a promotion on A reaches the production session on B', async () => {
    const prod = await session(b.base);
    const staging = await session(b.base, 'staging');
    expect(await prod.text('release')).toBe('v1');
    expect(await staging.text('release')).toBe('v1');

    expect((await rest(a.base, 'PUT', '/prompts/release/labels/staging', { version: 2 })).status).toBe(200);
    await waitFor(() => staging.notifications() > 0 || undefined, 10_000, 'list_changed on the staging session on B');
    expect(await staging.text('release')).toBe('v2');
    expect(await prod.text('release')).toBe('v1');

    const stagingBefore = staging.notifications();
    const res = await rest(a.base, 'POST', '/labels/staging/promote', { to: 'production' });
    expect(await res.json()).toEqual({ changes: [{ prompt: 'release', from: 1, to: 2 }] });
    await waitFor(() => prod.notifications() > 0 || undefined, 10_000, 'list_changed on the production session on B');
    expect(await prod.text('release')).toBe('v2');
    expect(await staging.text('release')).toBe('v2');
    // The staging view did not change with the promotion. (Over HTTP, notifications and
    // responses travel on different streams, so this can only catch a notification
    // that arrived by now.)
    expect(staging.notifications()).toBe(stagingBefore);
    // Production saw exactly one change: the promotion, not the staging move.
    expect(prod.notifications()).toBe(1);
    await Promise.all([prod.client.close(), staging.client.close()]);
  });
});
