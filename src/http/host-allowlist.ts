// One Host allow-list for every route (admin UI, admin API, MCP), against DNS
// rebinding: a page on evil.example whose name resolves to our address reaches
// the server, but its requests carry `Host: evil.example` (and its Origin).
// Bound to loopback, only loopback names pass, plus PROMPTD_ALLOWED_HOSTS; bound
// elsewhere, Host is checked only when PROMPTD_ALLOWED_HOSTS is set (a wildcard bind
// cannot know the names it is reached by).
// Origin (a browser's cross-site request) is checked on every bind: requests without
// one (curl, MCP clients, server-side code) pass; a browser Origin passes only when
// its host is an allowed Host name (loopback, the bound address, PROMPTD_ALLOWED_HOSTS,
// PROMPTD_PUBLIC_URL's) or it is listed in PROMPTD_ALLOWED_ORIGINS.

import { isLoopbackHost } from '../core/loopback.js';

export { isLoopbackHost };

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_BINDS = ['0.0.0.0', '::', '[::]', ''];

export interface HostAllowListOptions {
  /** The interface the server is bound to. */
  host: string;
  /** The bound port; read on every check, so a getter resolved after listen works. */
  port: number;
  /** PROMPTD_ALLOWED_HOSTS: `name` (any port) or `name:port` entries. */
  allowedHosts?: string[];
  /** PROMPTD_ALLOWED_ORIGINS: exact origins (scheme://host[:port]) accepted on every bind. */
  allowedOrigins?: string[];
  /** PROMPTD_PUBLIC_URL: its host name is accepted as an Origin. */
  publicUrl?: string;
}

export interface HostAllowList {
  /** False when every Host passes (bound to a non-loopback interface, no list configured). */
  readonly active: boolean;
  allowsHost(header: string | undefined): boolean;
  /** An Origin header passes when its host name is one of the allowed names or it is a listed origin (every bind). */
  allowsOrigin(origin: string): boolean;
}

/** Splits `name[:port]` (IPv6 in brackets), lower-cased. */
export function splitHostPort(value: string): { name: string; port?: string } {
  const v = value.trim().toLowerCase();
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(v);
  return m ? { name: m[1]!, ...(m[2] ? { port: m[2] } : {}) } : { name: v };
}

/** Parses PROMPTD_ALLOWED_HOSTS (comma- or space-separated). */
export function parseAllowedHosts(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).map((s) => s.trim().toLowerCase()).filter(Boolean);
}

export function createHostAllowList(opts: HostAllowListOptions): HostAllowList {
  const extra = (opts.allowedHosts ?? []).map(splitHostPort);
  const loopback = isLoopbackHost(opts.host);
  const active = loopback || extra.length > 0;
  // Loopback names pass with our port or none; a specific bound address too.
  const ownNames = new Set(LOOPBACK_NAMES);
  const bound = splitHostPort(opts.host.includes(':') && !opts.host.startsWith('[') ? `[${opts.host}]` : opts.host).name;
  if (!WILDCARD_BINDS.includes(bound)) ownNames.add(bound);
  const anyPort = new Set(extra.filter((e) => !e.port).map((e) => e.name));
  const exact = new Set(extra.filter((e) => e.port).map((e) => `${e.name}:${e.port}`));
  const originNames = new Set([...ownNames, ...extra.map((e) => e.name)]);
  if (opts.publicUrl) originNames.add(new URL(opts.publicUrl).hostname.toLowerCase());
  const origins = new Set(opts.allowedOrigins ?? []);
  return {
    active,
    allowsHost(header) {
      if (!active) return true;
      if (!header) return false;
      const { name, port } = splitHostPort(header);
      if (anyPort.has(name) || (port && exact.has(`${name}:${port}`))) return true;
      return ownNames.has(name) && (port === undefined || port === String(opts.port));
    },
    allowsOrigin(origin) {
      let name = '';
      try {
        const u = new URL(origin);
        if (origins.has(u.origin)) return true;
        name = u.hostname.toLowerCase();
      } catch {
        return false; // "null" or garbage
      }
      return originNames.has(name) || originNames.has(`[${name}]`) || originNames.has(name.replace(/^\[|\]$/g, ''));
    },
  };
}
