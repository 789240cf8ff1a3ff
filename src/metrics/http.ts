// The HTTP side of metrics: a middleware that times every response by its matched
// route pattern, and GET /metrics.
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { HttpMetrics, Metrics } from './metrics.js';

/** The route label of a request no route answered (the not-found handler). */
export const UNMATCHED_ROUTE = 'unmatched';

// Answers of the not-found handler: whichever middleware ran last, no route matched.
const unmatched = new WeakSet<Context>();

/** Marks `c` as answered by the not-found handler (call it there). */
export function markUnmatched(c: Context): void {
  unmatched.add(c);
}

/**
 * Times each request to its response. The route label is the registered pattern of
 * whatever answered (`/admin/v1/prompts/:name`, or `/admin/v1/*` when the auth
 * middleware refused): never the raw path, which holds prompt names.
 */
export function httpMetrics(http: HttpMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = unmatched.has(c) ? UNMATCHED_ROUTE : routePath(c) || UNMATCHED_ROUTE;
      // After an error Hono's onError has already set c.res (500 or the mapped problem).
      http.request(c.req.method, route, statusOf(c), (performance.now() - started) / 1000);
    }
  };
}

/**
 * The status sent. A handler that wrote to Node's response itself (the legacy SSE
 * transport) hands Hono a placeholder 200; the real status is on Node's response.
 */
function statusOf(c: Context): number {
  if (c.res.headers.get('x-hono-already-sent')) {
    const outgoing = (c.env as { outgoing?: { statusCode?: number } } | undefined)?.outgoing;
    if (typeof outgoing?.statusCode === 'number') return outgoing.statusCode;
  }
  return c.res.status;
}

export interface MetricsEndpointOptions {
  /** PROMPTD_METRICS=1: anyone who can reach the port may scrape. */
  open: boolean;
  /** Whether a bearer token is a valid admin token. */
  authenticate(token: string | undefined): Promise<boolean>;
  /** The answer when access is refused: the app's own not-found, so the endpoint does not reveal itself. */
  notFound(c: Context): Response | Promise<Response>;
}

/**
 * GET /metrics. Closed unless PROMPTD_METRICS=1 or the request presents a valid admin
 * token; closed answers exactly like a route that does not exist (404, not 401), so a
 * scan does not learn that metrics are there.
 */
export function metricsHandler(metrics: Metrics, opts: MetricsEndpointOptions) {
  return async (c: Context) => {
    if (!opts.open) {
      const token = c.req.header('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
      if (!token || !(await opts.authenticate(token))) return opts.notFound(c);
    }
    const { body, contentType } = await metrics.scrape();
    return c.body(body, 200, { 'content-type': contentType, 'cache-control': 'no-store' });
  };
}
