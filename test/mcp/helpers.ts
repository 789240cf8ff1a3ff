// Shared fixtures for the MCP tests: real SQLite files, the SDK's real Client.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import type { Core } from '../../src/core/index.js';
import { coreOn, type TestCore } from '../helpers/db.js';
import { CreatePromptInputSchema, ResourceInputSchema, VersionInputSchema } from '../../src/core/schemas.js';
import { connectMcpServer, createMcpServer, type McpServerOptions } from '../../src/mcp/server.js';

export const actor = { name: 'mcp-test' };

export function tempDbUrl(): string {
  return 'file:' + path.join(mkdtempSync(path.join(os.tmpdir(), 'pd-')), 'x.db');
}

export async function newCore(opts: { url?: string; adminToken?: string } = {}): Promise<TestCore> {
  const url = opts.url ?? tempDbUrl();
  await migrateDatabase(url);
  return coreOn(url, { adminToken: opts.adminToken });
}

/** A Client connected in memory to a fresh createMcpServer over `core`. */
export async function connect(core: Core, opts: Omit<McpServerOptions, 'core'> = {}) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ ...opts, core, log: opts.log ?? (() => {}) });
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await connectMcpServer(server, serverSide, core);
  await client.connect(clientSide);
  return { client, server, close: () => client.close() };
}

export const createPrompt = (core: Core, input: Record<string, unknown>) => core.prompts.create(CreatePromptInputSchema.parse(input), actor);
export const createVersion = (core: Core, name: string, input: Record<string, unknown>) => core.prompts.createVersion(name, VersionInputSchema.parse(input), actor);
// Public unless a test says otherwise: most MCP tests list and read what they store.
export const createResource = (core: Core, input: Record<string, unknown>) => core.resources.create(ResourceInputSchema.parse({ visibility: 'public', ...input }), actor);

export const textPrompt = (name: string, text = 'Hello {{who}}', extra: Record<string, unknown> = {}) => ({
  name,
  description: `prompt ${name}`,
  arguments: [{ name: 'who', description: 'who to greet', required: true }],
  messages: [{ role: 'user', content: { type: 'text', text } }],
  activate: true,
  ...extra,
});

/** Counts notifications/prompts/list_changed received by `client`. */
export function countListChanged(client: Client) {
  const seen: number[] = [];
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
    seen.push(Date.now());
  });
  return {
    count: () => seen.length,
    reset: () => void seen.splice(0),
    /** Resolves once `n` notifications have arrived (rejects after `ms`). */
    waitFor: (n = 1, ms = 5_000) => until(() => seen.length >= n, ms, `${n} list_changed notification(s), got ${seen.length}`),
  };
}

/**
 * "Nothing arrived", checked by an event rather than a sleep: a resource write made
 * after the writes under test reaches `client` as resources/list_changed, and any
 * prompts/list_changed those writes caused would have been sent before it (the change
 * log is followed in order, and the catalog hears each batch before the notifier).
 * Resolves once that sentinel notification has arrived.
 */
export async function afterSentinel(client: Client, writeResource: () => Promise<unknown>, ms = 10_000): Promise<void> {
  let seen = 0;
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void seen++);
  await writeResource();
  await until(() => seen > 0, ms, 'the sentinel resources/list_changed');
}

export async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The JSON-RPC error a call failed with. */
export async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof McpError) return { code: e.code, message: e.message, data: e.data };
    throw e;
  }
  throw new Error('expected the call to fail');
}

// 1×1 transparent PNG.
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
