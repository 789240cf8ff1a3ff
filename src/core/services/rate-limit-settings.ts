// The instance-wide rate limits, stored in the Setting table under `rate_limits` so
// every instance on the database applies the same numbers. Read on every request,
// so they are served from memory: a change made through this instance applies at
// once; one made through another instance arrives with its `settings.updated` change
// event on the change feed (the same poll/LISTEN that carries prompt edits), and a
// 30 s time-to-live bounds staleness should a wake-up ever be missed.
import { z } from 'zod';
import type { ChangeFeed } from '../change-feed.js';
import type { Store } from '../ports.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../rate-limit.js';

export const RATE_LIMITS_KEY = 'rate_limits';
export const RATE_LIMITS_TTL_MS = 30_000;
export const SETTINGS_UPDATED = 'settings.updated';

const perMinute = z.number().int().min(1).max(1_000_000);
export const RateLimitsSchema = z
  .object({ mcpPerMinute: perMinute, adminWritesPerMinute: perMinute, adminReadsPerMinute: perMinute })
  .strict();

/** A stored value that no longer parses (hand-edited, older shape) falls back field by field to the defaults. */
function parseStored(raw: string | undefined): RateLimits {
  if (raw === undefined) return { ...DEFAULT_RATE_LIMITS };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ...DEFAULT_RATE_LIMITS };
  }
  const out = { ...DEFAULT_RATE_LIMITS };
  if (value && typeof value === 'object') {
    for (const k of Object.keys(out) as (keyof RateLimits)[]) {
      const v = perMinute.safeParse((value as Record<string, unknown>)[k]);
      if (v.success) out[k] = v.data;
    }
  }
  return out;
}

export interface RateLimitSettingsDeps {
  store: Pick<Store, 'readSetting' | 'writeSetting' | 'write'>;
  feed: Pick<ChangeFeed, 'subscribe'>;
  now?: () => number;
  onError?: (e: unknown) => void;
}

export async function createRateLimitSettings({ store, feed, now = () => Date.now(), onError }: RateLimitSettingsDeps) {
  let current = parseStored(await store.readSetting(RATE_LIMITS_KEY));
  let loadedAt = now();
  let refreshing: Promise<void> | undefined;

  const refresh = () =>
    (refreshing ??= store
      .readSetting(RATE_LIMITS_KEY)
      .then((raw) => {
        current = parseStored(raw);
        loadedAt = now();
      })
      .catch((e) => onError?.(e))
      .finally(() => (refreshing = undefined)));

  feed.subscribe((events) => {
    if (events.some((e) => e.action === SETTINGS_UPDATED)) void refresh();
  });

  return {
    /** The limits in force; never waits: a stale value is served while it is re-read. */
    current(): RateLimits {
      if (now() - loadedAt > RATE_LIMITS_TTL_MS) void refresh();
      return current;
    },
    async get(): Promise<RateLimits> {
      await refresh();
      return current;
    },
    /** Replaces the limits and records who did it in the change log (`settings.updated`). */
    async update(input: RateLimits, actor: string): Promise<RateLimits> {
      const next = RateLimitsSchema.parse(input);
      const before = current;
      await store.writeSetting(RATE_LIMITS_KEY, JSON.stringify(next));
      current = next;
      loadedAt = now();
      await store.write((tx) => tx.events.append([{ actor, action: SETTINGS_UPDATED, entity: 'settings', entityKey: RATE_LIMITS_KEY, details: { from: before, to: next } }]));
      return next;
    },
    /** Settles a background re-read (tests). */
    idle: async () => void (await refreshing),
  };
}

export type RateLimitSettings = Awaited<ReturnType<typeof createRateLimitSettings>>;
