// The prompts/get (and prompts/list) fast path (issue 21): a POST /mcp holding one
// JSON-RPC prompts/get or prompts/list request on an established session is taken straight from Node's IncomingMessage to
// the session's SDK Server and answered with one JSON body, without the Hono
// Request/Response bridge or the SDK transport's per-request SSE stream (a
// ReadableStream, a TextEncoder, a UUID and three socket writes per answer). The
// profile in docs/benchmarks.md says what each of those cost.
//
// The semantics stay those of the slow path: the same Host/Origin checks, the same
// admission (authentication, rate limit, token-use note), the session bound to its
// principal, session expiry, metrics and usage recording (the Server's own handler and
// the transport wrappers of observe.ts and protocol-shape.ts still see every message).
// What the client gets is what the SDK answers in its JSON response mode
// (enableJsonResponse), which the Streamable HTTP spec lets a server pick per request.
// Anything else, or anything in doubt, falls back to the Hono app untouched: the body
// already read is handed over through json-body.ts's preRead.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_BODY_BYTES, preRead } from './json-body.js';
import type { HostAllowList } from '../http/host-allowlist.js';
import { sessionBinding } from './mcp-auth.js';

type RpcId = string | number;
type Obj = Record<string, unknown>;

/** One session's side of the fast path: requests in, their responses captured on the way out. */
export interface FastDispatch {
  /**
   * Hands `message` to the session's Server; resolves with its response, or with
   * undefined when the session closed first. undefined at once: the id is already in
   * flight here.
   */
  dispatch(message: JSONRPCMessage, headers: IncomingMessage['headers']): Promise<JSONRPCMessage | undefined> | undefined;
  /** The session closed: requests still waiting get no response from the Server. */
  closed(): void;
  /**
   * The client went away before its answer: a late response for `id` is dropped here
   * (not handed to the SDK transport, which has no stream for it). A cancelled request
   * never gets one, so its entry stays until the session closes.
   */
  forget(id: RpcId): void;
}

/**
 * Call on a transport before server.connect(): later wrappers of send (protocol
 * shaping, metrics) sit outside this one, so a captured response has passed them all.
 * Uses only the public Transport interface (send, onmessage).
 */
export function fastDispatchFor(transport: Transport): FastDispatch {
  const waiting = new Map<RpcId, (m: JSONRPCMessage | undefined) => void>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (waiting.size) {
      const m = message as Obj;
      const isResponse = 'result' in m || 'error' in m;
      const id = isResponse ? (m.id as RpcId) : options?.relatedRequestId;
      const resolve = id === undefined ? undefined : waiting.get(id);
      if (resolve) {
        // A notification tied to a fast request is dropped, as the SDK's JSON response mode does.
        if (isResponse) {
          waiting.delete(id!);
          resolve(message);
        }
        return Promise.resolve();
      }
    }
    return send(message, options);
  };
  return {
    dispatch(message, headers) {
      const id = (message as { id: RpcId }).id;
      const receive = transport.onmessage;
      if (waiting.has(id) || !receive) return undefined;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        receive(message, { requestInfo: { headers } });
      });
    },
    closed() {
      for (const resolve of waiting.values()) resolve(undefined);
      waiting.clear();
    },
    forget: (id) => void (waiting.has(id) && waiting.set(id, () => {})),
  };
}

/** What the fast path needs of the MCP app (src/mcp/http.ts). */
export interface FastPathDeps {
  hosts: HostAllowList;
  /** Authentication, rate limit and token-use note, as on the slow path. */
  admission(c: Context): Promise<{ id: string; scopes?: string[] } | Response>;
  /** The session `id` if it exists: its owner and dispatcher. */
  session(id: string): { principal: string; fast: FastDispatch } | undefined;
  touch(id: string): void;
  /** HTTP metrics (method, route, status, seconds), as the app's middleware records them. */
  observe?(status: number, seconds: number): void;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** Just enough of a Hono Context for the admission checks (headers, the Node request, c.json). */
function nodeContext(req: IncomingMessage): Context {
  return {
    req: { header: (name: string) => header(req, name.toLowerCase()), method: 'POST', path: '/mcp' },
    env: { incoming: req },
    json: (body: unknown, status = 200, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } }),
  } as unknown as Context;
}

const ALLOWED_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
/**
 * prompts/list too: through the slow path (the web Request bridge, the SDK transport's
 * parse and SSE stream) a walk of 2,000 pages at 100,000 prompts promoted 11.5 MiB of
 * request objects to V8's old generation, 5.8 MiB this way (bench/history.md, sections
 * 23 and 26).
 */
const FAST_METHODS = new Set(['prompts/get', 'prompts/list']);

/** A single prompts/get or prompts/list request exactly as the SDK's JSON-RPC schema accepts it (no extra keys); anything else goes the slow way. */
function isFastRequest(m: unknown): m is JSONRPCMessage & { id: RpcId } {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return false;
  const o = m as Obj;
  if (o.jsonrpc !== '2.0' || typeof o.method !== 'string' || !FAST_METHODS.has(o.method)) return false;
  if (!(typeof o.id === 'string' || (typeof o.id === 'number' && Number.isInteger(o.id)))) return false;
  // prompts/list may come without params (the SDK Client sends none for the first page).
  if (!(o.params === undefined && o.method === 'prompts/list') && (typeof o.params !== 'object' || o.params === null || Array.isArray(o.params))) return false;
  for (const k in o) if (!ALLOWED_KEYS.has(k)) return false;
  return true;
}

function readBody(req: IncomingMessage): Promise<{ text: string } | { tooLarge: true } | { failed: true }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (r: { text: string } | { tooLarge: true } | { failed: true }) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onError);
      resolve(r);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        done({ tooLarge: true });
      } else chunks.push(chunk);
    };
    const onEnd = () => done({ text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8') });
    const onError = () => done({ failed: true });
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onError);
  });
}

async function writeResponse(res: ServerResponse, r: Response): Promise<void> {
  const body = Buffer.from(await r.arrayBuffer());
  res.writeHead(r.status, Object.fromEntries(r.headers)).end(body);
}

/**
 * A Node request listener wrapper: takes the requests it can answer fast, hands every
 * other one to `slow` (the Hono app's listener), unchanged or with its body pre-read.
 */
export function createFastPath(deps: () => FastPathDeps | undefined, slow: (req: IncomingMessage, res: ServerResponse) => unknown) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const d = deps();
    const sid = req.headers['mcp-session-id'];
    if (
      !d ||
      req.method !== 'POST' ||
      // `?label=` chooses a new session's view only; a client keeps it on every later request.
      !(req.url === '/mcp' || req.url?.startsWith('/mcp?')) ||
      typeof sid !== 'string' ||
      !(req.headers['content-type'] ?? '').includes('application/json') ||
      Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES
    ) {
      void slow(req, res);
      return;
    }
    const accept = header(req, 'accept') ?? '';
    const version = header(req, 'mcp-protocol-version');
    const origin = header(req, 'origin');
    if (
      !accept.includes('application/json') ||
      !accept.includes('text/event-stream') ||
      (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) ||
      (d.hosts.active && !d.hosts.allowsHost(header(req, 'host') ?? '')) ||
      (origin !== undefined && !d.hosts.allowsOrigin(origin)) ||
      !d.session(sid)
    ) {
      void slow(req, res);
      return;
    }
    void serve(d, req, res, sid, slow).catch((e) => {
      process.stderr.write(`promptd mcp fast path: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  };
}

async function serve(d: FastPathDeps, req: IncomingMessage, res: ServerResponse, sid: string, slow: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<void> {
  const started = performance.now();
  const read = await readBody(req);
  let body: unknown;
  if ('text' in read) {
    try {
      body = JSON.parse(read.text);
    } catch {
      preRead.set(req, { error: 'parse' });
      return void slow(req, res);
    }
  } else {
    preRead.set(req, { error: 'tooLarge' in read ? 'too-large' : 'read' });
    return void slow(req, res);
  }
  if (!isFastRequest(body)) {
    preRead.set(req, { body });
    return void slow(req, res);
  }
  // From here the request is ours: the same order of checks as the slow path.
  preRead.set(req, { body });
  const admitted = await d.admission(nodeContext(req));
  const done = (status: number) => d.observe?.(status, (performance.now() - started) / 1000);
  if (admitted instanceof Response) {
    await writeResponse(res, admitted);
    return done(admitted.status);
  }
  const session = d.session(sid);
  if (!session || session.principal !== sessionBinding(admitted)) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found: it expired or was closed; initialize a new session' }, id: null }));
    return done(404);
  }
  d.touch(sid);
  const answer = session.fast.dispatch(body, req.headers);
  // The same id already in flight on this session: the SDK transport sorts that out
  // (this rare request then counts twice against its rate limit).
  if (!answer) return void slow(req, res);
  const gone = () => {
    if (!res.writableEnded) session.fast.forget(body.id);
  };
  res.once('close', gone);
  const response = await answer;
  res.off('close', gone);
  if (!response) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found: it was closed while the request was in flight; initialize a new session' }, id: body.id }));
    return done(404);
  }
  const text = JSON.stringify(response);
  // A known length: one write, no chunked framing.
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'mcp-session-id': sid }).end(text);
  done(200);
}
