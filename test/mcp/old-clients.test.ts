// Real old MCP clients (the official TypeScript SDK 1.0.4 and 1.10.2, installed as
// aliased devDependencies) get every seed prompt. SDK 1.0.x validates prompts/get
// against the 2024-11-05 schema and rejects a whole result for one content block it
// does not know (`resource_link`, `audio`), so this fails without protocol shaping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as Client10 } from 'mcp-sdk-1.0/client/index.js';
import { StdioClientTransport as Stdio10 } from 'mcp-sdk-1.0/client/stdio.js';
import { Client as Client110 } from 'mcp-sdk-1.10/client/index.js';
import { StdioClientTransport as Stdio110 } from 'mcp-sdk-1.10/client/stdio.js';
import { StreamableHTTPClientTransport as Http110 } from 'mcp-sdk-1.10/client/streamableHttp.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import { coreOn } from '../helpers/db.js';
import { seedIfEmpty } from '../../src/library/seed.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { BIN } from '../helpers/spawn.js';
import { tempSqliteUrl } from '../helpers/db.js';
import { argumentChoices, getEveryPrompt as getEverySeedPrompt, type AnyClient } from './seed-prompts.js';

// The UI and the old-client checks run on SQLite; the PostgreSQL pass skips them
// (the protocol shaping does not depend on the database).
const skip = process.env.PROMPTD_TEST_DB === 'postgres';

describe.skipIf(skip)('old MCP clients get every seed prompt', () => {
  let url: string;
  let server: RunningServer;
  let seedCount = 0;
  let choices = new Map<string, string[]>();

  beforeAll(async () => {
    url = tempSqliteUrl();
    await migrateDatabase(url);
    const core = await coreOn(url);
    seedCount = await seedIfEmpty(core);
    choices = await argumentChoices(core);
    await core.close();
    server = await startServer({ databaseUrl: url, port: 0, seed: false, adminToken: 'old-clients-admin', logger: silentLogger() });
  });
  afterAll(async () => server?.close());

  const stdioEnv = () => ({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' }) as Record<string, string>;

  it('SDK 1.0.4 over stdio (protocol 2024-11-05): every prompt, resource_link embedded', async () => {
    const client = new Client10({ name: 'old-1.0', version: '1.0.4' }, { capabilities: {} });
    await client.connect(new Stdio10({ command: process.execPath, args: [BIN, 'mcp'], env: stdioEnv() }));
    const { names, types } = await getEverySeedPrompt(client as unknown as AnyClient, choices);
    expect(names).toHaveLength(seedCount);
    expect(names).toContain('onboard-to-project');
    expect(types).not.toContain('resource_link');
    expect(types).not.toContain('audio');
    const onboard = await client.getPrompt({ name: 'onboard-to-project' });
    const embedded = onboard.messages.map((m) => m.content).filter((c) => c.type === 'resource');
    expect(embedded.map((c) => (c.resource as { uri: string }).uri)).toEqual(['file:///project/README.md', 'file:///project/src/orders/checkout.ts']);
    expect((embedded[0]!.resource as { text: string }).text).toContain('orders-api');
    await client.close();
  });

  it('SDK 1.10.2 over stdio and over Streamable HTTP: every prompt', async () => {
    const overStdio = new Client110({ name: 'old-1.10', version: '1.10.2' });
    await overStdio.connect(new Stdio110({ command: process.execPath, args: [BIN, 'mcp'], env: stdioEnv() }));
    const viaStdio = await getEverySeedPrompt(overStdio as unknown as AnyClient, choices);
    expect(viaStdio.names).toHaveLength(seedCount);
    expect(viaStdio.types).not.toContain('resource_link');
    await overStdio.close();

    const overHttp = new Client110({ name: 'old-1.10-http', version: '1.10.2' });
    await overHttp.connect(new Http110(new URL(`${server.url}/mcp`)));
    const viaHttp = await getEverySeedPrompt(overHttp as unknown as AnyClient, choices);
    expect(viaHttp.names).toHaveLength(seedCount);
    expect(viaHttp.types).not.toContain('resource_link');
    await overHttp.close();
  });
});

function silentLogger() {
  const noop = () => {};
  return { info: noop, error: noop, warn: noop, debug: noop, child: () => silentLogger() } as unknown as import('../../src/logger.js').Logger;
}
