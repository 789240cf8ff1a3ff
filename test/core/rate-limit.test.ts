// The token buckets and the limiter on an injected clock: burst, refill, Retry-After
// rounding, per-token overrides and the bucket cap.
import { describe, expect, it } from 'vitest';
import { addressSubject, createRateLimiter, createTokenBuckets, DEFAULT_RATE_LIMITS, type RateLimits } from '../../src/core/rate-limit.js';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('token buckets', () => {
  it('admits a burst of the per-minute limit, then refuses with the wait until the next token', () => {
    const c = clock();
    const b = createTokenBuckets({ now: c.now });
    const answers = Array.from({ length: 8 }, () => b.take('k', 5));
    expect(answers.filter((w) => w === 0)).toHaveLength(5);
    // Empty bucket, 5 a minute: one token every 12 s.
    expect(answers.slice(5)).toEqual([12_000, 12_000, 12_000]);
  });

  it('refills continuously and never above one minute of allowance', () => {
    const c = clock();
    const b = createTokenBuckets({ now: c.now });
    for (let i = 0; i < 5; i++) b.take('k', 5);
    c.advance(11_999);
    expect(b.take('k', 5)).toBe(1);
    c.advance(1);
    expect(b.take('k', 5)).toBe(0);
    c.advance(3_600_000);
    expect(Array.from({ length: 6 }, () => b.take('k', 5)).filter((w) => w === 0)).toHaveLength(5);
  });

  it('a clock that goes back refills nothing', () => {
    const c = clock();
    const b = createTokenBuckets({ now: c.now });
    b.take('k', 1);
    c.advance(-30_000);
    expect(b.take('k', 1)).toBeGreaterThan(0);
  });

  it('keeps at most maxBuckets, evicting the least recently used', () => {
    const c = clock();
    const b = createTokenBuckets({ now: c.now, maxBuckets: 3 });
    b.take('a', 1);
    b.take('b', 1);
    b.take('c', 1);
    b.take('a', 1); // a is now the most recent
    b.take('d', 1); // evicts b
    expect(b.size()).toBe(3);
    expect(['a', 'b', 'c', 'd'].map(b.has)).toEqual([true, false, true, true]);
    for (let i = 0; i < 10_000; i++) b.take(`ip:${i}`, 1);
    expect(b.size()).toBe(3);
  });
});

describe('rate limiter', () => {
  it('names the limit and the client, with Retry-After in whole seconds rounded up', () => {
    const c = clock();
    const limits: RateLimits = { mcpPerMinute: 7, adminWritesPerMinute: 2, adminReadsPerMinute: 3 };
    const l = createRateLimiter({ limits: () => limits, now: c.now });
    const token = { key: 'token:3', label: 'token "x"' };
    expect(l.check(token, 'write')).toBeNull();
    expect(l.check(token, 'write')).toBeNull();
    expect(l.check(token, 'write')).toEqual({ limit: 2, retryAfterSeconds: 30, message: 'rate limit: 2 admin writes per minute for token "x"; retry in 30 s' });
    // Classes have their own buckets.
    expect(l.check(token, 'read')).toBeNull();
    for (let i = 0; i < 6; i++) expect(l.check(token, 'mcp')).toBeNull();
    expect(l.check(token, 'mcp')).toBeNull();
    // 60/7 s = 8.57 s: rounded up.
    expect(l.check(token, 'mcp')).toMatchObject({ retryAfterSeconds: 9, message: 'rate limit: 7 requests per minute for token "x"; retry in 9 s' });
    expect(l.check(addressSubject('10.0.0.9'), 'read')).toBeNull();
    l.check(addressSubject('10.0.0.9'), 'read');
    l.check(addressSubject('10.0.0.9'), 'read');
    expect(l.check(addressSubject('10.0.0.9'), 'read')?.message).toBe('rate limit: 3 admin reads per minute for address 10.0.0.9; retry in 20 s');
  });

  it("a token's own limits override the setting; the setting is read on every request", () => {
    const c = clock();
    let limits = { ...DEFAULT_RATE_LIMITS };
    const l = createRateLimiter({ limits: () => limits, now: c.now });
    const agent = { key: 'token:9', label: 'token "agent"', mcpPerMinute: 1, writesPerMinute: null };
    expect(l.check(agent, 'mcp')).toBeNull();
    expect(l.check(agent, 'mcp')?.limit).toBe(1);
    const other = { key: 'token:10', label: 'token "other"' };
    limits = { ...limits, adminWritesPerMinute: 1 };
    expect(l.check(other, 'write')).toBeNull();
    expect(l.check(other, 'write')?.message).toContain('1 admin writes per minute');
  });
});
