// The domain core: no Hono, no MCP SDK, no Prisma. Faces get every use case from
// createCore(); storage comes in through the Store port (src/core/ports.ts), built
// by src/db/store.ts in the composition roots.
import { createKnownLabels } from './known-labels.js';
import { randomBytes } from 'node:crypto';
import { createCursorCodec } from './cursor.js';
import { createChangeFeed } from './change-feed.js';
import { createResourceResolver } from './resource-resolver.js';
import { createPromptService } from './services/prompt-service.js';
import { createResourceService } from './services/resource-service.js';
import { createTokenService } from './services/token-service.js';
import { createBulkImport } from './services/bulk-import.js';
import { createLabelService } from './services/label-service.js';
import { createLabelPolicy, protectedLabelsFrom } from './label-policy.js';
import { startPurger } from './services/prompt-bin.js';
import { createWebhookService } from './services/webhook-service.js';
import { createActivityService } from './services/activity-service.js';
import { createSyncStateService } from './services/sync-state.js';
import { createFormatMetaService } from './services/format-meta.js';
import { createImportHashService } from './services/import-hashes.js';
import { createServedCatalog, type CompletionResult } from './catalog.js';
import { createServedReads } from './services/served-reads.js';
import { completeResourceVariable } from './completion.js';
import { createTokenUseLog } from './services/token-use.js';
import { createAuthFailureLog } from './services/auth-failures.js';
import { createRateLimitSettings } from './services/rate-limit-settings.js';
import { createRateLimiter } from './rate-limit.js';
import type { DatabaseKind, PoolStats, Store } from './ports.js';
import { createUsageService } from './usage/usage-service.js';
import { createCheckService } from './checks/check-service.js';
import { createMoveGate, type CheckRenderFactory, type DependentsLookup } from './checks/move-gate.js';
import { includeCheckRender, includeDependents } from './checks/include-wiring.js';
import { sharedRegexRunner, type RegexRunner } from './checks/regex-runner.js';

export interface CoreOptions {
  store: Store;
  /** PROMPTD_ADMIN_TOKEN */
  adminToken?: string;
  /** Labels whose moves need an admin (default: PROMPTD_PROTECTED_LABELS, else `production`). */
  protectedLabels?: string[];
  /** How often to look for other processes' writes. */
  pollMs?: number;
  onError?: (e: unknown) => void;
  /** Days a deleted prompt stays restorable before it is purged (PROMPTD_DELETED_RETENTION_DAYS, default 30). */
  deletedRetentionDays?: number;
  /** How often to purge expired deleted prompts (default hourly; 0: only when purgeExpired() is called). */
  purgeIntervalMs?: number;
  /** The clock soft delete and purge go by; tests inject one. */
  now?: () => Date;
  /** Prompts a q= search that no index serves reads per request (default SEARCH_SCAN_LIMIT, 5,000; tests lower it). */
  searchScanLimit?: number;
  /** Webhooks may target private and loopback addresses (default: PROMPTD_WEBHOOK_ALLOW_PRIVATE=1). */
  allowPrivateWebhooks?: boolean;
  /** How often failed authentications are written to the audit (default every minute; 0: only on flush() and close). */
  authFailureFlushMs?: number;
  /** Rate-limit buckets kept in memory (default 10 000; tests lower it). */
  maxRateBuckets?: number;
  /** Usage recording (src/core/usage): this process's id in the rows it writes, the flush period (0: only flush()), retention in days (PROMPTD_USAGE_RETENTION_DAYS, default 90). */
  usage?: { instance?: string; flushMs?: number; retentionDays?: number; enabled?: boolean; maxCells?: number; maxCellsPerClient?: number };
  /**
   * Test cases and checks (docs/contracts.md): how a check renders (include resolution)
   * and which prompts depend on a moved one. Defaults: plain rendering, no dependents.
   */
  /** `regex`: the pattern runner of checks and the gate (tests inject a slow one) */
  checks?: { render?: CheckRenderFactory; dependents?: DependentsLookup; regex?: () => RegexRunner };
}

export interface Health {
  status: 'ready';
  /** `sqlite` or `postgresql` */
  database: string;
}

export async function createCore(opts: CoreOptions) {
  const { store } = opts;
  await store.setting('write_lock', () => '0');
  const cursorSecret = process.env.PROMPTD_CURSOR_SECRET || (await store.setting('cursor_secret', () => randomBytes(32).toString('hex')));
  const cursors = createCursorCodec(cursorSecret);
  const feed = createChangeFeed(store, { pollMs: opts.pollMs, onError: opts.onError });
  const resolver = createResourceResolver(store.read);
  feed.subscribe((events) => resolver.invalidate(events));
  const catalog = createServedCatalog({ source: store.served, feed, resolver, cursors });
  const knownLabels = createKnownLabels(() => catalog.knownLabels());
  const policy = createLabelPolicy(opts.protectedLabels ?? protectedLabelsFrom(process.env.PROMPTD_PROTECTED_LABELS));
  const checkRender = opts.checks?.render ?? includeCheckRender;
  const regex = opts.checks?.regex ?? sharedRegexRunner;
  policy.gate = createMoveGate({ render: checkRender, dependents: opts.checks?.dependents ?? includeDependents, regex });
  await feed.start();
  const prompts = createPromptService({
    store, cursors, feed, resolver, policy, knownLabels, includes: (label) => catalog.includes(label), bin: { retentionDays: opts.deletedRetentionDays ?? retentionFromEnv(), now: opts.now }, searchScanLimit: opts.searchScanLimit,
    // Called by list() only, after createCore returned (`usage` is made below).
    recentUse: () => usage.pendingLastServed(),
  });
  const tokenUse = createTokenUseLog({ store, now: opts.now, onError: opts.onError });
  const tokens = createTokenService({ store, envToken: opts.adminToken, now: opts.now, onError: opts.onError, uses: tokenUse, feed, knownLabels });
  const clock = opts.now ? () => opts.now!().getTime() : () => Date.now();
  const authFailures = createAuthFailureLog({ store, now: clock, flushMs: opts.authFailureFlushMs, onError: opts.onError });
  const rateLimits = await createRateLimitSettings({ store, feed, now: clock, onError: opts.onError });
  const rateLimiter = createRateLimiter({ limits: rateLimits.current, now: clock, maxBuckets: opts.maxRateBuckets });
  const purger = opts.purgeIntervalMs === 0 ? undefined : startPurger(prompts, { intervalMs: opts.purgeIntervalMs, onError: opts.onError });
  const usage = createUsageService({
    store,
    read: store.read,
    instance: opts.usage?.instance ?? randomBytes(6).toString('hex'),
    retentionDays: opts.usage?.retentionDays ?? usageRetentionFromEnv(),
    flushMs: opts.usage?.flushMs ?? usageFlushMsFromEnv(),
    maxCells: opts.usage?.maxCells,
    maxCellsPerClient: opts.usage?.maxCellsPerClient,
    readOnly: store.readOnly,
    // PROMPTD_USAGE=off: no recording at all (the benchmark's baseline; operators who want none).
    enabled: opts.usage?.enabled ?? process.env.PROMPTD_USAGE !== 'off',
    now: opts.now ? () => opts.now!().getTime() : undefined,
    onError: opts.onError,
  });
  usage.start();
  return {
    cursors,
    feed,
    resolver,
    catalog,
    /** The read API's use cases: definitions and renders by label or version, and the changes readers follow. */
    served: createServedReads({ read: store.read, catalog, resolver, feed }),
    prompts,
    /** A version's lint and test cases (docs/contracts.md, Test cases and checks). */
    checks: createCheckService({ read: store.read, render: checkRender, regex, knownLabels }),
    /** Release labels: per-prompt pointers, the label list and promotion. */
    labels: createLabelService({ store, feed, policy, knownLabels }),
    /** Labels that exist (carried by a prompt, or production/latest): the one check of a label a caller names. */
    knownLabels,
    resources: createResourceService({ store, cursors, feed }),
    tokens,
    /** Audit: each credential's first use per face and hour, as `token.used` change events. */
    tokenUse,
    /** Audit and metrics: failed authentications, counted per minute, address and token prefix (`auth.failed`). */
    authFailures,
    /** The instance-wide rate limits (a Setting; docs/rate-limits.md). */
    rateLimits,
    /** This process's token buckets, one per client and class of request (the HTTP faces count through it). */
    rateLimiter,
    /** Library import and export: many prompts per transaction, through the same write path. */
    bulk: createBulkImport({ store, feed, policy }),
    /** What `promptd sync` last wrote from each synced directory. */
    syncState: createSyncStateService(store),
    /** What a format import read that versions have no field for, so `export --format` restores it. */
    formatMeta: createFormatMetaService(store),
    /** What `promptd import` last read from each file, to skip parsing unchanged ones. */
    importHashes: createImportHashService(store),
    /** Webhook CRUD and delivery log; the dispatcher that sends is started by `promptd serve`. */
    webhooks: createWebhookService({ store, cursors, feed, allowPrivate: allowPrivateWebhooks(opts) }),
    /** The change log, newest first, filtered by who and what (the activity page). */
    activity: createActivityService({ store, cursors }),
    /** Usage of served prompts: faces record each request; the admin API reads series and totals. */
    usage,
    /** Completion of a resource template's variable from the stored resources' URIs. */
    completeResource: (uriTemplate: string, variable: string, value: string, context?: Record<string, string>): Promise<CompletionResult> =>
      completeResourceVariable(store.read.resources, uriTemplate, variable, value, context),
    /** Which database this core serves, as it may be shown (the Connect page's stdio snippet). */
    database: (): { provider: DatabaseKind; url: string } => ({ provider: store.kind, url: store.displayUrl }),
    /** The database pool's counts for metrics (null on SQLite, which has no pool). */
    poolStats: (): PoolStats | null => store.poolStats(),
    /** Readiness: rejects when the database does not answer. */
    async health(): Promise<Health> {
      await store.ping();
      return { status: 'ready', database: store.kind };
    },
    async close() {
      await purger?.stop();
      // Counts still in memory are written before the store closes (SIGTERM of `promptd serve`).
      await usage.stop().catch((e) => opts.onError?.(e));
      await tokens.idle();
      await tokenUse.idle();
      await authFailures.stop();
      await rateLimits.idle();
      await feed.stop();
      await store.close();
    },
  };
}

/**
 * A numeric setting from the environment: undefined when unset, else a number within
 * [min, max] (whole when `integer`), or start-up stops with a line naming the variable.
 */
function numberFromEnv(name: string, { min, max, unit, integer = false }: { min: number; max: number; unit: string; integer?: boolean }): number | undefined {
  const v = process.env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) throw new Error(`${name} must be a number of ${unit} from ${min} to ${max} (got "${v}")`);
  return n;
}

const retentionFromEnv = () => numberFromEnv('PROMPTD_DELETED_RETENTION_DAYS', { min: 0, max: 3650, unit: 'days' });
/** PROMPTD_USAGE_FLUSH_MS: how often usage counts are written (default 10 s). */
const usageFlushMsFromEnv = () => numberFromEnv('PROMPTD_USAGE_FLUSH_MS', { min: 1_000, max: 86_400_000, unit: 'milliseconds', integer: true }) ?? 10_000;
const usageRetentionFromEnv = () => numberFromEnv('PROMPTD_USAGE_RETENTION_DAYS', { min: 1, max: 3650, unit: 'days' }) ?? 90;

/** Whether webhooks may target private and loopback addresses: the option, else PROMPTD_WEBHOOK_ALLOW_PRIVATE=1. */
export const allowPrivateWebhooks = (opts: Pick<CoreOptions, 'allowPrivateWebhooks'>) => opts.allowPrivateWebhooks ?? process.env.PROMPTD_WEBHOOK_ALLOW_PRIVATE === '1';

export type Core = Awaited<ReturnType<typeof createCore>>;
export type { DatabaseKind, PoolStats, Store } from './ports.js';
export * from './errors.js';
export * from './types.js';
export * from './schemas.js';
