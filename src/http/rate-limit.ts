// Rate-limit refusals of the HTTP faces, from the core's token buckets
// (src/core/rate-limit.ts): who a request counts against, and the 429 each face sends.
import type { Context } from 'hono';
import { addressSubject, type RateLimiter, type RateRefusal, type RateSubject } from '../core/rate-limit.js';
import { problemResponse } from '../rest/problem.js';
import { clientAddress } from './client-address.js';

/** What the REST and MCP HTTP faces need to count requests. */
export interface RateLimitOptions {
  limiter: RateLimiter;
  /** PROMPTD_TRUST_PROXY: unauthenticated clients are told apart by the last X-Forwarded-For entry. */
  trustProxy?: boolean;
}

/** A request authenticated with a stored token, a configured token, or (stream tickets) only an actor. */
export interface KnownCaller {
  actor: string;
  tokenId: number | null;
  name?: string;
  mcpRatePerMinute?: number | null;
  writeRatePerMinute?: number | null;
}

/** Stored tokens count by id (a rename keeps the bucket), configured ones by which variable they are. */
export function callerSubject(p: KnownCaller): RateSubject {
  const rates = { mcpPerMinute: p.mcpRatePerMinute ?? null, writesPerMinute: p.writeRatePerMinute ?? null };
  if (p.tokenId !== null) return { key: `token:${p.tokenId}`, label: `token "${p.name ?? p.actor}"`, ...rates };
  // PROMPTD_ADMIN_TOKEN's actor is `admin` (a stream ticket carries only the actor).
  const name = p.name ?? (p.actor === 'admin' ? 'PROMPTD_ADMIN_TOKEN' : p.actor);
  return { key: `env:${name}`, label: name, ...rates };
}

export const requestSubject = (c: Context, opts: RateLimitOptions): RateSubject => addressSubject(clientAddress(c, opts.trustProxy));

const retryAfter = (r: RateRefusal) => ({ 'retry-after': String(r.retryAfterSeconds) });

/** REST: 429 problem+json naming the limit, with Retry-After in whole seconds. */
export function problemTooMany(c: Context, r: RateRefusal): Response {
  const res = problemResponse(c, 429, 'Too Many Requests', r.message);
  res.headers.set('retry-after', String(r.retryAfterSeconds));
  return res;
}

/** MCP over HTTP: HTTP 429 carrying a JSON-RPC error for the request's id (null when it had none or was a batch). */
export function rpcTooMany(r: RateRefusal, id: unknown): Response {
  const rpcId = typeof id === 'string' || typeof id === 'number' ? id : null;
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: rpcId, error: { code: -32000, message: r.message } }), {
    status: 429,
    headers: { 'content-type': 'application/json', ...retryAfter(r) },
  });
}
