// Usage of served prompts: what the faces report per request, and what is stored.
import { isDomainError } from '../errors.js';

export const USAGE_OUTCOMES = ['ok', 'invalid_arguments', 'not_found', 'error'] as const;
export type UsageOutcome = (typeof USAGE_OUTCOMES)[number];
export const USAGE_TRANSPORTS = ['stdio', 'http', 'sse', 'read-api', 'rest'] as const;
export type UsageTransport = (typeof USAGE_TRANSPORTS)[number];
export const USAGE_BUCKETS = ['minute', 'hour', 'day'] as const;
export type UsageBucket = (typeof USAGE_BUCKETS)[number];
/** How stored rows are kept: per minute, then per hour after the rollup. */
export type UsageGrain = 'minute' | 'hour';

/** One served request, as a face reports it. */
export interface UsageHit {
  prompt: string;
  /** the version served; 0 when none was (an unknown prompt) */
  version: number;
  /** the label it was served through; '' for a pinned version */
  label: string;
  /** MCP: `clientInfo.name clientInfo.version`; HTTP: the token name, else the User-Agent */
  client: string;
  /** the token's name; null without one */
  token: string | null;
  transport: UsageTransport;
  outcome: UsageOutcome;
  latencyMs: number;
}

/** Counts of one (bucket, prompt, version, label, client, token, transport, outcome), as stored. */
export interface UsageRow {
  instance: string;
  grain: UsageGrain;
  start: Date;
  prompt: string;
  version: number;
  label: string;
  client: string;
  /** '' without a token */
  token: string;
  transport: UsageTransport;
  outcome: UsageOutcome;
  fetches: number;
  latencyMs: number;
  /** the last request counted */
  lastAt: Date;
}

/** Stored rows summed across instances, transports and tokens. */
export interface UsageSum {
  start: Date;
  prompt: string;
  version: number;
  label: string;
  client: string;
  outcome: UsageOutcome;
  fetches: number;
  lastAt: Date;
}

export interface UsageFilter {
  /** rows whose bucket starts at or after */
  from: Date;
  /** rows whose bucket starts at or before */
  to: Date;
  prompt?: string;
  label?: string;
  client?: string;
}

/** The outcome a failed render counts as. */
export function outcomeOf(e: unknown): UsageOutcome {
  if (!isDomainError(e)) return 'error';
  if (e.code === 'not_found') return 'not_found';
  if (e.code === 'validation' || e.code === 'bad_request') return 'invalid_arguments';
  return 'error';
}

/** Longest client name kept. */
export const CLIENT_NAME_MAX = 200;

/** A client name as recorded: control and format characters removed, at most 200 characters ('unknown' when empty). */
export function clientName(raw: string | undefined | null): string {
  const s = (raw ?? '').replace(/\p{C}/gu, '').trim().slice(0, CLIENT_NAME_MAX);
  return s || 'unknown';
}
