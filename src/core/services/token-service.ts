// API tokens (admin-API tokens with a role, MCP client tokens with a scope;
// docs/access.md): random, shown once, stored as SHA-256 hashes (they carry 256
// bits of entropy, so a slow password hash adds nothing). The env token is
// compared in constant time. Names are unique and printable, and the change log's
// actor for a token is `token:<name>#<id>`, so an entry names exactly one token.
import type { KnownLabels } from '../known-labels.js';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { conflict, invalid, notFound, formatPath } from '../errors.js';
import type { Repositories, Store, TokenGrant, TokenRates } from '../ports.js';
import type { TokenFace, TokenUseLog } from './token-use.js';
import type { ChangeFeed } from '../change-feed.js';
import { LabelNameSchema, LATEST, PRODUCTION, TagsSchema, TokenNameSchema, normalizeTags } from '../schemas.js';
import type { TokenInfo } from '../types.js';
import { ROLES, type Role } from '../access.js';
import type { McpScope } from '../mcp-scope.js';

export type { TokenInfo };

/** What a new token may do: an admin-API token with a role (default admin), or an MCP client token with a scope. */
export type TokenSpec = { kind?: 'admin'; role?: Role } | { kind: 'mcp' | 'app'; label?: string; tags?: string[] | null };

/** Who an admin-API bearer token is: its actor, its id (null for PROMPTD_ADMIN_TOKEN), its role and its own rate limits. */
export interface Principal {
  actor: string;
  /** null for PROMPTD_ADMIN_TOKEN */
  tokenId: number | null;
  /** the token's name (`PROMPTD_ADMIN_TOKEN` for the configured one) */
  name: string;
  kind: 'admin';
  role: Role;
  /** How a 403 names the caller. */
  display: string;
  mcpRatePerMinute: number | null;
  writeRatePerMinute: number | null;
}
/** The admin-API principal (the name access used before the merge with the rate limits). */
export type AdminPrincipal = Principal;

/**
 * Who a read API (/v1) request is: an admin-API token (every role reads; scope null) or
 * an application token, which reads its scope only: one label, optionally some tags.
 */
export type ReadPrincipal = Omit<Principal, 'kind'> & { kind: 'admin' | 'app'; scope: McpScope | null };

/** Who an MCP request is (an MCP client token): its scope and its own rate limits. */
export interface McpTokenPrincipal {
  actor: string;
  tokenId: number;
  tokenName: string;
  kind: 'mcp';
  scope: McpScope;
  mcpRatePerMinute: number | null;
  writeRatePerMinute: number | null;
}

const RATE_FIELDS = ['mcpRatePerMinute', 'writeRatePerMinute'] as const;

const McpSpecSchema = z.object({
  label: LabelNameSchema.refine((l) => l !== LATEST, 'an MCP token sees a release label; "latest" is not one').optional(),
  tags: TagsSchema.min(1, 'give at least one tag, or none for every prompt of the label').nullish(),
});

function grantOf(spec: TokenSpec): TokenGrant {
  const fail = (path: string, message: string) => invalid(`invalid token: ${path}: ${message}`, [{ path, message }]);
  if (spec.kind === 'mcp' || spec.kind === 'app') {
    if ((spec as { role?: unknown }).role !== undefined) {
      throw fail('role', spec.kind === 'mcp' ? 'an MCP token has no role: it sees one label (and tags), never the admin API' : 'an app token has no role: it reads one label (and tags) on the read API, never the admin API');
    }
    const parsed = McpSpecSchema.safeParse({ label: spec.label, tags: spec.tags });
    if (!parsed.success) {
      const errors = parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
      throw invalid(`invalid token: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
    }
    const { label, tags } = parsed.data;
    return { kind: spec.kind, role: null, scope: { label: label ?? PRODUCTION, tags: tags ? normalizeTags(tags) : null } };
  }
  if (spec.kind !== undefined && spec.kind !== 'admin') throw fail('kind', 'admin, mcp or app');
  const extra = Object.entries(spec).find(([k, v]) => k !== 'kind' && k !== 'role' && !(RATE_FIELDS as readonly string[]).includes(k) && v !== undefined)?.[0];
  if (extra) throw fail(extra, 'only MCP and app tokens (kind mcp or app) have a label and tags');
  if (spec.role !== undefined && !(ROLES as readonly string[]).includes(spec.role)) throw fail('role', `one of ${ROLES.join(', ')}`);
  return { kind: 'admin', role: spec.role ?? 'admin', scope: null };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();
/** lastUsedAt is written at most this often per token (per process). */
export const LAST_USED_THROTTLE_MS = 60_000;
/** Characters of a token shown in listings (`pd_` and 7 more). */
const SHOWN_PREFIX = 10;

export const tokenActor = (t: { id: number; name: string }) => `token:${t.name}#${t.id}`;

function checkName(name: string): void {
  const parsed = TokenNameSchema.safeParse(name);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({ path: formatPath(['name', ...i.path]), message: i.message }));
    throw invalid(`invalid token name: ${errors.map((e) => e.message).join('; ')}`, errors);
  }
}

export interface TokenServiceDeps {
  store: Pick<Store, 'read' | 'write'>;
  envToken?: string;
  /** Injectable clock (lastUsedAt throttling). */
  now?: () => Date;
  /** Where a failed lastUsedAt write goes; it never fails the request. */
  onError?: (e: unknown) => void;
  /** Where authenticated use is noted for the audit (token.used, once per token, face and hour). */
  uses?: Pick<TokenUseLog, 'used'>;
  /**
   * The change log: its token events (any instance's) drop the MCP tokens kept in memory,
   * and every token write pokes it after commit. On SQLite the poll only sees other
   * connections' commits, so without the poke this process's own caches (/mcp's "a token
   * exists", kept MCP tokens) and stream closers waited for an unrelated write.
   */
  feed?: Pick<ChangeFeed, 'subscribe' | 'poke'>;
  /** An MCP or app token's label must exist (src/core/known-labels.ts). */
  knownLabels?: Pick<KnownLabels, 'require'>;
}

/** MCP tokens kept in memory at most this long without a token event (a stalled change feed). */
export const MCP_TOKEN_CACHE_MS = 60_000;
const MCP_TOKEN_CACHE_MAX = 1_000;


function checkRates(rates: TokenRates): void {
  const errors = RATE_FIELDS.flatMap((k) => {
    const v = rates[k];
    return v === undefined || v === null || (Number.isInteger(v) && v >= 1 && v <= 1_000_000) ? [] : [{ path: k, message: 'a whole number of requests per minute from 1 to 1000000, or null' }];
  });
  if (errors.length) throw invalid(`invalid rate limit: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
}

export function createTokenService({ store, envToken, now = () => new Date(), onError, uses, feed, knownLabels }: TokenServiceDeps) {
  const envDigest = envToken ? sha256(envToken) : undefined;
  // An MCP client presents its token on every request, and a lookup cost more CPU than
  // the prompts/get it admits (~200 µs through Prisma against ~150 µs). So valid MCP
  // tokens are kept by digest, and dropped on every token event of the change log
  // (updated, revoked: on this instance at once, on others within the feed's
  // delay) and after MCP_TOKEN_CACHE_MS. `generation` keeps a lookup that raced a
  // revocation from being kept. Admin tokens are still read on every request.
  const mcpTokens = new Map<string, { principal: McpTokenPrincipal; at: number }>();
  let generation = 0;
  const forgetMcpTokens = () => {
    generation++;
    mcpTokens.clear();
  };
  // After commit (or a failed write, harmlessly): deliver this process's token events now.
  const wake = async () => {
    forgetMcpTokens();
    await feed?.poke();
  };
  feed?.subscribe((events) => {
    // A new token, a noted use or a failed authentication changes no kept token.
    if (events.some((e) => e.entity === 'token' && e.action !== 'token.used' && e.action !== 'token.created' && e.action !== 'auth.failed')) forgetMcpTokens();
  });
  const touched = new Map<number, number>();
  const pending = new Set<Promise<void>>();

  async function insert(tx: Repositories, name: string, actor: string, grant: TokenGrant, rates: TokenRates = {}) {
    // MCP tokens start `pdm_`, app tokens `pda_`, so a token pasted into the wrong place is easy to tell.
    const token = `${grant.kind === 'mcp' ? 'pdm_' : grant.kind === 'app' ? 'pda_' : 'pd_'}${randomBytes(32).toString('base64url')}`;
    const row = await tx.tokens.insert({ name, prefix: token.slice(0, SHOWN_PREFIX), hash: sha256(token).toString('hex'), ...grant, ...rates });
    const setRates = RATE_FIELDS.filter((k) => rates[k] != null).map((k) => [k, rates[k]]);
    const details = {
      name, tokenId: row.id, kind: grant.kind, ...(grant.role ? { role: grant.role } : {}), ...(grant.scope ? { label: grant.scope.label, tags: grant.scope.tags } : {}),
      ...Object.fromEntries(setRates),
    };
    await tx.events.append([{ actor, action: 'token.created', entity: 'token', entityKey: String(row.id), details }]);
    return { token, info: row };
  }

  /** Records use in the background, at most once a minute per token; never fails or delays the request. */
  function touch(id: number) {
    const at = now();
    const last = touched.get(id);
    if (last !== undefined && at.getTime() - last < LAST_USED_THROTTLE_MS) return;
    touched.set(id, at.getTime());
    const p = store
      .write((tx) => tx.tokens.touch(id, at))
      .catch((e) => {
        touched.delete(id);
        onError?.(e);
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  }

  /**
   * An admin-API token: who it is, its role, and which token it was (null for
   * PROMPTD_ADMIN_TOKEN), so that what a token opened (event streams) can be closed
   * when `token.revoked` names its id. MCP tokens are refused here. Checked against
   * the database on every call, so revocation is immediate on every instance (MCP tokens
   * are kept in memory: authenticateMcp).
   */
  async function authenticate(token: string | undefined, face?: TokenFace): Promise<Principal | null> {
    if (!token || token.length > 512) return null;
    const digest = sha256(token);
    if (envDigest && timingSafeEqual(digest, envDigest)) {
      if (face) uses?.used({ actor: 'admin', entityKey: 'PROMPTD_ADMIN_TOKEN', name: 'PROMPTD_ADMIN_TOKEN', tokenId: null, face });
      return { actor: 'admin', tokenId: null, name: 'PROMPTD_ADMIN_TOKEN', kind: 'admin', role: 'admin', display: 'PROMPTD_ADMIN_TOKEN', mcpRatePerMinute: null, writeRatePerMinute: null };
    }
    const row = await store.read.tokens.byHash(digest.toString('hex'));
    if (!row || row.revokedAt || row.kind !== 'admin' || !row.role) return null;
    touch(row.id);
    const actor = tokenActor(row);
    if (face) uses?.used({ actor, entityKey: String(row.id), name: row.name, tokenId: row.id, face });
    return {
      actor, tokenId: row.id, name: row.name, kind: 'admin', role: row.role, display: `token "${row.name}"`,
      mcpRatePerMinute: row.mcpRatePerMinute, writeRatePerMinute: row.writeRatePerMinute,
    };
  }

  /**
   * A read API (/v1) credential: an admin-API token of any role (scope null), or an app
   * token with its scope (issue 36.12). MCP tokens are refused here. Read from the
   * database on every call, as admin tokens are, so revocation is immediate.
   */
  async function authenticateRead(token: string | undefined): Promise<ReadPrincipal | null> {
    if (!token?.startsWith('pda_') || token.length > 512) {
      const admin = await authenticate(token, 'read');
      return admin && { ...admin, scope: null };
    }
    const row = await store.read.tokens.byHash(sha256(token).toString('hex'));
    if (!row || row.revokedAt || row.kind !== 'app' || !row.scope) return null;
    touch(row.id);
    const actor = tokenActor(row);
    uses?.used({ actor, entityKey: String(row.id), name: row.name, tokenId: row.id, face: 'read' });
    return {
      actor, tokenId: row.id, name: row.name, kind: 'app', role: 'reader', display: `token "${row.name}"`, scope: row.scope,
      mcpRatePerMinute: row.mcpRatePerMinute, writeRatePerMinute: row.writeRatePerMinute,
    };
  }

  /** An MCP client token, its scope and rates; admin tokens are refused here. Its use is noted by the MCP face (after the rate limit). */
  async function authenticateMcp(token: string | undefined): Promise<McpTokenPrincipal | null> {
    if (!token || token.length > 512) return null;
    const digest = sha256(token).toString('hex');
    const t = now().getTime();
    const kept = mcpTokens.get(digest);
    if (kept && t - kept.at < MCP_TOKEN_CACHE_MS) {
      touch(kept.principal.tokenId);
      return kept.principal;
    }
    const seen = generation;
    const row = await store.read.tokens.byHash(digest);
    if (!row || row.revokedAt || row.kind !== 'mcp' || !row.scope) return null;
    touch(row.id);
    const principal: McpTokenPrincipal = {
      actor: tokenActor(row), tokenId: row.id, tokenName: row.name, kind: 'mcp', scope: row.scope,
      mcpRatePerMinute: row.mcpRatePerMinute, writeRatePerMinute: row.writeRatePerMinute,
    };
    if (seen === generation) {
      mcpTokens.delete(digest);
      if (mcpTokens.size >= MCP_TOKEN_CACHE_MAX) mcpTokens.delete(mcpTokens.keys().next().value!);
      mcpTokens.set(digest, { principal, at: t });
    }
    return principal;
  }

  return {
    /**
     * An admin-API token (default role admin) or, with `{ kind: 'mcp' }`, an MCP client token;
     * `mcpRatePerMinute`/`writeRatePerMinute`: the token's own rate limits (docs/rate-limits.md).
     */
    async create(name: string, actor = 'cli', spec: TokenSpec & TokenRates = {}): Promise<{ token: string; info: TokenInfo }> {
      checkName(name);
      const { mcpRatePerMinute, writeRatePerMinute, ...rest } = spec;
      const rates: TokenRates = { mcpRatePerMinute, writeRatePerMinute };
      checkRates(rates);
      const grant = grantOf(rest as TokenSpec);
      if (grant.scope) await knownLabels?.require(grant.scope.label);
      return store.write(async (tx) => {
        if (await tx.tokens.byName(name)) throw conflict(`a token named "${name}" already exists; pick another name`, [{ path: 'name', message: 'already exists' }]);
        return insert(tx, name, actor, grant, rates);
      }).finally(wake);
    },
    /** Changes a token's own rate limits (null: back to the instance setting); recorded as `token.updated`. */
    async setRates(id: number, rates: TokenRates, actor = 'cli'): Promise<TokenInfo> {
      checkRates(rates);
      return store.write(async (tx) => {
        const row = await tx.tokens.byId(id);
        if (!row) throw notFound(`token ${id}`);
        const updated = await tx.tokens.setRates(id, rates);
        const changed = Object.fromEntries(RATE_FIELDS.filter((k) => rates[k] !== undefined).map((k) => [k, { from: row[k], to: updated[k] }]));
        await tx.events.append([{ actor, action: 'token.updated', entity: 'token', entityKey: String(id), details: { name: row.name, tokenId: id, ...changed } }]);
        return updated;
      }).finally(wake);
    },
    /**
     * The first-run admin token: created only when no token is active, under the write
     * lock, so instances starting together on an empty database make exactly one.
     * Null when a token exists already.
     */
    async createFirstRun(actor = 'serve'): Promise<{ token: string; info: TokenInfo } | null> {
      return store.write(async (tx) => {
        if ((await tx.tokens.countActive('admin')) > 0) return null;
        const taken = new Set(await tx.tokens.namesStartingWith('first-run'));
        let name = 'first-run';
        for (let i = 2; taken.has(name); i++) name = `first-run-${i}`;
        return insert(tx, name, actor, { kind: 'admin', role: 'admin', scope: null });
      }).finally(wake);
    },
    async list(): Promise<TokenInfo[]> {
      return store.read.tokens.list();
    },
    async count(kind?: TokenGrant['kind']): Promise<number> {
      return store.read.tokens.countActive(kind);
    },
    /** True when an active MCP client token exists: /mcp then needs one (docs/access.md). */
    async mcpTokensExist(): Promise<boolean> {
      return (await store.read.tokens.countActive('mcp')) > 0;
    },
    /** By id (a number, or digits), or by the start of the shown prefix (`pd_AbC…`); an ambiguous prefix revokes nothing. */
    async revoke(idOrPrefix: string | number, actor = 'cli'): Promise<TokenInfo> {
      return store.write(async (tx) => {
        let row: TokenInfo | null;
        if (typeof idOrPrefix === 'number') row = await tx.tokens.byId(idOrPrefix);
        else if (/^\d{1,9}$/.test(idOrPrefix)) row = await tx.tokens.byId(Number(idOrPrefix));
        else {
          const found = idOrPrefix ? await tx.tokens.matchPrefix(idOrPrefix.slice(0, SHOWN_PREFIX), 10) : [];
          if (found.length > 1) {
            throw conflict(`"${idOrPrefix}" is ambiguous: it matches ${found.length === 10 ? '10 or more' : found.length} tokens (${found.map((t) => `#${t.id}`).join(', ')}); give the id or more of the prefix`);
          }
          row = found[0] ?? null;
        }
        if (!row) throw notFound(`token ${idOrPrefix}`);
        if (row.revokedAt) throw conflict(`token #${row.id} "${row.name}" was already revoked at ${row.revokedAt.toISOString()}`);
        const updated = await tx.tokens.revoke(row.id, now());
        await tx.events.append([{ actor, action: 'token.revoked', entity: 'token', entityKey: String(row.id), details: { name: row.name, tokenId: row.id } }]);
        return updated;
      }).finally(wake);
    },
    /** Returns the actor name for a valid admin-API token, or null. Checked against the database on every call, so revocation is immediate. */
    async verify(token: string | undefined): Promise<string | null> {
      return (await authenticate(token))?.actor ?? null;
    },
    /** Resolves once the lastUsedAt writes started so far have settled (tests, shutdown). */
    async idle(): Promise<void> {
      await Promise.all([...pending]);
    },
    authenticate,
    authenticateRead,
    authenticateMcp,
    hasEnvToken: () => envDigest !== undefined,
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
