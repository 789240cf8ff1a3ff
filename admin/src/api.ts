// The only module that talks to the server (fetch and EventSource). Requests go through
// Hono's typed client, so paths, parameters, bodies and responses are checked against the
// server's route definitions (src/rest/admin-api-type.ts).
import { hc, type ClientRequestOptions, type InferRequestType } from 'hono/client';
import type { AdminApi } from '../../src/rest/admin-api-type';
import { clearToken, getToken } from './auth';
import type {
  ChangeEvent, CreatePromptBody, Ok, Problem, Resource, ResourceBody, ResourceTemplate, ResourceTemplateBody, VersionBody,
} from './types';

export const API_BASE = `${import.meta.env.BASE_URL.replace(/\/$/, '')}/v1`;

export class ApiError extends Error {
  constructor(readonly status: number, readonly problem: Problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
  }
  /** Field errors keyed by path, e.g. `messages[0].content.text`. */
  get fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this.problem.errors ?? []) out[e.path] = out[e.path] ? `${out[e.path]}; ${e.message}` : e.message;
    return out;
  }
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {};
export function setUnauthorizedHandler(fn: UnauthorizedHandler): void {
  onUnauthorized = fn;
}

export const client = hc<AdminApi>(API_BASE);

interface Options { headers?: Record<string, string>; token?: string; signal?: AbortSignal }
interface Raw<T> { data: T; etag: string | null }
/** One endpoint of the typed client, e.g. `client.prompts[':name'].$get`. */
type Endpoint = (args: never, opts?: ClientRequestOptions) => Promise<Response>;
/** The success body; `undefined` for 204 No Content. */
type Data<E> = [Ok<E>] extends [never] ? undefined : Ok<E>;

/** Sends a request with the bearer token; a non-2xx answer becomes an ApiError (401 signs out). The body is left unread. */
export async function requestRaw<E extends Endpoint>(endpoint: E, args: Parameters<E>[0], opts: Options = {}): Promise<Response> {
  const token = opts.token ?? getToken() ?? '';
  const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}`, ...opts.headers };
  let res: Response;
  try {
    res = await endpoint(args as never, { headers, init: { signal: opts.signal } });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, { status: 0, title: 'Network error', detail: 'Could not reach the server. Is promptd running?' });
  }
  if (!res.ok) {
    let problem: Problem = { status: res.status, title: res.statusText };
    try {
      const body = (await res.json()) as Partial<Problem>;
      problem = { ...problem, ...body, status: res.status };
    } catch {
      /* not JSON */
    }
    if (res.status === 401 && opts.token === undefined) {
      clearToken();
      onUnauthorized();
    }
    throw new ApiError(res.status, problem);
  }
  return res;
}

export async function request<E extends Endpoint>(endpoint: E, args: Parameters<E>[0], opts: Options = {}): Promise<Raw<Data<E>>> {
  const res = await requestRaw(endpoint, args, opts);
  const data = res.status === 204 ? (undefined as Data<E>) : ((await res.json()) as Data<E>);
  return { data, etag: res.headers.get('ETag') };
}

const enc = encodeURIComponent;
type Query<T> = { [K in keyof T]?: NonNullable<T[K]> extends string ? NonNullable<T[K]> : string };
/** Query values as strings, without empty ones. */
function qs<T extends Record<string, string | number | null | undefined>>(params: T): Query<T> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') out[k] = String(v);
  return out as Query<T>;
}
const data = <T>(p: Promise<Raw<T>>) => p.then((r) => r.data);
const prompt = (name: string) => client.prompts[':name'];
const nameParam = (name: string) => ({ param: { name: enc(name) } });
const idParam = (id: number) => ({ param: { id: String(id) } });

export type ArchivedFilter = 'false' | 'true' | 'all';
/** The list's sort orders, as the server's route defines them (name, updated, lastUsed). */
export type PromptSort = NonNullable<NonNullable<InferRequestType<typeof client.prompts.$get>['query']>['sort']>;
export type PromptStatus = 'pending' | 'inactive' | 'archived';
/** GET /prompts: search, filters, sort and one keyset page; `unusedFor` (e.g. `30d`): only prompts no client has fetched for that long (or ever). */
export type PromptQuery = { q?: string; archived?: ArchivedFilter; label?: string; tag?: string; status?: PromptStatus; sort?: PromptSort; unusedFor?: string; limit?: number; cursor?: string | null };

export const api = {
  /** Checks a token without touching the stored one. */
  verifyToken: (token: string) => data(request(client.prompts.$get, { query: { limit: '1' } }, { token })),

  listPrompts: (p: PromptQuery, signal?: AbortSignal) =>
    data(request(client.prompts.$get, { query: qs(p) }, { signal })),
  getPrompt: (name: string) => request(prompt(name).$get, nameParam(name)),
  createPrompt: (body: CreatePromptBody) => data(request(client.prompts.$post, { json: body })),
  patchPrompt: (name: string, body: { name?: string; archived?: boolean }) =>
    data(request(prompt(name).$patch, { ...nameParam(name), json: body })),
  setTags: (name: string, tags: string[]) => data(request(prompt(name).tags.$put, { ...nameParam(name), json: { tags } })),
  deletePrompt: (name: string) => data(request(prompt(name).$delete, nameParam(name))),
  /** The bin: soft-deleted prompts with deletedAt and deletedBy. */
  listDeleted: (cursor?: string | null) => data(request(client.prompts.$get, { query: { ...qs({ limit: 50, cursor }), deleted: 'true' } })),
  restorePrompt: (name: string) => data(request(prompt(name).restore.$post, nameParam(name))),

  promptLabels: (name: string) => data(request(prompt(name).labels.$get, nameParam(name))),
  listLabels: () => data(request(client.labels.$get, {})),
  /** `force`: an admin moves a protected label although the version's checks fail (recorded in the change log). */
  setLabel: (name: string, label: string, version: number, etag: string | null, force?: boolean) =>
    request(prompt(name).labels[':label'].$put, { param: { name: enc(name), label }, json: { version, ...(force ? { force } : {}) }, header: etag ? { 'if-match': etag } : {} }),
  removeLabel: (name: string, label: string, etag: string | null) =>
    request(prompt(name).labels[':label'].$delete, { param: { name: enc(name), label }, header: etag ? { 'if-match': etag } : {} }),
  promote: (from: string, body: { to: string; prompts?: string[]; dryRun?: boolean; force?: boolean }) =>
    data(request(client.labels[':from'].promote.$post, { param: { from }, json: body })),
  labelHistory: (name: string, cursor?: string | null) =>
    data(request(prompt(name)['label-history'].$get, { ...nameParam(name), query: qs({ limit: 50, cursor }) })),

  listVersions: (name: string, cursor?: string | null) =>
    data(request(prompt(name).versions.$get, { ...nameParam(name), query: qs({ limit: 50, cursor }) })),
  getVersion: (name: string, n: number) => data(request(prompt(name).versions[':n'].$get, { param: { name: enc(name), n: String(n) } })),
  createVersion: (name: string, body: VersionBody, etag: string | null) =>
    data(request(prompt(name).versions.$post, { ...nameParam(name), json: body, header: etag ? { 'if-match': etag } : {} })),
  activate: (name: string, version: number, force?: boolean) => data(request(prompt(name).active.$put, { ...nameParam(name), json: { version, ...(force ? { force } : {}) } })),
  deactivate: (name: string) => data(request(prompt(name).active.$delete, nameParam(name))),
  render: (name: string, args: Record<string, string>, version?: number, signal?: AbortSignal) =>
    data(request(prompt(name).render.$post, { ...nameParam(name), json: { version, arguments: args, preview: true } }, { signal })),

  listResources: (p: { q?: string; limit?: number; cursor?: string | null } = {}) => data(request(client.resources.$get, { query: qs(p) })),
  getResource: (id: Resource['id']) => data(request(client.resources[':id'].$get, idParam(id))),
  createResource: (body: ResourceBody) => data(request(client.resources.$post, { json: body })),
  updateResource: (id: Resource['id'], body: ResourceBody) => data(request(client.resources[':id'].$put, { ...idParam(id), json: body })),
  deleteResource: (id: Resource['id']) => data(request(client.resources[':id'].$delete, idParam(id))),

  listTemplates: () => data(request(client['resource-templates'].$get, {})),
  createTemplate: (body: ResourceTemplateBody) => data(request(client['resource-templates'].$post, { json: body })),
  updateTemplate: (id: ResourceTemplate['id'], body: ResourceTemplateBody) =>
    data(request(client['resource-templates'][':id'].$put, { ...idParam(id), json: body })),
  deleteTemplate: (id: ResourceTemplate['id']) => data(request(client['resource-templates'][':id'].$delete, idParam(id))),
};

/**
 * Opens the change-event stream. EventSource cannot send headers, so each connection
 * uses a single-use ticket from POST /events/ticket (never the token in the URL).
 * When the stream ends (the server closes it after its maximum lifetime, a network
 * drop, too many streams) the browser would retry the same URL, whose ticket is used
 * up; so we close it and reconnect with a fresh ticket, resuming after the last event.
 */
export function openEvents(onChange: (e: ChangeEvent) => void, onStatus: (s: 'open' | 'error') => void): () => void {
  let source: EventSource | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let lastId: string | undefined;
  let failures = 0;

  const reconnect = () => {
    if (closed) return;
    // The first reconnect after an open stream is immediate and silent (a lifetime end);
    // repeated failures are shown and back off up to 30 s.
    if (failures > 0) onStatus('error');
    const delay = failures === 0 ? 0 : Math.min(30_000, 1000 * 2 ** Math.min(failures - 1, 5));
    failures++;
    retry = setTimeout(() => void connect(), delay);
  };

  const connect = async () => {
    if (closed) return;
    let ticket: string;
    try {
      ticket = (await data(request(client.events.ticket.$post, {}))).ticket;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return onStatus('error'); // signed out
      if (failures === 0) failures = 1;
      return reconnect();
    }
    if (closed) return;
    const q = new URLSearchParams({ ticket });
    if (lastId) q.set('lastEventId', lastId);
    const es = new EventSource(`${API_BASE}/events?${q}`);
    source = es;
    es.addEventListener('open', () => {
      failures = 0;
      onStatus('open');
    });
    es.addEventListener('error', () => {
      es.close();
      if (source !== es) return;
      source = undefined;
      reconnect();
    });
    es.addEventListener('ready', (ev) => {
      try {
        const id = (JSON.parse((ev as MessageEvent<string>).data) as { lastEventId?: number }).lastEventId;
        if (lastId === undefined && typeof id === 'number') lastId = String(id);
      } catch {
        /* ignore */
      }
    });
    es.addEventListener('change', (ev) => {
      const msg = ev as MessageEvent<string>;
      if (msg.lastEventId) lastId = msg.lastEventId;
      try {
        onChange(JSON.parse(msg.data) as ChangeEvent);
      } catch {
        /* ignore malformed events */
      }
    });
  };

  void connect();
  return () => {
    closed = true;
    clearTimeout(retry);
    source?.close();
  };
}

/** The human message for an error, for banners. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    const p = err.problem;
    return [p.title, p.detail].filter(Boolean).filter((v, i, a) => a.indexOf(v) === i).join(': ') || `HTTP ${err.status}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** GET /server-info: the database a stdio MCP process should share (Connect page). */
export const getServerInfo = () => data(request(client['server-info'].$get, {}));
export type ServerInfo = Awaited<ReturnType<typeof getServerInfo>>;
