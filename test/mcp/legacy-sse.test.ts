// The deprecated HTTP+SSE transport (GET /sse + POST /messages) with the real
// SSEClientTransport of the TypeScript SDK 1.10.2 and 1.0.4: every seed prompt,
// list_changed after an edit, the bearer token and the DNS-rebinding check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as Client10 } from 'mcp-sdk-1.0/client/index.js';
import { SSEClientTransport as Sse10 } from 'mcp-sdk-1.0/client/sse.js';
import { Client as Client110 } from 'mcp-sdk-1.10/client/index.js';
import { SSEClientTransport as Sse110 } from 'mcp-sdk-1.10/client/sse.js';
import { PromptListChangedNotificationSchema } from 'mcp-sdk-1.10/types.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { tempSqliteUrl } from '../helpers/db.js';
import { until } from './helpers.js';
import { argumentChoices, getEveryPrompt, type AnyClient } from './seed-prompts.js';
import { EventSource } from 'eventsource';
import http from 'node:http';

const skip = process.env.PROMPTD_TEST_DB === 'postgres';
const ADMIN = 'legacy-admin';
const noop = () => {};
const logger = { info: noop, error: noop, warn: noop, debug: noop, child: () => logger } as unknown as import('../../src/logger.js').Logger;

describe.skipIf(skip)('legacy HTTP+SSE transport', () => {
  let server: RunningServer;
  let locked: RunningServer;
  beforeAll(async () => {
    server = await startServer({ databaseUrl: tempSqliteUrl(), port: 0, adminToken: ADMIN, logger });
    locked = await startServer({ databaseUrl: tempSqliteUrl(), port: 0, adminToken: ADMIN, mcpToken: 'mcp-secret', logger });
  });
  afterAll(async () => {
    await server?.close();
    await locked?.close();
  });

  it('SDK 1.10 SSEClientTransport: every seed prompt, and list_changed after a REST edit', async () => {
    const client = new Client110({ name: 'legacy-1.10', version: '1.10.2' });
    await client.connect(new Sse110(new URL(`${server.url}/sse`)));
    const every = await getEveryPrompt(client as unknown as AnyClient, await argumentChoices(server.core));
    expect(every.names).toHaveLength(server.core.catalog.size());
    const onboard = await client.getPrompt({ name: 'onboard-to-project' });
    expect(onboard.messages.map((m) => m.content.type)).not.toContain('resource_link');

    let changed = 0;
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void changed++);
    const res = await fetch(`${server.url}/admin/v1/prompts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'legacy-new', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], activate: true }),
    });
    expect(res.status).toBe(201);
    await until(() => changed > 0, 5_000, 'list_changed over the legacy stream');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('legacy-new');
    await client.close();
  });

  it('SDK 1.0.4 SSEClientTransport (2024-11-05): every seed prompt', async () => {
    // SDK 1.0.x expects a global EventSource (Node 20 has none): what its users polyfill.
    (globalThis as { EventSource?: unknown }).EventSource ??= EventSource;
    const client = new Client10({ name: 'legacy-1.0', version: '1.0.4' }, { capabilities: {} });
    await client.connect(new Sse10(new URL(`${server.url}/sse`)));
    const every = await getEveryPrompt(client as unknown as AnyClient, await argumentChoices(server.core));
    expect(every.names).toContain('onboard-to-project');
    expect(every.types).not.toContain('resource_link');
    const got = await client.getPrompt({ name: 'onboard-to-project' });
    expect(got.messages.some((m) => m.content.type === 'resource')).toBe(true);
    await client.close();
  });

  it('the same checks as /mcp: token required when set, foreign Host refused, unknown session 404', async () => {
    expect((await fetch(`${locked.url}/sse`)).status).toBe(401);
    const client = new Client110({ name: 'legacy-token', version: '1' });
    await client.connect(
      new Sse110(new URL(`${locked.url}/sse`), {
        eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: 'Bearer mcp-secret' } }) },
        requestInit: { headers: { authorization: 'Bearer mcp-secret' } },
      }),
    );
    expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
    await client.close();

    const port = new URL(server.url).port;
    const foreign = await new Promise<number>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/sse', headers: { host: `evil.example:${port}` } }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      });
      req.on('error', reject);
    });
    expect(foreign).toBe(403);
    const lost = await fetch(`${server.url}/messages?sessionId=nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(lost.status).toBe(404);
  });
});
