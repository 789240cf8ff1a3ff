// The real LangChain MCP adapter (@langchain/mcp-adapters), which calls tools/list
// on its first connection: over Streamable HTTP and over stdio, the first connect
// succeeds, the tools load, and get_prompt renders a seed prompt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { startServer, type RunningServer } from '../../src/server.js';
import { BIN } from '../helpers/spawn.js';
import { tempSqliteUrl } from '../helpers/db.js';

const skip = process.env.PROMPTD_TEST_DB === 'postgres';

describe.skipIf(skip)('LangChain MCP adapter', () => {
  let url: string;
  let server: RunningServer;
  beforeAll(async () => {
    url = tempSqliteUrl();
    const noop = () => {};
    const logger = { info: noop, error: noop, warn: noop, debug: noop, child: () => logger } as unknown as import('../../src/logger.js').Logger;
    // An empty SQLite database is seeded on start.
    server = await startServer({ databaseUrl: url, port: 0, adminToken: 'lc-admin', logger });
  });
  afterAll(async () => server?.close());

  async function exercise(client: MultiServerMCPClient) {
    const tools = await client.getTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_prompts', 'get_prompt']));
    const get = tools.find((t) => t.name === 'get_prompt')!;
    const out = await get.invoke({ name: 'summarize', arguments: { text: 'promptd serves prompts to every MCP client.' } });
    expect(JSON.stringify(out)).toContain('promptd serves prompts to every MCP client.');
    const list = tools.find((t) => t.name === 'list_prompts')!;
    expect(JSON.stringify(await list.invoke({ query: 'onboard' }))).toContain('onboard-to-project');
    await client.close();
  }

  it('over Streamable HTTP', async () => {
    await exercise(new MultiServerMCPClient({ throwOnLoadError: true, mcpServers: { promptd: { url: `${server.url}/mcp`, automaticSSEFallback: false } } }));
  });

  it('over stdio', async () => {
    await exercise(
      new MultiServerMCPClient({
        throwOnLoadError: true,
        mcpServers: { promptd: { transport: 'stdio', command: process.execPath, args: [BIN, 'mcp'], env: { DATABASE_URL: url, LOG_LEVEL: 'warn', PATH: process.env.PATH ?? '' } } },
      }),
    );
  });
});
