// Label views over MCP with the SDK's real Client: a production session and a staging
// session see their own label's versions, and list_changed reaches exactly the
// sessions whose view changed. Over HTTP, `/mcp?label=` picks the view and an unknown
// label is a 404 problem; over stdio, `promptd mcp --label` (exit 2 when unknown).
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { TestCore } from '../helpers/db.js';
import { createApp } from '../../src/http/app.js';
import { createMcpHttpApp } from '../../src/mcp/http.js';
import { BIN } from '../helpers/spawn.js';
import { actor, connect, countListChanged, createPrompt, createVersion, newCore, textPrompt } from './helpers.js';

let core: TestCore;
let url: string;

const text = async (client: Client, name: string) => {
  const got = await client.getPrompt({ name, arguments: { who: 'x' } });
  return (got.messages[0]!.content as { text: string }).text;
};
const names = async (client: Client) => (await client.listPrompts()).prompts.map((p) => p.name);

beforeAll(async () => {
  core = await newCore();
  url = core.db.url;
  await createPrompt(core, textPrompt('greet', 'v1 {{who}}'));
  await createVersion(core, 'greet', { arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'v2 {{who}}' } }] });
  await createPrompt(core, textPrompt('only-prod', 'p {{who}}'));
  await core.labels.set('greet', 'staging', 2, actor);
});
afterAll(() => core.close());

describe('label views over MCP (in-memory transport)', () => {
  it('a production and a staging session each serve their label; prompts without the label are absent', async () => {
    const prod = await connect(core);
    const staging = await connect(core, { label: 'staging' });
    const latest = await connect(core, { label: 'latest' });
    expect(await names(prod.client)).toEqual(['greet', 'only-prod']);
    expect(await names(staging.client)).toEqual(['greet']);
    expect(await text(prod.client, 'greet')).toBe('v1 x');
    expect(await text(staging.client, 'greet')).toBe('v2 x');
    expect(await text(latest.client, 'greet')).toBe('v2 x');
    await expect(staging.client.getPrompt({ name: 'only-prod', arguments: { who: 'x' } })).rejects.toThrow(/not found.*label "staging"/);
    await Promise.all([prod.close(), staging.close(), latest.close()]);
  });

  it('a staging move notifies staging sessions only; a promotion notifies production sessions only', async () => {
    const prod = await connect(core);
    const staging = await connect(core, { label: 'staging' });
    const prodSeen = countListChanged(prod.client);
    const stagingSeen = countListChanged(staging.client);
    await createVersion(core, 'greet', { arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'v3 {{who}}' } }] });
    await core.labels.set('greet', 'staging', 3, actor);
    await stagingSeen.waitFor(1);
    // The notifier fans out in one pass; a notification to the production session would
    // have been sent before this request's answer on the same in-order transport.
    await prod.client.ping();
    expect(prodSeen.count()).toBe(0);
    expect(await text(staging.client, 'greet')).toBe('v3 x');
    expect(await text(prod.client, 'greet')).toBe('v1 x');

    const before = stagingSeen.count();
    expect((await core.labels.promote('staging', { to: 'production' }, actor)).changes).toEqual([{ prompt: 'greet', from: 1, to: 3 }]);
    await prodSeen.waitFor(1);
    await staging.client.ping();
    expect(stagingSeen.count()).toBe(before);
    expect(await text(prod.client, 'greet')).toBe('v3 x');
    await Promise.all([prod.close(), staging.close()]);
  });
});

describe('label views over Streamable HTTP and stdio', () => {
  let base: string;
  let server: ServerType;
  let closeAll: () => Promise<void>;

  beforeAll(async () => {
    let port = 0;
    const mcp = createMcpHttpApp({ core, host: '127.0.0.1', get port() { return port; } } as Parameters<typeof createMcpHttpApp>[0]);
    closeAll = mcp.closeAll;
    const app = createApp({ core, mcp: mcp.app, mcpLegacy: mcp.legacyApp });
    server = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await closeAll();
    (server as http.Server).closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('/mcp?label=staging serves staging for the whole session', async () => {
    await core.labels.set('greet', 'canary', 2, actor);
    const client = new Client({ name: 'label-http', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp?label=canary`)));
    expect(await names(client)).toEqual(['greet']);
    expect(await text(client, 'greet')).toBe('v2 x');
    await client.close();
  });

  it('an unknown label is a 404 problem naming the known labels', async () => {
    const res = await fetch(`${base}/mcp?label=nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const body = await res.json();
    expect(body.detail).toMatch(/label "nope" is not known; known labels: .*canary.*latest.*production.*staging/);
    expect(body.errors[0].path).toBe('label');
  });

  it('promptd mcp --label staging serves staging over stdio; an unknown label exits 2 naming the known ones', async () => {
    const bad = spawnSync(process.execPath, [BIN, '--database-url', url, 'mcp', '--label', 'nope'], { encoding: 'utf8', timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/label "nope" is not known; known labels: .*production.*staging/);
    const client = new Client({ name: 'label-stdio', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--database-url', url, 'mcp', '--label', 'staging'], stderr: 'ignore' }));
    expect(await names(client)).toEqual(['greet']);
    expect(await text(client, 'greet')).toBe('v3 x');
    await client.close();
  });
});
