// Configuration from the environment (spec §4); flags override.
import { normaliseDatabaseUrl } from './db/create-db.js';
import { ConfigError } from './config-error.js';
import { parseUriSchemes } from './core/uri-schemes.js';
import { parseAllowedHosts } from './http/host-allowlist.js';
import type { SessionLimits } from './mcp/session-table.js';
import type { EventStreamLimits } from './rest/events/stream-registry.js';

import { isLoopbackHost } from './http/host-allowlist.js';

export { isLoopbackHost as isLoopback } from './http/host-allowlist.js';

export interface Config {
  databaseUrl: string;
  host: string;
  port: number;
  adminToken?: string;
  mcpToken?: string;
  instanceId?: string;
  logLevel: string;
  /** PROMPTD_URI_SCHEMES parsed (null: any scheme but the refused ones); the core's schemas read the variable itself. */
  uriSchemes: ReadonlySet<string> | null;
  /** PROMPTD_ALLOWED_HOSTS: Host names accepted besides the loopback ones (every route). */
  allowedHosts: string[];
  /** PROMPTD_ALLOWED_ORIGINS: browser Origins (scheme://host[:port]) accepted besides those of the allowed Host names. */
  allowedOrigins: string[];
  /** PROMPTD_PUBLIC_URL: the URL clients reach promptd at (behind a proxy); default the listening URL. */
  publicUrl?: string;
  /** PROMPTD_OAUTH_ISSUER (+ PROMPTD_OAUTH_AUDIENCE): MCP accepts this issuer's access tokens (docs/authorization.md). */
  oauth?: { issuer: string; audience?: string };
  /** PROMPTD_TRUST_PROXY: take the client address from X-Forwarded-For (per-client MCP session cap, rate limits of unauthenticated clients). */
  trustProxy: boolean;
  /** PROMPTD_RATE_LIMITS: on unless `off` (or 0, false, no); the numbers are a setting (docs/rate-limits.md). */
  rateLimits: boolean;
  /** PROMPTD_MCP_IDLE_TIMEOUT (s), PROMPTD_MCP_SESSIONS_PER_CLIENT, PROMPTD_MCP_MAX_SESSIONS. */
  mcpSessions: Partial<SessionLimits>;
  /** PROMPTD_MCP_MAX_SUBSCRIPTIONS: resources/subscribe entries per MCP session. */
  mcpMaxSubscriptions?: number;
  /** PROMPTD_EVENTS_STREAMS_PER_TOKEN, PROMPTD_EVENTS_STREAMS_MAX, PROMPTD_EVENTS_STREAM_LIFETIME (s). */
  events: Partial<EventStreamLimits>;
  /** PROMPTD_METRICS=1: GET /metrics is open (for a scraper on a private network); otherwise it needs an admin token. */
  metricsOpen: boolean;
}

/** A whole number from the environment within [min, max], or undefined when unset; anything else is an error naming the variable. */
function whole(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return n;
}

/** An on/off switch from the environment (unset: off); anything but the usual spellings is an error naming the variable. */
function toggle(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['', '0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (also true/false, yes/no, on/off) (got "${env[name]}")`);
}

const defined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Partial<Config> = {}): Config {
  const config = readConfig(env, flags);
  // The resource URI defaults to the listening URL, which names no reachable host on a wildcard bind.
  if (config.oauth && !config.oauth.audience && !config.publicUrl && ['0.0.0.0', '::', '[::]', ''].includes(config.host)) {
    throw new ConfigError(`PROMPTD_OAUTH_ISSUER with HOST=${config.host || '""'} needs PROMPTD_PUBLIC_URL (or PROMPTD_OAUTH_AUDIENCE): the resource URI tokens are issued for`);
  }
  return config;
}

function readConfig(env: NodeJS.ProcessEnv, flags: Partial<Config>): Config {
  const port = flags.port ?? (env.PORT?.trim() ? parsePort(env.PORT, 'PORT') : 3000);
  const seconds = (name: string, min: number, max: number) => {
    const s = whole(env, name, min, max);
    return s === undefined ? undefined : s * 1000;
  };
  return {
    databaseUrl: normaliseDatabaseUrl(flags.databaseUrl ?? env.DATABASE_URL),
    host: flags.host ?? env.HOST ?? '127.0.0.1',
    port,
    adminToken: flags.adminToken ?? (env.PROMPTD_ADMIN_TOKEN || undefined),
    mcpToken: flags.mcpToken ?? (env.PROMPTD_MCP_TOKEN || undefined),
    instanceId: flags.instanceId ?? (env.PROMPTD_INSTANCE_ID?.match(/^[A-Za-z0-9_]{1,32}$/) ? env.PROMPTD_INSTANCE_ID : undefined),
    logLevel: flags.logLevel ?? env.LOG_LEVEL ?? 'info',
    // Parsed here so that a malformed list stops start-up instead of refusing every write.
    uriSchemes: parseUriSchemes(env.PROMPTD_URI_SCHEMES),
    allowedHosts: flags.allowedHosts ?? parseAllowedHosts(env.PROMPTD_ALLOWED_HOSTS),
    allowedOrigins: flags.allowedOrigins ?? parseAllowedOrigins(env.PROMPTD_ALLOWED_ORIGINS),
    publicUrl: flags.publicUrl ?? httpUrl(env, 'PROMPTD_PUBLIC_URL'),
    oauth: flags.oauth ?? oauthConfig(env),
    trustProxy: flags.trustProxy ?? ['1', 'true', 'yes', 'on'].includes((env.PROMPTD_TRUST_PROXY ?? '').toLowerCase()),
    rateLimits: flags.rateLimits ?? !['0', 'false', 'no', 'off'].includes((env.PROMPTD_RATE_LIMITS ?? '').trim().toLowerCase()),
    mcpSessions: flags.mcpSessions ?? defined({
      idleMs: seconds('PROMPTD_MCP_IDLE_TIMEOUT', 60, 7 * 24 * 3600),
      perClient: whole(env, 'PROMPTD_MCP_SESSIONS_PER_CLIENT', 1, 100_000),
      max: whole(env, 'PROMPTD_MCP_MAX_SESSIONS', 1, 100_000),
    }),
    mcpMaxSubscriptions: flags.mcpMaxSubscriptions ?? whole(env, 'PROMPTD_MCP_MAX_SUBSCRIPTIONS', 0, 100_000),
    events: flags.events ?? defined({
      perToken: whole(env, 'PROMPTD_EVENTS_STREAMS_PER_TOKEN', 1, 10_000),
      total: whole(env, 'PROMPTD_EVENTS_STREAMS_MAX', 1, 100_000),
      maxLifetimeMs: seconds('PROMPTD_EVENTS_STREAM_LIFETIME', 60, 7 * 24 * 3600),
    }),
    metricsOpen: flags.metricsOpen ?? toggle(env, 'PROMPTD_METRICS'),
  };
}

/** An http(s) URL from the environment without a trailing slash, or undefined when unset. */
function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got "${raw}")`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new ConfigError(`${name} must be an absolute http(s) URL (got "${raw}")`);
  return raw.replace(/\/+$/, '');
}

function oauthConfig(env: NodeJS.ProcessEnv): Config['oauth'] {
  const raw = env.PROMPTD_OAUTH_ISSUER?.trim();
  if (!raw) {
    if (env.PROMPTD_OAUTH_AUDIENCE?.trim()) throw new ConfigError('PROMPTD_OAUTH_AUDIENCE is set but PROMPTD_OAUTH_ISSUER is not: set the issuer too');
    return undefined;
  }
  httpUrl(env, 'PROMPTD_OAUTH_ISSUER');
  // OAuth 2.1 wants TLS to the authorization server; plain http only for a loopback issuer (development, tests).
  const u = new URL(raw);
  if (u.protocol !== 'https:' && !isLoopbackHost(u.hostname)) throw new ConfigError(`PROMPTD_OAUTH_ISSUER must be an https URL (http only on loopback; got "${raw}")`);
  const audience = httpUrl(env, 'PROMPTD_OAUTH_AUDIENCE');
  // The issuer is compared with `iss` exactly as configured: no trailing-slash normalisation here.
  return { issuer: raw, ...(audience ? { audience } : {}) };
}

/** Parses PROMPTD_ALLOWED_ORIGINS (comma- or space-separated origins; a bad entry is an error naming it). */
export function parseAllowedOrigins(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean).map((entry) => {
    try {
      const u = new URL(entry);
      if (u.origin === 'null') throw new Error('opaque');
      return u.origin;
    } catch {
      throw new ConfigError(`PROMPTD_ALLOWED_ORIGINS: "${entry}" is not an origin (scheme://host[:port])`);
    }
  });
}

/** A TCP port, 0-65535 (0 picks a free one); anything else is refused, never replaced by a default. */
export function parsePort(raw: string, from: string): number {
  const n = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || n > 65535) throw new ConfigError(`${from} must be a port number from 0 to 65535 (got "${raw}")`);
  return n;
}
