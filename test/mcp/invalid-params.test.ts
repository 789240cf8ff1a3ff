import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import type { Core } from '../../src/core/index.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { makeCore } from '../helpers/db.js';

let core: Core;
let client: Client;

beforeAll(async () => {
  core = await makeCore();
  await core.catalog.ready();
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ core }).connect(serverSide);
  client = new Client({ name: 'invalid-params', version: '1.0.0' });
  await client.connect(clientSide);
});
afterAll(async () => {
  await client.close();
  await core.close();
});

it.each([
  ['prompts/get', { name: 42 }, 'params.name'],
  ['prompts/get', {}, 'params.name'],
  ['resources/read', {}, 'params.uri'],
  ['completion/complete', { ref: { type: 'ref/prompt' } }, 'params'],
])('schema-invalid %s params are -32602 naming the field, not -32603', async (method, params, field) => {
  const err = await client.request({ method, params } as never, z.any()).catch((e: unknown) => e as { code: number; message: string });
  expect(err).toMatchObject({ code: -32602 });
  expect((err as { message: string }).message).toContain(field);
});
