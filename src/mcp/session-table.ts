// The MCP session table shared by Streamable HTTP (/mcp) and the legacy SSE
// transport: bounds per client and in total, idle expiry, and eviction instead of
// refusal, so a flood of `initialize` requests cannot lock other clients out.
// - A session that made no request after initialize is closed after `unusedMs`.
// - A session with no request and no open stream for `idleMs` is closed.
// - A new session over a cap evicts the least recently used session of that client
//   (per-client cap) or of everyone (total cap), preferring ones without an open stream.

export interface SessionLimits {
  /** PROMPTD_MCP_IDLE_TIMEOUT: no request and no open stream for this long (default 30 min). */
  idleMs: number;
  /** Sessions that made no request after initialize are closed after this long (default 45 s). */
  unusedMs: number;
  /** PROMPTD_MCP_SESSIONS_PER_CLIENT: sessions one client address may hold (default 20). */
  perClient: number;
  /** PROMPTD_MCP_MAX_SESSIONS: sessions on this instance (default 1000). */
  max: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, unusedMs: 45_000, perClient: 20, max: 1000 };

export interface SessionRecord {
  id: string;
  client: string;
  createdAt: number;
  lastSeen: number;
  /** A request other than initialize (or a GET stream) was made. */
  used: boolean;
  /** Open streams: a client listening is not idle. */
  streams: number;
  close(): Promise<void>;
}

export interface Reservation {
  /** Records the session once its id is known. */
  commit(id: string, close: () => Promise<void>, init?: Partial<Pick<SessionRecord, 'streams' | 'used'>>): void;
  /** Gives the slot back (the request did not create a session). */
  release(): void;
}

export interface SessionTable {
  /** Makes room for one more session of `client` (evicting if needed) and holds it. */
  reserve(client: string): Reservation;
  get(id: string): SessionRecord | undefined;
  touch(id: string, used: boolean): void;
  streamOpened(id: string): void;
  streamClosed(id: string): void;
  remove(id: string): void;
  /** Closes expired sessions; run by the sweeper, callable from tests. */
  sweep(): string[];
  size(): number;
  /** How often the sweeper runs: expiry happens at most this late. */
  readonly sweepEveryMs: number;
  stop(): void;
}

export function createSessionTable(opts: { limits?: Partial<SessionLimits>; now?: () => number; log?: (msg: string, id: string) => void; onError?: (msg: string, e: unknown) => void } = {}): SessionTable {
  const limits = { ...DEFAULT_SESSION_LIMITS, ...opts.limits };
  const now = opts.now ?? Date.now;
  const sessions = new Map<string, SessionRecord>();
  const perClient = new Map<string, number>();
  const pending = new Map<string, number>();
  let pendingTotal = 0;
  const sweepEveryMs = Math.max(1_000, Math.min(limits.idleMs, limits.unusedMs, 60_000) / 3);
  let sweeper: NodeJS.Timeout | undefined;

  const bump = (m: Map<string, number>, k: string, d: number) => {
    const n = (m.get(k) ?? 0) + d;
    if (n > 0) m.set(k, n);
    else m.delete(k);
  };

  function evict(s: SessionRecord, why: string) {
    remove(s.id);
    opts.log?.(`mcp: closing session (${why})`, s.id);
    s.close().catch((e) => opts.onError?.('closing a session failed', e));
  }

  /** Least recently used, preferring sessions without an open stream. */
  function victim(candidates: Iterable<SessionRecord>): SessionRecord | undefined {
    let best: SessionRecord | undefined;
    const better = (a: SessionRecord, b: SessionRecord) => ((a.streams === 0) !== (b.streams === 0) ? a.streams === 0 : a.lastSeen < b.lastSeen);
    for (const s of candidates) if (!best || better(s, best)) best = s;
    return best;
  }

  function* ofClient(client: string) {
    for (const s of sessions.values()) if (s.client === client) yield s;
  }

  function remove(id: string) {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    bump(perClient, s.client, -1);
    if (!sessions.size && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  function sweep(): string[] {
    const t = now();
    const closed: string[] = [];
    for (const s of [...sessions.values()]) {
      if (!s.used && t - s.createdAt >= limits.unusedMs) evict(s, 'no request after initialize');
      else if (s.streams === 0 && t - s.lastSeen >= limits.idleMs) evict(s, 'idle');
      else continue;
      closed.push(s.id);
    }
    return closed;
  }

  return {
    reserve(client) {
      // Pending reservations count, so concurrent initializes cannot overshoot a cap.
      while ((perClient.get(client) ?? 0) + (pending.get(client) ?? 0) >= limits.perClient) {
        const v = victim(ofClient(client));
        if (!v) break;
        evict(v, `client ${client} over ${limits.perClient} sessions`);
      }
      while (sessions.size + pendingTotal >= limits.max) {
        const v = victim(sessions.values());
        if (!v) break;
        evict(v, `over ${limits.max} sessions`);
      }
      bump(pending, client, 1);
      pendingTotal++;
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        bump(pending, client, -1);
        pendingTotal--;
      };
      return {
        release,
        commit(id, close, init = {}) {
          release();
          const t = now();
          sessions.set(id, { id, client, createdAt: t, lastSeen: t, used: false, streams: 0, close, ...init });
          bump(perClient, client, 1);
          sweeper ??= setInterval(sweep, sweepEveryMs).unref();
        },
      };
    },
    get: (id) => sessions.get(id),
    touch(id, used) {
      const s = sessions.get(id);
      if (!s) return;
      s.lastSeen = now();
      if (used) s.used = true;
    },
    streamOpened(id) {
      const s = sessions.get(id);
      if (!s) return;
      s.streams++;
      s.used = true;
    },
    streamClosed(id) {
      const s = sessions.get(id);
      if (!s) return;
      s.streams = Math.max(0, s.streams - 1);
      s.lastSeen = now();
    },
    remove,
    sweep,
    size: () => sessions.size,
    sweepEveryMs,
    stop() {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
    },
  };
}
