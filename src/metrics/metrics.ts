// The instruments of one app, on a registry of its own: two apps in one process (the
// tests run many) never share a counter, and nothing lands in prom-client's global
// registry. Faces call the typed methods below; only this directory imports prom-client.
// No label ever carries a prompt name, id or raw path (docs/metrics.md).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The MCP transports a session can arrive on. */
export type McpTransportName = 'streamable_http' | 'sse' | 'stdio';

/** What the MCP face reports (src/mcp/observe.ts). */
export interface McpMetrics {
  /** One JSON-RPC request answered: `outcome` is `ok` or the error code (`-32602`). */
  request(transport: McpTransportName, method: string, outcome: string, seconds: number): void;
  /** A prompt rendered for a session serving `label`. */
  promptServed(label: string): void;
  /** A notification handed to a transport (`notifications/prompts/list_changed`, …). */
  notification(transport: McpTransportName, method: string): void;
  /** Where the open-session gauge reads a transport's count from, at scrape time. */
  countSessions(transport: McpTransportName, count: () => number): void;
}

export interface HttpMetrics {
  /** One HTTP response: `route` is the matched route pattern, never the raw path. */
  request(method: string, route: string, status: number, seconds: number): void;
}

/** What the metrics read from the core at scrape time (structural: the core needs no import of this). */
export interface MetricsSources {
  /** Served prompts (the production view). */
  servedPrompts(): number;
  /** Pool counts, or null where the database has none (SQLite): then no pool gauges are exported. */
  poolStats(): { total: number; idle: number; waiting: number; max: number } | null;
  /** Change events as this instance sees them, to measure how late it sees them. */
  subscribeChanges(fn: (events: { at: Date }[]) => void): () => void;
  /** Failed authentications as they happen, by face (admin, mcp, read, events). */
  subscribeAuthFailures?(fn: (face: string) => void): () => void;
}

/** The faces promptd_auth_failures_total counts: a closed set, so the label stays bounded. */
const AUTH_FAILURE_FACES = ['admin', 'mcp', 'read', 'events'] as const;

export interface Metrics {
  readonly registry: Registry;
  readonly http: HttpMetrics;
  readonly mcp: McpMetrics;
  /** A prompt delivered under `label` by the read API (MCP reports through mcp.promptServed). */
  promptServed(label: string): void;
  /** Reads the catalog size, pool counts and change-feed lag from `sources`; returns the unsubscribe. */
  watch(sources: MetricsSources): () => void;
  /** The exposition text and its content type. */
  scrape(): Promise<{ body: string; contentType: string }>;
}

export interface MetricsOptions {
  /** Process and Node.js metrics (event-loop lag, heap, CPU, file descriptors); default on. */
  defaultMetrics?: boolean;
  /** The clock change-feed lag is measured against (tests). */
  now?: () => number;
}

/**
 * prom-client hashes a label set on every inc/observe (several µs on the prompts/get
 * path); the children for a label set are looked up once and kept. The label sets are
 * few (routes, methods, statuses, labels), so the map stays small.
 */
function memo<C>(make: (...values: string[]) => C): (...values: string[]) => C {
  const children = new Map<string, C>();
  return (...values) => {
    const key = values.join('\u0000');
    let child = children.get(key);
    if (!child) children.set(key, (child = make(...values)));
    return child;
  };
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];

export function createMetrics(opts: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const now = opts.now ?? Date.now;
  if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({ name: 'promptd_http_requests_total', help: 'HTTP requests answered, by method, matched route pattern and status.', labelNames: ['method', 'route', 'status'] as const, registers });
  const httpDuration = new Histogram({ name: 'promptd_http_request_duration_seconds', help: 'HTTP request latency until the response (its headers, for a stream), by method, route pattern and status.', labelNames: ['method', 'route', 'status'] as const, buckets: LATENCY_BUCKETS, registers });
  const mcpRequests = new Counter({ name: 'promptd_mcp_requests_total', help: 'MCP JSON-RPC requests answered, by transport, method and outcome (ok, or the JSON-RPC error code).', labelNames: ['transport', 'method', 'outcome'] as const, registers });
  const mcpDuration = new Histogram({ name: 'promptd_mcp_request_duration_seconds', help: 'MCP request latency from the request reaching the server to its response, by transport and method.', labelNames: ['transport', 'method'] as const, buckets: LATENCY_BUCKETS, registers });
  const served = new Counter({ name: 'promptd_prompts_served_total', help: 'Prompts served by label: MCP prompts/get (the label the session serves) and read API definitions and renders (the label asked for).', labelNames: ['label'] as const, registers });
  const notifications = new Counter({ name: 'promptd_mcp_notifications_total', help: 'MCP notifications handed to a transport, by transport and method.', labelNames: ['transport', 'method'] as const, registers });

  const sessionCounts = new Map<McpTransportName, () => number>();
  new Gauge({
    name: 'promptd_mcp_sessions',
    help: 'Open MCP sessions, by transport.',
    labelNames: ['transport'] as const,
    registers,
    collect() {
      for (const [transport, count] of sessionCounts) this.set({ transport }, count());
    },
  });

  const feedLag = new Histogram({ name: 'promptd_change_feed_lag_seconds', help: 'Seconds between a change event being written and this instance seeing it in the change feed.', buckets: LAG_BUCKETS, registers });

  const httpChild = memo((method, route, status) => {
    const labels = { method, route, status };
    return { count: httpRequests.labels(labels), time: httpDuration.labels(labels) };
  });
  const mcpChild = memo((transport, method, outcome) => ({
    count: mcpRequests.labels({ transport, method, outcome }),
    time: mcpDuration.labels({ transport, method }),
  }));
  const servedChild = memo((label) => served.labels({ label }));

  return {
    registry,
    http: {
      request(method, route, status, seconds) {
        const child = httpChild(method, route, String(status));
        child.count.inc();
        child.time.observe(seconds);
      },
    },
    mcp: {
      request(transport, method, outcome, seconds) {
        const child = mcpChild(transport, method, outcome);
        child.count.inc();
        child.time.observe(seconds);
      },
      promptServed: (label) => servedChild(label).inc(),
      notification: (transport, method) => notifications.inc({ transport, method }),
      countSessions: (transport, count) => void sessionCounts.set(transport, count),
    },
    promptServed: (label) => servedChild(label).inc(),
    watch(sources) {
      // Registered here, not up front: the gauges exist only while something feeds them.
      new Gauge({
        name: 'promptd_catalog_served_prompts', help: 'Prompts served (the production view of the in-memory catalog).', registers,
        collect() { this.set(sources.servedPrompts()); },
      });
      if (sources.poolStats()) {
        const pool = (name: string, help: string, pick: (s: NonNullable<ReturnType<MetricsSources['poolStats']>>) => number) =>
          new Gauge({
            name, help, registers,
            collect() {
              const s = sources.poolStats();
              if (s) this.set(pick(s));
            },
          });
        pool('promptd_db_pool_connections', 'Database pool connections open (idle and in use).', (s) => s.total);
        pool('promptd_db_pool_idle_connections', 'Database pool connections open and idle.', (s) => s.idle);
        pool('promptd_db_pool_waiting_requests', 'Queries waiting for a database pool connection.', (s) => s.waiting);
        pool('promptd_db_pool_max_connections', 'The database pool size limit.', (s) => s.max);
      }
      const failures = new Counter({ name: 'promptd_auth_failures_total', help: 'Requests refused for a missing or invalid credential, by face (admin, mcp, read, events).', labelNames: ['face'] as const, registers });
      for (const face of AUTH_FAILURE_FACES) failures.inc({ face }, 0);
      const offFailures = sources.subscribeAuthFailures?.((face) => {
        if ((AUTH_FAILURE_FACES as readonly string[]).includes(face)) failures.inc({ face });
      });
      const offChanges = sources.subscribeChanges((events) => {
        const t = now();
        for (const e of events) feedLag.observe(Math.max(0, (t - e.at.getTime()) / 1000));
      });
      return () => {
        offFailures?.();
        offChanges();
      };
    },
    async scrape() {
      return { body: await registry.metrics(), contentType: registry.contentType };
    },
  };
}
