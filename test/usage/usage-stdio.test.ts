// `promptd mcp` (stdio, a real child started by the SDK's StdioClientTransport): its
// fetches are counted with transport `stdio` and the client's clientInfo, and written
// when the client closes the session (the process flushes before it exits).
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import { openStore } from '../../src/db/store.js';
import { projectRoot } from '../../src/db/paths.js';
import { CreatePromptInputSchema } from '../../src/core/schemas.js';
import { coreOn, tempDbUrl } from '../helpers/db.js';
import { BIN, waitFor } from '../helpers/spawn.js';
import { assertBuilt } from '../cli/helpers.js';

describe('usage over stdio', () => {
  it('counts prompts/get of a stdio session and writes them when the session ends', async () => {
    assertBuilt();
    const url = await tempDbUrl();
    await migrateDatabase(url);
    const core = await coreOn(url, { usage: { flushMs: 0 } });
    await core.prompts.create(CreatePromptInputSchema.parse({ name: 'stdio-greet', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], activate: true }), { name: 'test' });
    await core.close();

    const transport = new StdioClientTransport({
      command: process.execPath, args: [BIN, 'mcp'], cwd: projectRoot, env: { ...getDefaultEnvironment(), DATABASE_URL: url, PROMPTD_USAGE_FLUSH_MS: '3600000' }, stderr: 'pipe',
    });
    let log = '';
    transport.stderr?.on('data', (d) => (log += d));
    const client = new Client({ name: 'zed', version: '0.150.0' });
    await client.connect(transport);
    for (let i = 0; i < 2; i++) await client.getPrompt({ name: 'stdio-greet' });
    await expect(client.getPrompt({ name: 'missing' })).rejects.toThrow();
    const exited = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
    await client.close();
    await exited;

    const store = await openStore(url);
    try {
      // The child flushes, then exits: wait for its rows rather than for the process.
      const rows = await waitFor(async () => {
        const found = await store.db.prisma.usageBucket.findMany({ orderBy: { id: 'asc' } });
        return found.length ? found : undefined;
      }, 10_000, `usage rows from promptd mcp; stderr: ${log}`);
      expect(rows.map((r) => [r.prompt, r.client, r.clientVersion, r.transport, r.outcome, r.fetches]), log).toEqual([
        ['stdio-greet', 'zed', '0.150.0', 'stdio', 'ok', 2],
        ['(unknown)', 'zed', '0.150.0', 'stdio', 'not_found', 1],
      ]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
