// Issue 19 hardening: Origin checked on every bind (PROMPTD_ALLOWED_ORIGINS), MCP
// refused off loopback without authentication (--allow-unauthenticated-mcp), the
// admin's security headers, one definition of loopback.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApp } from '../../src/http/app.js';
import { createHostAllowList } from '../../src/http/host-allowlist.js';
import { createMcpHttpApp } from '../../src/mcp/http.js';
import { protectedResourceApp } from '../../src/http/protected-resource.js';
import { startServer } from '../../src/server.js';
import { UnauthenticatedMcpError, hasMcpAuthentication } from '../../src/mcp/mcp-auth.js';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/config-error.js';
import { createLogger } from '../../src/logger.js';
import { projectRoot } from '../../src/paths.js';
import { makeCore, tempDbUrl, type TestCore } from '../helpers/db.js';
import { runPromptd } from '../helpers/spawn.js';

const ADMIN = 'exposure-admin';
let core: TestCore;
beforeAll(async () => {
  core = await makeCore({ adminToken: ADMIN });
}, 60_000);
afterAll(() => core?.close());

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'o', version: '1' } } });
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('Origin on every bind', () => {
  // Bound to every interface with no PROMPTD_ALLOWED_HOSTS: Host is not checked, Origin is.
  const build = () => {
    const hosts = createHostAllowList({ host: '0.0.0.0', port: 3000, allowedOrigins: ['https://admin.example'], publicUrl: 'https://promptd.example' });
    const mcp = createMcpHttpApp({ core, host: '0.0.0.0', port: 3000, hosts });
    const app = createApp({ core, hosts, mcp: mcp.app, mcpLegacy: mcp.legacyApp, wellKnown: protectedResourceApp({ issuer: 'https://issuer.example', resource: () => 'https://promptd.example/mcp' }) });
    return { app, mcp };
  };

  it('a foreign Origin is refused (403) on the admin API, the admin UI and MCP; no Origin, listed origins and the public URL pass', async () => {
    const { app, mcp } = build();
    const auth = { authorization: `Bearer ${ADMIN}`, host: 'anything.example' };
    for (const origin of ['https://evil.example', 'http://promptd.example.evil.example', 'null']) {
      const api = await app.request('/admin/v1/prompts', { headers: { ...auth, origin } });
      expect(api.status, origin).toBe(403);
      expect((await api.json()).detail).toContain('PROMPTD_ALLOWED_ORIGINS');
      expect((await app.request('/admin/', { headers: { origin } })).status, origin).toBe(403);
      const rpc = await app.request('/mcp', { method: 'POST', headers: { ...mcpHeaders, origin }, body: initialize });
      expect(rpc.status, origin).toBe(403);
      expect((await rpc.json()).error.code).toBe(-32000);
    }
    expect((await app.request('/admin/v1/prompts', { headers: auth })).status).toBe(200);
    for (const origin of ['https://admin.example', 'https://promptd.example', 'http://localhost:5173', 'http://127.0.0.1:3000']) {
      expect((await app.request('/admin/v1/prompts', { headers: { ...auth, origin } })).status, origin).toBe(200);
    }
    expect((await app.request('/mcp', { method: 'POST', headers: mcpHeaders, body: initialize })).status).toBe(200);
    // Public metadata is readable cross-origin (browser-based MCP clients), and so are the probes.
    const prm = await app.request('/.well-known/oauth-protected-resource/mcp', { headers: { origin: 'https://evil.example' } });
    expect(prm.status).toBe(200);
    expect(prm.headers.get('access-control-allow-origin')).toBe('*');
    expect((await app.request('/healthz', { headers: { origin: 'https://evil.example' } })).status).toBe(200);
    await mcp.closeAll();
  });

  it('PROMPTD_ALLOWED_ORIGINS and PROMPTD_PUBLIC_URL are parsed; a bad entry names the variable', () => {
    const c = loadConfig({ PROMPTD_ALLOWED_ORIGINS: 'https://a.example, http://b.example:8080/', PROMPTD_PUBLIC_URL: 'https://promptd.example/' });
    expect(c.allowedOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(c.publicUrl).toBe('https://promptd.example');
    expect(() => loadConfig({ PROMPTD_ALLOWED_ORIGINS: 'not an origin' })).toThrow(/PROMPTD_ALLOWED_ORIGINS/);
    expect(() => loadConfig({ PROMPTD_PUBLIC_URL: 'ftp://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ PROMPTD_OAUTH_ISSUER: 'http://issuer.example' })).toThrow(/https/);
    expect(() => loadConfig({ PROMPTD_OAUTH_AUDIENCE: 'https://promptd.example/mcp' })).toThrow(/PROMPTD_OAUTH_ISSUER/);
    expect(loadConfig({ PROMPTD_OAUTH_ISSUER: 'https://issuer.example', PROMPTD_OAUTH_AUDIENCE: 'https://promptd.example/mcp' }).oauth).toEqual({ issuer: 'https://issuer.example', audience: 'https://promptd.example/mcp' });
    expect(loadConfig({ PROMPTD_OAUTH_ISSUER: 'http://127.0.0.1:9000' }).oauth?.issuer).toBe('http://127.0.0.1:9000');
    // On a wildcard bind the listening URL is no resource URI: the public URL must be given.
    expect(() => loadConfig({ PROMPTD_OAUTH_ISSUER: 'https://issuer.example', HOST: '0.0.0.0' })).toThrow(/PROMPTD_PUBLIC_URL/);
    expect(loadConfig({ PROMPTD_OAUTH_ISSUER: 'https://issuer.example', HOST: '0.0.0.0', PROMPTD_PUBLIC_URL: 'https://p.example' }).host).toBe('0.0.0.0');
  });
});

describe('MCP off loopback needs authentication', () => {
  it('startServer on 0.0.0.0 with no MCP token and no issuer refuses to start', async () => {
    await expect(startServer({ databaseUrl: await tempDbUrl(), host: '0.0.0.0', port: 0, seed: false, adminToken: ADMIN, logger: createLogger('silent') })).rejects.toBeInstanceOf(UnauthenticatedMcpError);
  });

  it('with --allow-unauthenticated-mcp it starts and logs a warning; with a token it starts quietly', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) });
    const srv = await startServer({ databaseUrl: await tempDbUrl(), host: '0.0.0.0', port: 0, seed: false, adminToken: ADMIN, logger, allowUnauthenticatedMcp: true });
    await srv.close();
    expect(lines.some((l) => JSON.parse(l).level === 40 && /WITHOUT AUTHENTICATION/.test(JSON.parse(l).msg))).toBe(true);
    lines.length = 0;
    const tokened = await startServer({ databaseUrl: await tempDbUrl(), host: '0.0.0.0', port: 0, seed: false, adminToken: ADMIN, mcpToken: 'm', logger });
    await tokened.close();
    expect(lines.some((l) => /WITHOUT AUTHENTICATION/.test(l))).toBe(false);
  });

  it('a stored MCP client token counts as MCP authentication (and only while it is active)', async () => {
    const url = await tempDbUrl();
    const stored = await makeCore({ url });
    try {
      expect(await hasMcpAuthentication({}, stored)).toBe(false);
      const { info } = await stored.tokens.create('cursor', 'test', { kind: 'mcp' });
      expect(await hasMcpAuthentication({}, stored)).toBe(true);
      await stored.tokens.revoke(info.id, 'test');
      expect(await hasMcpAuthentication({}, stored)).toBe(false);
      await stored.tokens.create('cursor-2', 'test', { kind: 'mcp' });
    } finally {
      await stored.close();
    }
    const srv = await startServer({ databaseUrl: url, host: '0.0.0.0', port: 0, seed: false, adminToken: ADMIN, logger: createLogger('silent') });
    await srv.close();
  });

  it('`promptd serve --host 0.0.0.0` exits 2 with one line naming what to set', async () => {
    const p = runPromptd(['serve', '--no-seed'], { DATABASE_URL: await tempDbUrl(), HOST: '0.0.0.0', PORT: '0', PROMPTD_ADMIN_TOKEN: 'x', PROMPTD_MCP_TOKEN: '', PROMPTD_OAUTH_ISSUER: '' });
    expect(await p.exited).toBe(2);
    const err = p.stderr().trim().split('\n').filter((l) => l.startsWith('promptd: error'));
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/PROMPTD_MCP_TOKEN.*PROMPTD_OAUTH_ISSUER.*--allow-unauthenticated-mcp/);
  }, 60_000);
});

describe('admin security headers', () => {
  it('/admin and /admin/v1 (docs page included) send a strict CSP, nosniff, no-referrer and DENY framing', async () => {
    const app = createApp({ core, hosts: createHostAllowList({ host: '127.0.0.1', port: 3000 }) });
    for (const p of ['/admin/', '/admin/prompts', '/admin/v1/prompts', '/admin/v1/docs', '/admin/v1/openapi.json']) {
      const res = await app.request(p, { headers: { host: 'localhost:3000', authorization: `Bearer ${ADMIN}` } });
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const d of ["script-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'", "default-src 'self'"]) expect(csp, `${p}: ${d}`).toContain(d);
      expect(csp, p).not.toMatch(/script-src[^;]*unsafe/);
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), p).toBe('no-referrer');
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
    }
    // The docs page has no inline script left.
    const docs = await (await app.request('/admin/v1/docs', { headers: { host: 'localhost:3000' } })).text();
    expect(docs).not.toMatch(/<script>(?!<\/script>)/);
    expect((await app.request('/admin/v1/docs/assets/docs-init.js', { headers: { host: 'localhost:3000' } })).status).toBe(200);
  });
});

describe('one definition of loopback', () => {
  it('no source file but src/core/loopback.ts spells out a loopback test', () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = path.join(d, f);
        if (statSync(p).isDirectory()) { if (f !== 'generated') walk(p); } else if (p.endsWith('.ts')) files.push(p);
      }
    };
    walk(path.join(projectRoot, 'src'));
    const defining = files.filter((f) => /\^127\\\\?\./.test(readFileSync(f, 'utf8')));
    expect(defining.map((f) => path.relative(projectRoot, f))).toEqual([path.join('src', 'core', 'loopback.ts')]);
  });
});
