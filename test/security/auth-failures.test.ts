// Issue 36.13: failed authentications are counted in the metrics
// (promptd_auth_failures_total by face: admin, mcp, read, events) and written to the
// audit as `auth.failed`, aggregated per minute, face, address and token prefix, with
// distinct keys capped and never more of a presented token than a short prefix. Both
// databases (PROMPTD_TEST_DB=postgres).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import { migrateDatabase } from '../../src/db/create-db.js';
import { createApp } from '../../src/http/app.js';
import { createMcpHttpApp } from '../../src/mcp/http.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { coreSources } from '../../src/metrics/core-sources.js';
import { createAuthFailureLog, FAILURE_PREFIX, failurePrefix, MAX_FAILURE_KEYS } from '../../src/core/services/auth-failures.js';
import { coreOn, freshStore, tempDbUrl, type TestCore } from '../helpers/db.js';
import { parseExposition } from '../helpers/prometheus.js';

const ADMIN = 'auth-failures-admin';
const GUESS = 'pd_guessedTokenThatIsNotStoredAnywhere0123456789abcdefgh';
let core: TestCore;
let server: ServerType;
let mcp: ReturnType<typeof createMcpHttpApp>;
let base = '';

beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { adminToken: ADMIN, authFailureFlushMs: 0 });
  const metrics = createMetrics({ defaultMetrics: false });
  metrics.watch(coreSources(core));
  let port = 0;
  // PROMPTD_MCP_TOKEN set: /mcp needs a token.
  mcp = createMcpHttpApp({ core, host: '127.0.0.1', get port() { return port; }, token: 'shared-mcp' });
  const app = createApp({ core, mcp: mcp.app, metrics: { instruments: metrics, open: true } });
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  await mcp?.closeAll();
  (server as http.Server | undefined)?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await core?.close();
});

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

describe('failed authentications', () => {
  it('are counted by face in /metrics and written to the audit per address and token prefix', async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/admin/v1/prompts`, { headers: bearer(GUESS) })).status).toBe(401);
    expect((await fetch(`${base}/admin/v1/prompts`)).status).toBe(401);
    expect((await fetch(`${base}/v1/prompts/x`, { headers: bearer(GUESS) })).status).toBe(401);
    expect((await fetch(`${base}/admin/v1/events?ticket=st_not-a-ticket-at-all-0123456789abcdef`)).status).toBe(401);
    const mcpRes = await fetch(`${base}/mcp`, {
      method: 'POST', headers: { ...bearer('pdm_wrong-token-for-mcp-0123456789'), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(mcpRes.status).toBe(401);
    // A valid token is no failure.
    expect((await fetch(`${base}/admin/v1/prompts`, { headers: bearer(ADMIN) })).status).toBe(200);

    const scrape = parseExposition(await (await fetch(`${base}/metrics`)).text());
    expect(scrape.types.get('promptd_auth_failures_total')).toBe('counter');
    expect(scrape.value('promptd_auth_failures_total', { face: 'admin' })).toBe(4);
    expect(scrape.value('promptd_auth_failures_total', { face: 'read' })).toBe(1);
    expect(scrape.value('promptd_auth_failures_total', { face: 'events' })).toBe(1);
    expect(scrape.value('promptd_auth_failures_total', { face: 'mcp' })).toBe(1);
    expect(scrape.all('promptd_auth_failures_total').map((s) => s.labels.face).sort()).toEqual(['admin', 'events', 'mcp', 'read']);

    await core.authFailures.flush();
    const res = await fetch(`${base}/admin/v1/audit?action=auth.failed`, { headers: bearer(ADMIN) });
    expect(res.status).toBe(200);
    const body = await res.text();
    const items = (JSON.parse(body) as { items: { action: string; entityKey: string; details: { face: string; address: string; prefix: string; count: number; minute: string } }[] }).items;
    const rows = items.map((e) => e.details).map(({ face, prefix, count, address }) => ({ face, prefix, count, address }));
    // One row per (minute, face, address, prefix): the three guesses are one row of 3.
    // (A test crossing a minute boundary would split a row; the counts still add up.)
    const total = (face: string, prefix: string) => rows.filter((r) => r.face === face && r.prefix === prefix).reduce((n, r) => n + r.count, 0);
    expect(total('admin', GUESS.slice(0, FAILURE_PREFIX))).toBe(3);
    expect(total('admin', '')).toBe(1);
    expect(total('read', GUESS.slice(0, FAILURE_PREFIX))).toBe(1);
    expect(total('events', 'st_not-a')).toBe(1);
    expect(total('mcp', 'pdm_wron')).toBe(1);
    expect(new Set(rows.map((r) => r.address))).toEqual(new Set(['127.0.0.1']));
    // Never the presented token.
    expect(body).not.toContain(GUESS.slice(0, FAILURE_PREFIX + 1));
    expect(body).not.toContain('st_not-a-');
    // The activity page (changes) leaves them out; the audit shows them.
    const activity = await (await fetch(`${base}/admin/v1/activity`, { headers: bearer(ADMIN) })).json() as { items: { action: string }[] };
    expect(activity.items.map((e) => e.action)).not.toContain('auth.failed');
  });

  it('keeps at most a quarter of a short token, and caps distinct keys per minute (the rest in one overflow row)', async () => {
    expect(failurePrefix('abcd1234')).toBe('ab');
    expect(failurePrefix('x')).toBe('');
    expect(failurePrefix(undefined)).toBe('');
    expect(failurePrefix('pd_\u0000\u0001abcdefghijklmnopqrstuvwxyz')).toBe('pd_??ab');
    const store = await freshStore();
    try {
      const log = createAuthFailureLog({ store, flushMs: 0, now: () => Date.UTC(2026, 0, 1, 12, 0, 30) });
      for (let i = 0; i < MAX_FAILURE_KEYS + 50; i++) log.record({ face: 'admin', address: `10.0.${i >> 8}.${i & 255}`, presented: `pd_${String(i).padStart(6, '0')}xxxxxxxxxxxxxxxxxxxxxxxx` });
      await log.stop();
      const events = (await store.read.events.after(0, 10_000)).filter((e) => e.action === 'auth.failed');
      expect(events).toHaveLength(MAX_FAILURE_KEYS + 1);
      const overflow = events.find((e) => e.details?.address === '(other)');
      expect(overflow?.details).toMatchObject({ count: 50, prefix: '', face: 'admin', minute: '2026-01-01T12:00:00.000Z' });
      expect(events.reduce((n, e) => n + (e.details!.count as number), 0)).toBe(MAX_FAILURE_KEYS + 50);
    } finally {
      await store.close();
    }
  });
});
