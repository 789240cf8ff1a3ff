// Clients that never follow nextCursor see only the first page: the page size is
// configurable (1-1000) for prompts, resources and tools, on stdio and HTTP alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import { coreOn } from '../helpers/db.js';
import { seedIfEmpty } from '../../src/library/seed.js';
import { BIN, runPromptd } from '../helpers/spawn.js';
import { tempSqliteUrl } from '../helpers/db.js';

const skip = process.env.PROMPTD_TEST_DB === 'postgres';

describe.skipIf(skip)('MCP page size', () => {
  let url: string;
  let seeded = 0;
  beforeAll(async () => {
    url = tempSqliteUrl();
    await migrateDatabase(url);
    const core = await coreOn(url);
    seeded = await seedIfEmpty(core);
    await core.close();
  });

  const stdio = async (args: string[], env: Record<string, string> = {}) => {
    const client = new Client({ name: 'pager', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env: { ...(process.env as Record<string, string>), DATABASE_URL: url, LOG_LEVEL: 'warn', ...env } }));
    return client;
  };

  it('--page-size 3 pages prompts, resources and per-prompt tools by 3', async () => {
    const client = await stdio(['--page-size', '3', '--prompt-tools']);
    const prompts = await client.listPrompts();
    expect(prompts.prompts).toHaveLength(3);
    expect(prompts.nextCursor).toBeDefined();
    const resources = await client.listResources();
    expect(resources.resources.length).toBeLessThanOrEqual(3);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name).slice(0, 2)).toEqual(['list_prompts', 'get_prompt']);
    expect(tools.tools).toHaveLength(2 + 3);
    await client.close();
  });

  it('PROMPTD_MCP_PAGE_SIZE=1000 puts the whole seed library on the first page', async () => {
    const client = await stdio([], { PROMPTD_MCP_PAGE_SIZE: '1000' });
    const prompts = await client.listPrompts();
    expect(prompts.prompts).toHaveLength(seeded);
    expect(prompts.nextCursor).toBeUndefined();
    await client.close();
  });

  it.each([
    [['--page-size', '0'], {}, '--page-size must be a whole number from 1 to 1000 (got "0")'],
    [['--page-size', '1001'], {}, '--page-size must be a whole number from 1 to 1000 (got "1001")'],
    [[], { PROMPTD_MCP_PAGE_SIZE: 'lots' }, 'PROMPTD_MCP_PAGE_SIZE must be a whole number from 1 to 1000 (got "lots")'],
    [['--no-tools', '--prompt-tools'], {}, '--prompt-tools needs the tools face'],
  ])('mcp %j %j: exit 2 with one line', async (args, env, line) => {
    const r = runPromptd(['mcp', ...args], { DATABASE_URL: url, ...env });
    expect(await r.exited).toBe(2);
    expect(r.stderr().trim().split('\n')).toHaveLength(1);
    expect(r.stderr()).toContain(line);
    const s = runPromptd(['serve', '--port', '0', ...args], { DATABASE_URL: url, ...env });
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toContain(line);
  });
});
