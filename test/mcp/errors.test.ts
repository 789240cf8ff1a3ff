// Unexpected failures leave as a bare -32603: no SQL, stack or path reaches the client.
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/core/errors.js';
import { toMcpError } from '../../src/mcp/errors.js';
import { connect, createPrompt, newCore, rpcError, textPrompt } from './helpers.js';

describe('MCP error mapping', () => {
  it('maps domain errors through ERROR_TABLE with their message; internal ones are hidden', () => {
    const logged: unknown[] = [];
    const log = (_m: string, e: unknown) => void logged.push(e);
    const v = toMcpError(new DomainError('validation', 'argument "x" must be one of: a, b', [{ path: 'arguments.x', message: 'bad' }]), log);
    expect(v.code).toBe(-32602);
    expect(v.message).toBe('argument "x" must be one of: a, b');
    expect(v.data).toEqual({ errors: [{ path: 'arguments.x', message: 'bad' }] });
    const u = toMcpError(new DomainError('unavailable', 'pool exhausted at 10.0.0.3'), log);
    expect([u.code, u.message]).toEqual([-32603, 'internal error']);
    const t = toMcpError(new TypeError('cannot read properties of undefined'), log);
    expect([t.code, t.message]).toEqual([-32603, 'internal error']);
    expect(logged).toHaveLength(2);
  });

  it('a database failure during a request → -32603 "internal error", logged server-side', async () => {
    const core = await newCore();
    await createPrompt(core, textPrompt('a'));
    const logged: unknown[] = [];
    const mcp = await connect(core, { log: (_m, e) => void logged.push(e) });
    await mcp.client.listPrompts();
    await core.db.close();
    // Raw SQL on a closed client is the kind of failure that must not leak.
    (core.db.prisma as unknown as { resource: { findMany: () => never } }).resource.findMany = () => {
      throw new Error('SQLITE_ERROR: no such table: Resource at /srv/promptd/data/promptd.db');
    };
    const err = await rpcError(mcp.client.listResources());
    expect(err).toMatchObject({ code: -32603, message: 'MCP error -32603: internal error' });
    expect(JSON.stringify(err)).not.toContain('SQLITE');
    expect(logged.length).toBeGreaterThanOrEqual(1);
    // prompts/list is served from memory and keeps working.
    expect((await mcp.client.listPrompts()).prompts).toHaveLength(1);
    await mcp.close();
    core.feed.stop();
  });

  // #37.12: the server's own McpErrors were sent with the SDK's "MCP error <code>: "
  // prefix already in the message, and the SDK client added it a second time.
  it('tools/call, resources/read, resources/subscribe and completion errors carry the prefix once', async () => {
    const core = await newCore();
    await createPrompt(core, textPrompt('a'));
    const mcp = await connect(core);
    const tool = await rpcError(mcp.client.callTool({ name: 'nope', arguments: {} }));
    expect(tool).toMatchObject({ code: -32602, message: 'MCP error -32602: unknown tool "nope" (tools/list shows the tools)' });
    const read = await rpcError(mcp.client.readResource({ uri: 'promptd://nope' }));
    expect(read.code).toBe(-32602);
    expect(read.message).toBe('MCP error -32602: resource "promptd://nope" not found: it is not a stored resource and matches no resource template');
    const sub = await rpcError(mcp.client.subscribeResource({ uri: 'promptd://nope' }));
    expect(sub.message).toMatch(/^MCP error -32602: resource "promptd:\/\/nope" not found/);
    const complete = await rpcError(mcp.client.complete({ ref: { type: 'ref/resource', uri: 'x://{y}' }, argument: { name: 'y', value: '' } }));
    expect(complete.message).toBe('MCP error -32602: no resource template "x://{y}" (resources/templates/list shows them)');
    await mcp.close();
    core.feed.stop();
  });

  it('an McpError passed through toMcpError loses the SDK prefix', async () => {
    const { McpError } = await import('@modelcontextprotocol/sdk/types.js');
    const e = toMcpError(new McpError(-32602, 'bad cursor'), () => {});
    expect([e.code, e.message]).toEqual([-32602, 'bad cursor']);
  });
});
