// Issue 25.3: the Host check (DNS rebinding) existed only on /mcp; /admin and
// /admin/v1 answered any Host. One allow-list (loopback names when bound to
// loopback, plus PROMPTD_ALLOWED_HOSTS) now applies to every route; only the health
// probes answer any Host.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { loadConfig, isLoopback } from '../../src/config.js';
import { createHostAllowList, isLoopbackHost } from '../../src/http/host-allowlist.js';
import { tempDbUrl } from '../helpers/db.js';

const ADMIN = 'host-allowlist-admin';
let srv: RunningServer;
let port: number;

function raw(path: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hosts', version: '1' } } });
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

beforeAll(async () => {
  srv = await startServer({ databaseUrl: await tempDbUrl(), port: 0, seed: false, adminToken: ADMIN, allowedHosts: ['promptd.example', 'other.example:8443'], logger: createLogger('silent') });
  port = Number(new URL(srv.url).port);
}, 120_000);
afterAll(() => srv?.close());

describe('one Host allow-list on every route', () => {
  it('a foreign Host is refused with 403 on the admin API, the admin UI, the OpenAPI document and /mcp, even with a valid token', async () => {
    const auth = { authorization: `Bearer ${ADMIN}` };
    for (const host of ['evil.example', `evil.example:${port}`, 'other.example:9999', `promptd.example.evil.example`]) {
      for (const path of ['/admin/v1/prompts', '/admin/v1/openapi.json', '/admin/', '/admin/v1/events', '/']) {
        const res = await raw(path, 'GET', { host, ...auth });
        expect(res.status, `${host} ${path}`).toBe(403);
        expect(res.headers['content-type'], `${host} ${path}`).toContain('application/problem+json');
        expect(JSON.parse(res.body).detail).toContain('PROMPTD_ALLOWED_HOSTS');
      }
      const mcp = await raw('/mcp', 'POST', { host, ...mcpHeaders }, initialize);
      expect(mcp.status, `${host} /mcp`).toBe(403);
      expect(JSON.parse(mcp.body).error.code).toBe(-32000);
      expect((await raw('/sse', 'GET', { host })).status, `${host} /sse`).toBe(403);
    }
  });

  it('loopback names (with our port or none) and PROMPTD_ALLOWED_HOSTS entries pass, on every route', async () => {
    const auth = { authorization: `Bearer ${ADMIN}` };
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `[::1]:${port}`, 'promptd.example', 'PROMPTD.example:443', 'other.example:8443']) {
      expect((await raw('/admin/v1/prompts', 'GET', { host, ...auth })).status, host).toBe(200);
      const mcp = await raw('/mcp', 'POST', { host, ...mcpHeaders, ...(host.startsWith('promptd') ? { origin: 'https://promptd.example' } : {}) }, initialize);
      expect(mcp.status, `${host} /mcp`).toBe(200);
    }
    // A loopback name on another port is another server (or a forwarded one): refused.
    expect((await raw('/admin/v1/prompts', 'GET', { host: `localhost:${port + 1}`, ...auth })).status).toBe(403);
  });

  it('the health probes answer any Host (Kubernetes sends the pod address)', async () => {
    expect((await raw('/healthz', 'GET', { host: '10.1.2.3:3000' })).status).toBe(200);
    expect((await raw('/readyz', 'GET', { host: '10.1.2.3:3000' })).status).toBe(200);
  });
});

describe('the allow-list setting', () => {
  it('PROMPTD_ALLOWED_HOSTS is parsed into the config; loopback has one definition', () => {
    expect(loadConfig({ PROMPTD_ALLOWED_HOSTS: 'a.example, B.example:8443  c.example' }).allowedHosts).toEqual(['a.example', 'b.example:8443', 'c.example']);
    expect(loadConfig({}).allowedHosts).toEqual([]);
    expect(isLoopback).toBe(isLoopbackHost);
    for (const h of ['127.0.0.1', '127.9.9.9', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['127.example.com', '0.0.0.0', '10.0.0.1', 'localhost.evil']) expect(isLoopbackHost(h), h).toBe(false);
  });

  it('bound to a non-loopback interface, Host is checked only when PROMPTD_ALLOWED_HOSTS is set', () => {
    expect(createHostAllowList({ host: '0.0.0.0', port: 3000 }).allowsHost('anything.example')).toBe(true);
    const list = createHostAllowList({ host: '10.0.0.5', port: 3000, allowedHosts: ['promptd.example'] });
    expect(list.active).toBe(true);
    expect(list.allowsHost('promptd.example')).toBe(true);
    expect(list.allowsHost('10.0.0.5:3000')).toBe(true);
    expect(list.allowsHost('localhost:3000')).toBe(true);
    expect(list.allowsHost('evil.example')).toBe(false);
    expect(list.allowsHost(undefined)).toBe(false);
    expect(list.allowsOrigin('https://promptd.example')).toBe(true);
    expect(list.allowsOrigin('https://evil.example')).toBe(false);
    expect(list.allowsOrigin('null')).toBe(false);
  });
});
