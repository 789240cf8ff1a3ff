// Issue 24.1: resources/subscribe had no limit (300 subscriptions to 1 MiB URIs took
// a session's memory from 161 MB to 500 MB). Now: at most 100 per session (or
// PROMPTD_MCP_MAX_SUBSCRIPTIONS), URIs at most 2,048 characters, and only URIs that
// are stored or match a stored template; anything else is -32602.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { LIMITS, ResourceInputSchema } from '../../src/core/schemas.js';
import { tempDbUrl } from '../helpers/db.js';
import { rpcError } from '../mcp/helpers.js';

let srv: RunningServer;
let small: RunningServer;

async function client(url: string) {
  const c = new Client({ name: 'subscriptions-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return c;
}

beforeAll(async () => {
  const databaseUrl = await tempDbUrl();
  srv = await startServer({ databaseUrl, port: 0, seed: false, adminToken: 'subs-admin', logger: createLogger('silent') });
  await srv.core.resources.create(ResourceInputSchema.parse({ uri: 'mem://stored', name: 'stored', mimeType: 'text/plain', text: 'x', visibility: 'public' }), { name: 'test' });
  await srv.core.resources.createTemplate({ uriTemplate: 'repo://{owner}/{name}', name: 'repository', mimeType: 'text/plain', text: '{{owner}}/{{name}}' }, { name: 'test' });
  small = await startServer({ databaseUrl, port: 0, seed: false, adminToken: 'subs-admin', mcpMaxSubscriptions: 2, logger: createLogger('silent') });
}, 120_000);
afterAll(async () => {
  await small?.close();
  await srv?.close();
});

describe('resources/subscribe', () => {
  it('only stored URIs or URIs matching a stored template; unknown and overlong URIs are -32602', async () => {
    const c = await client(srv.url);
    try {
      await c.subscribeResource({ uri: 'mem://stored' });
      await c.subscribeResource({ uri: 'repo://acme/widgets' });
      const unknown = await rpcError(c.subscribeResource({ uri: 'mem://nothing-here' }));
      expect(unknown.code).toBe(ErrorCode.InvalidParams);
      expect(unknown.message).toMatch(/not found.*stored resources.*template/);
      const long = await rpcError(c.subscribeResource({ uri: `repo://acme/${'x'.repeat(LIMITS.uriLength)}` }));
      expect(long.code).toBe(ErrorCode.InvalidParams);
      expect(long.message).toContain(String(LIMITS.uriLength));
      // The 1 MiB URIs of the report.
      const huge = await rpcError(c.subscribeResource({ uri: `mem://${'a'.repeat(1024 * 1024)}` }));
      expect(huge.code).toBe(ErrorCode.InvalidParams);
    } finally {
      await c.close();
    }
  });

  it('at most 100 subscriptions per session by default; a repeated URI costs nothing; unsubscribing makes room', async () => {
    const c = await client(srv.url);
    try {
      for (let i = 0; i < 100; i++) await c.subscribeResource({ uri: `repo://acme/w${i}` });
      await c.subscribeResource({ uri: 'repo://acme/w0' });
      const over = await rpcError(c.subscribeResource({ uri: 'repo://acme/w100' }));
      expect(over.code).toBe(ErrorCode.InvalidParams);
      expect(over.message).toContain('100 subscriptions');
      await c.unsubscribeResource({ uri: 'repo://acme/w0' });
      await c.subscribeResource({ uri: 'repo://acme/w100' });
      // The cap is per session: another session starts empty.
      const other = await client(srv.url);
      await other.subscribeResource({ uri: 'repo://acme/w0' });
      await other.close();
    } finally {
      await c.close();
    }
  });

  it('the cap follows mcpMaxSubscriptions (PROMPTD_MCP_MAX_SUBSCRIPTIONS)', async () => {
    const c = await client(small.url);
    try {
      await c.subscribeResource({ uri: 'repo://a/1' });
      await c.subscribeResource({ uri: 'repo://a/2' });
      expect((await rpcError(c.subscribeResource({ uri: 'repo://a/3' }))).code).toBe(ErrorCode.InvalidParams);
    } finally {
      await c.close();
    }
  });
});
