// The version-write fast path (issue 21): POST /admin/v1/prompts/{name}/versions taken
// straight from Node's IncomingMessage to core.prompts.createVersion and answered with
// one JSON body, without @hono/node-server's Request/Response bridge, Hono's middleware
// chain and zod-openapi's async validators. Those were about a quarter of the server's
// CPU per version write (bench/history.md, section 31).
//
// Only the plain, valid case is taken: a JSON body with a declared length that parses
// and passes the route's schemas, from a caller whose bearer token is valid and whose
// role may write. Anything else (bad JSON, an invalid body, no or a wrong token, a
// reader, an odd content type, a query string, a percent-encoded name, an Origin or Host
// in doubt) is handed to the Hono app with the body already read, so every refusal is
// the app's own. What the fast path answers itself, a created version, a domain error
// from the write (404, 412, 422, 409) or a rate-limit refusal, it builds with the same
// functions as the app (renderError, problemTooMany, versionWarnings), with the
// same security headers and the same metrics label. test/rest/fast-version-write.test.ts
// sends each case both ways and compares status, headers and body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { Core } from '../core/index.js';
import { VersionInputSchema } from '../core/schemas.js';
import { versionWarnings } from '../core/validate-version.js';
import { roleAllows } from '../core/access.js';
import type { HostAllowList } from '../http/host-allowlist.js';
import { callerSubject, problemTooMany, type RateLimitOptions } from '../http/rate-limit.js';
import { ACCESS_TABLE } from './access-table.js';
import { renderError } from './problem.js';
import { NameParamSchema } from './schemas.js';

/** The label the app's metrics middleware gives this route (its registered pattern). */
export const VERSION_WRITE_ROUTE = '/admin/v1/prompts/:name/versions';
/** …and of an answer from the admin API's auth middleware (a rate-limit refusal), which no route matched yet. */
const MIDDLEWARE_ROUTE = '/admin/v1/*';
const PATH = /^\/admin\/v1\/prompts\/([^/?#%]+)\/versions$/;
const NEED = ACCESS_TABLE['POST /prompts/{name}/versions'];
const IF_MATCH_MAX = 100;

export interface FastVersionWriteDeps {
  core: Core;
  hosts?: HostAllowList;
  rate?: RateLimitOptions;
  /** The admin API's body limit (413 above it, from the app). */
  bodyLimitBytes: number;
  /** The headers the app's adminSecurityHeaders() puts on every /admin/* answer. */
  securityHeaders: ReadonlyArray<readonly [string, string]>;
  /** The app, for every request the fast path does not answer itself. */
  fetch(request: Request, env: { incoming: IncomingMessage; outgoing: ServerResponse }): Response | Promise<Response>;
  /** HTTP metrics (route label, status, seconds), as the app's middleware records them. */
  observe?(route: string, status: number, seconds: number): void;
  logError?(e: unknown): void;
}

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? undefined : v);

/** Header checks that need no body: whether the request may be ours at all. */
function candidate(req: IncomingMessage, d: FastVersionWriteDeps): RegExpExecArray | null {
  if (req.method !== 'POST') return null;
  const m = PATH.exec(req.url ?? '');
  if (!m) return null;
  const h = req.headers;
  const type = h['content-type']?.toLowerCase();
  if (type !== 'application/json' && type !== 'application/json; charset=utf-8') return null;
  const length = h['content-length'];
  if (length === undefined || h['transfer-encoding'] !== undefined || !(Number(length) <= d.bodyLimitBytes)) return null;
  if (typeof h.authorization !== 'string') return null;
  const origin = one(h.origin);
  if (h.origin !== undefined && (origin === undefined || !d.hosts || !d.hosts.allowsOrigin(origin))) return null;
  if (d.hosts?.active && !d.hosts.allowsHost(one(h.host) ?? '')) return null;
  const ifMatch = h['if-match'];
  if (ifMatch !== undefined && (typeof ifMatch !== 'string' || ifMatch.length > IF_MATCH_MAX)) return null;
  return m;
}

function readAll(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', () => resolve(null));
    // A client gone before the end of its body: 'close' without 'end' (after 'end', a no-op).
    req.once('close', () => resolve(null));
  });
}

/** Enough of a Hono Context for renderError and problemTooMany (they read the path). */
const contextFor = (path: string) => ({ req: { path } }) as unknown as Context;

/**
 * A Node request listener: answers the version writes it can (see the file comment),
 * hands every other request to `next` untouched.
 */
export function createFastVersionWrite(d: FastVersionWriteDeps, next: (req: IncomingMessage, res: ServerResponse) => unknown) {
  /** Requests answered here, and those handed to the app after reading their body (tests, benchmarks). */
  const stats = { answered: 0, handedOn: 0 };
  const send = (res: ServerResponse, status: number, headers: Record<string, string>, text: string, secure = true) => {
    if (secure) for (const [k, v] of d.securityHeaders) headers[k] = v;
    headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(status, headers).end(text);
  };
  /** `secure`: add the admin security headers (an answer built here; the app's own has them). */
  const sendResponse = async (res: ServerResponse, r: Response, secure = true) => {
    const headers: Record<string, string> = {};
    r.headers.forEach((v, k) => (headers[k] = v));
    send(res, r.status, headers, await r.text(), secure);
  };
  // The app with the body already read: its own answer, whatever it is.
  const slow = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    stats.handedOn++;
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const url = `http://${one(req.headers.host) ?? 'localhost'}${req.url}`;
    await sendResponse(res, await d.fetch(new Request(url, { method: 'POST', headers, body: Uint8Array.from(body) }), { incoming: req, outgoing: res }), false);
  };

  async function serve(req: IncomingMessage, res: ServerResponse, rawName: string): Promise<void> {
    const started = performance.now();
    const body = await readAll(req);
    if (!body) return void res.destroy();
    const done = (status: number, route = VERSION_WRITE_ROUTE) => {
      stats.answered++;
      d.observe?.(route, status, (performance.now() - started) / 1000);
    };
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      return slow(req, res, body);
    }
    const param = NameParamSchema.safeParse({ name: rawName });
    const input = param.success ? VersionInputSchema.safeParse(json) : undefined;
    if (!param.success || !input?.success) return slow(req, res, body);
    const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization!)?.[1]?.trim();
    const principal = await d.core.tokens.authenticate(token, 'admin');
    const role = principal?.role ?? 'reader';
    if (!principal || !roleAllows(role, NEED)) return slow(req, res, body);
    const path = req.url!;
    if (d.rate) {
      const refused = d.rate.limiter.check(callerSubject(principal), 'write');
      if (refused) {
        await sendResponse(res, problemTooMany(contextFor(path), refused));
        return done(429, MIDDLEWARE_ROUTE);
      }
    }
    const name = param.data.name;
    const actor = { name: principal.actor, role, display: principal.display ?? principal.actor };
    let created;
    try {
      created = await d.core.prompts.createVersion(name, input.data, actor, { ifMatch: one(req.headers['if-match']) });
    } catch (e) {
      const r = renderError(e, contextFor(path), d.logError);
      await sendResponse(res, r);
      return done(r.status);
    }
    const { created: v, etag } = created;
    // wire(v) is v's JSON round trip; a Version holds no binary (media data is base64
    // text already), so serialising v itself gives the same text without the walk.
    const text = JSON.stringify({ ...v, warnings: versionWarnings(input.data) });
    send(res, 201, { 'content-type': 'application/json', etag, location: `/admin/v1/prompts/${encodeURIComponent(name)}/versions/${v.version}` }, text);
    done(201);
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const m = candidate(req, d);
    if (!m) return void next(req, res);
    void serve(req, res, m[1]!).catch((e) => {
      d.logError?.(e);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  };
  return Object.assign(listener, { stats });
}
