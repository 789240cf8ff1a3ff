// Property-based fuzzing of /mcp (Streamable HTTP, mounted in the full app, through
// app.request()). Invariants: never a 5xx, every reply is a well-formed JSON-RPC
// message and never an internal error, no session leaks, and the data written
// before the run is intact and still served.
import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { forgedSession, mcpRequest } from './mcp-arbitraries.js';
import { checkMcpResponse, type McpStats } from './invariants.js';
import { mcpHarness } from './mcp-harness.js';
import { seedSentinels, snapshotSentinels, type Sentinels } from './sentinels.js';

let core: Core;
let h: ReturnType<typeof mcpHarness>;
let sentinels: Sentinels;
let before: unknown;
let session: string;
let issued: string[];
const internalErrors: unknown[] = [];
const stats: McpStats = { sdkInvalidParams: 0 };
/** Diagnostics for the last test: the first request after which the live session was gone, and stray sessions. */
let lostAt: string | undefined;
const strays: string[] = [];

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  h = mcpHarness(core, { logger: { info() {}, error: (...a: unknown[]) => internalErrors.push(a) } });
  const { call } = makeClient(core);
  sentinels = await seedSentinels(call);
  before = await snapshotSentinels(call, sentinels);
  session = await h.initialize();
  expect((await h.rpc(session, 'prompts/list')).result).toBeDefined();
  issued = [core.cursors.encode('admin-prompts', 'f1'), core.cursors.encode('mcp-prompts', 'keep.alpha'), core.cursors.encode('mcp-resources', 1)];
});
afterAll(async () => {
  await h?.mcp.closeAll();
  await core?.close();
});

const runs = (n: number) => ({ numRuns: Number(process.env.FUZZ_RUNS ?? n), endOnFailure: true });

it('random and hostile JSON-RPC traffic: no 5xx, well-formed replies, no internal errors', async () => {
  await fc.assert(
    fc.asyncProperty(mcpRequest(issued), async (c) => {
      const sid = c.session === 'real' ? session : c.session;
      // GET/DELETE on the live session would open a stream or end it; forged ids only.
      const method = sid === session && c.method !== 'POST' ? 'POST' : c.method;
      const headers: Record<string, string> = { ...h.headers, 'content-type': c.contentType, accept: c.accept, 'mcp-protocol-version': c.protocol };
      if (sid !== undefined) headers['mcp-session-id'] = sid;
      const res = await h.app.request('/mcp', { method, headers, ...(method === 'GET' || method === 'OPTIONS' ? {} : { body: c.body as BodyInit }) });
      const created = res.headers.get('mcp-session-id');
      if (sid === session && res.status === 404) lostAt ??= `${method} ${typeof c.body === 'string' ? c.body.slice(0, 300) : '<bytes>'}`;
      if (created && created !== session) strays.push(created);
      const problem = await checkMcpResponse(res, stats);
      // A stray initialize opened a session: end it, as a well-behaved client would.
      if (created && created !== session) await h.app.request('/mcp', { method: 'DELETE', headers: { ...h.headers, 'mcp-session-id': created } });
      const shown = typeof c.body === 'string' ? c.body.slice(0, 300) : `bytes ${Buffer.from(c.body).toString('hex').slice(0, 100)}`;
      expect(problem, `${method} session=${String(sid).slice(0, 40)} ${shown}`).toBeNull();
    }),
    runs(250),
  );
  expect(internalErrors).toEqual([]);
});

it('forged session ids and non-POST methods without a session are refused cleanly', async () => {
  await fc.assert(
    fc.asyncProperty(forgedSession, fc.constantFrom('GET', 'POST', 'DELETE'), async (sid, method) => {
      fc.pre(sid !== session);
      const res = await h.app.request('/mcp', { method, headers: { ...h.headers, 'mcp-session-id': sid }, ...(method === 'POST' ? { body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' } : {}) });
      expect([400, 404]).toContain(res.status);
      expect(await checkMcpResponse(res)).toBeNull();
    }),
    runs(60),
  );
});

it('afterwards the session still works, no session leaked, and the data is intact', async () => {
  expect(lostAt, 'the live session disappeared after this request').toBeUndefined();
  expect(h.mcp.sessionCount(), `open sessions; stray ones created: ${strays.join(', ')}`).toBe(1);
  const got = await h.rpc(session, 'prompts/get', { name: 'keep.alpha', arguments: { who: 'Ann' } });
  const messages = (got.result as { messages: { content: { text?: string; resource?: { text?: string } } }[] }).messages;
  expect(messages[0]!.content.text).toBe('v2: Hello Ann');
  expect(messages[1]!.content.resource?.text).toBe('kept text');
  expect(messages[2]!.content.resource?.text).toBe('A is Ann');
  const read = await h.rpc(session, 'resources/read', { uri: 'mem://keep/doc' });
  expect(read.result).toEqual({ contents: [{ uri: 'mem://keep/doc', mimeType: 'text/plain', text: 'kept text' }] });
  expect(await snapshotSentinels(makeClient(core).call, sentinels)).toEqual(before);
});
