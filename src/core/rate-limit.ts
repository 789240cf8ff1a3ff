// Per-client request rate limits: one token bucket per (client, class of request),
// held in this process's memory. Limits are per instance: N instances behind a load
// balancer admit up to N times the configured rate (docs/rate-limits.md).
//
// A bucket holds at most one minute's allowance and refills continuously, so a
// client may burst the whole per-minute limit and then goes at the steady rate.
// Buckets live in one Map kept in least-recently-used order and capped in size:
// a client spraying fresh addresses evicts the oldest buckets instead of growing
// memory. An evicted bucket comes back full, which only ever errs towards admitting.

/** What a request is counted as: an MCP request, an admin write, an admin (or read API) read. */
export type RateClass = 'mcp' | 'write' | 'read';

export interface RateLimits {
  /** MCP requests per minute over HTTP (Streamable HTTP and legacy SSE POSTs). */
  mcpPerMinute: number;
  /** Admin API requests that change something (every method but GET, HEAD, OPTIONS). */
  adminWritesPerMinute: number;
  /** Admin API and read API (/v1) GET requests. */
  adminReadsPerMinute: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { mcpPerMinute: 600, adminWritesPerMinute: 120, adminReadsPerMinute: 600 };
/** Buckets kept at most (per process); about 100 bytes each. */
export const DEFAULT_MAX_BUCKETS = 10_000;

/** Who a request is counted against. */
export interface RateSubject {
  /** Stable bucket key: `token:<id>`, `env:admin`, `env:mcp`, `ip:<address>`. */
  key: string;
  /** How the refusal names the client: `token "ci-bot"`, `address 10.0.0.7`. */
  label: string;
  /** The token's own limits (ApiToken.mcpRatePerMinute / writeRatePerMinute), when set. */
  mcpPerMinute?: number | null;
  writesPerMinute?: number | null;
}

export interface RateRefusal {
  /** The limit that was hit, per minute. */
  limit: number;
  /** Whole seconds until one request is admitted again (at least 1). */
  retryAfterSeconds: number;
  /** `rate limit: 600 requests per minute for token "x"; retry in 3 s` */
  message: string;
}

interface Bucket {
  tokens: number;
  /** ms timestamp of the last refill */
  at: number;
}

const MINUTE_MS = 60_000;

/**
 * Token buckets keyed by string, at most `maxBuckets` of them (least recently used
 * evicted first). `take` answers 0 when a request is admitted, else the ms until
 * one would be.
 */
export function createTokenBuckets({ now = () => Date.now(), maxBuckets = DEFAULT_MAX_BUCKETS }: { now?: () => number; maxBuckets?: number } = {}) {
  const buckets = new Map<string, Bucket>();
  return {
    take(key: string, perMinute: number): number {
      const t = now();
      let b = buckets.get(key);
      if (b) {
        buckets.delete(key);
        // A clock that went back refills nothing rather than draining the bucket.
        b.tokens = Math.min(perMinute, b.tokens + (Math.max(0, t - b.at) * perMinute) / MINUTE_MS);
        b.at = t;
      } else {
        b = { tokens: perMinute, at: t };
        if (buckets.size >= maxBuckets) buckets.delete(buckets.keys().next().value!);
      }
      // Re-inserted last: Map order is the LRU order.
      buckets.set(key, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil(((1 - b.tokens) * MINUTE_MS) / perMinute));
    },
    size: () => buckets.size,
    has: (key: string) => buckets.has(key),
  };
}

const NOUN: Record<RateClass, string> = { mcp: 'requests', write: 'admin writes', read: 'admin reads' };

/** The limit of `cls` for `subject`: the token's own, else the instance setting. */
export function limitFor(subject: RateSubject, cls: RateClass, limits: RateLimits): number {
  if (cls === 'mcp') return subject.mcpPerMinute ?? limits.mcpPerMinute;
  if (cls === 'write') return subject.writesPerMinute ?? limits.adminWritesPerMinute;
  return limits.adminReadsPerMinute;
}

export interface RateLimiterDeps {
  /** The instance's current limits (a cached setting; read on every request). */
  limits: () => RateLimits;
  now?: () => number;
  maxBuckets?: number;
}

export function createRateLimiter({ limits, now, maxBuckets }: RateLimiterDeps) {
  const buckets = createTokenBuckets({ now, maxBuckets });
  return {
    /** Counts one request; null when admitted, else why not and for how long. */
    check(subject: RateSubject, cls: RateClass): RateRefusal | null {
      const limit = limitFor(subject, cls, limits());
      const waitMs = buckets.take(`${cls}|${subject.key}`, limit);
      if (waitMs === 0) return null;
      const retryAfterSeconds = Math.ceil(waitMs / 1000);
      return { limit, retryAfterSeconds, message: `rate limit: ${limit} ${NOUN[cls]} per minute for ${subject.label}; retry in ${retryAfterSeconds} s` };
    },
    /** Buckets held (tests check the cap). */
    size: () => buckets.size(),
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The subject of an unauthenticated request: its client address. */
export const addressSubject = (address: string): RateSubject => ({ key: `ip:${address}`, label: `address ${address}` });
