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
  /** the served prompt's name; UNKNOWN_PROMPT when no prompt was served (the requested name is never kept) */
  prompt: string;
  /** the version served; 0 when none was (an unknown prompt) */
  version: number;
  /** the served version's id when the face knows it (the MCP catalog): its prompt, even renamed since */
  versionId?: number;
  /** the label it was served through; '' for a pinned version */
  label: string;
  /** MCP: `clientInfo.name`; HTTP: the token name, else the User-Agent */
  client: string;
  /** MCP: `clientInfo.version`; '' when none (HTTP, token sessions) */
  clientVersion: string;
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
  /** the prompt's name when it was served */
  prompt: string;
  /** the prompt it was (usage is keyed by it, so it follows renames); null: none was served */
  promptId: number | null;
  /** not stored: how the write finds promptId when the face knew the version's id */
  versionId?: number;
  version: number;
  label: string;
  client: string;
  clientVersion: string;
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
  /** the prompt's current name (its name when served if it is gone, or UNKNOWN_PROMPT) */
  prompt: string;
  promptId: number | null;
  /** unflushed counts only: the served version's id, when the face knew it */
  versionId?: number;
  version: number;
  label: string;
  client: string;
  clientVersion: string;
  outcome: UsageOutcome;
  fetches: number;
  lastAt: Date;
}

export interface UsageFilter {
  /** rows whose bucket starts at or after */
  from: Date;
  /** rows whose bucket starts at or before */
  to: Date;
  /** only this prompt's rows, whatever its name was when served */
  promptId?: number;
  /** only rows of no known prompt recorded under this name (UNKNOWN_PROMPT, a purged prompt) */
  promptName?: string;
  label?: string;
  /** the client's name (every version) */
  client?: string;
  clientVersion?: string;
}

/** The outcome a failed render counts as. */
export function outcomeOf(e: unknown): UsageOutcome {
  if (!isDomainError(e)) return 'error';
  if (e.code === 'not_found') return 'not_found';
  if (e.code === 'validation' || e.code === 'bad_request') return 'invalid_arguments';
  return 'error';
}

/** What a request for a prompt that is not served counts under: never the requested name. */
export const UNKNOWN_PROMPT = '(unknown)';

/**
 * The longest text kept per dimension. Client names and versions come from requests
 * (clientInfo, User-Agent): every recorded string is cut, so no request can make a row,
 * the batch insert or an answer large (SECURITY.md, usage).
 */
export const USAGE_TEXT_MAX = { prompt: 200, client: 200, clientVersion: 64, label: 64, token: 200 } as const;
/** Longest client name kept. */
export const CLIENT_NAME_MAX = USAGE_TEXT_MAX.client;

// Control, format, surrogate, private-use and unassigned characters: NUL is refused by
// PostgreSQL (22021, which failed whole flushes), ESC and friends are terminal escapes.
const UNSAFE = /\p{C}/gu;
const UNSAFE_TEST = /\p{C}/u;

/** `raw` as recorded: the characters above removed, trimmed, at most `max` characters. */
export function usageText(raw: string | undefined | null, max: number): string {
  const s = raw ?? '';
  if (s.length <= max && !UNSAFE_TEST.test(s) && s.trim() === s) return s;
  // Cut before cleaning so a huge value costs no more than `max` characters of work.
  // (A cut through a surrogate pair leaves half of it: dropped too.)
  return s.slice(0, max * 2).replace(UNSAFE, '').trim().slice(0, max).replace(/[\uD800-\uDBFF]$/, '');
}

/** A client name as recorded: control and format characters removed, at most 200 characters ('unknown' when empty). */
export function clientName(raw: string | undefined | null): string {
  return usageText(raw, USAGE_TEXT_MAX.client) || 'unknown';
}
