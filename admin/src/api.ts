// The only module that talks to the server (fetch and EventSource).
import { clearToken, getToken } from './auth';
import type {
  ChangeEvent, CreatePromptBody, Page, Problem, PromptDetail, PromptSummary, RenderResult,
  Resource, ResourceBody, ResourceDetail, ResourceTemplate, ResourceTemplateBody, Version,
  VersionBody, VersionSummary,
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

interface Options { method?: string; body?: unknown; headers?: Record<string, string>; token?: string; signal?: AbortSignal }
interface Raw<T> { data: T; etag: string | null }

async function request<T>(path: string, opts: Options = {}): Promise<Raw<T>> {
  const token = opts.token ?? getToken() ?? '';
  const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}`, ...opts.headers };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(API_BASE + path, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
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
  const data = res.status === 204 ? (undefined as T) : ((await res.json()) as T);
  return { data, etag: res.headers.get('ETag') };
}

const enc = encodeURIComponent;
function qs(params: Record<string, string | number | null | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') sp.set(k, String(v));
  const s = sp.toString();
  return s ? `?${s}` : '';
}
const data = <T>(p: Promise<Raw<T>>) => p.then((r) => r.data);

export type ArchivedFilter = 'false' | 'true' | 'all';

export const api = {
  /** Checks a token without touching the stored one. */
  verifyToken: (token: string) => data(request<Page<PromptSummary>>('/prompts?limit=1', { token })),

  listPrompts: (p: { q?: string; archived?: ArchivedFilter; limit?: number; cursor?: string | null }, signal?: AbortSignal) =>
    data(request<Page<PromptSummary>>(`/prompts${qs(p)}`, { signal })),
  getPrompt: (name: string) => request<PromptDetail>(`/prompts/${enc(name)}`),
  createPrompt: (body: CreatePromptBody) => data(request<PromptDetail>('/prompts', { method: 'POST', body })),
  patchPrompt: (name: string, body: { name?: string; archived?: boolean }) =>
    data(request<PromptDetail>(`/prompts/${enc(name)}`, { method: 'PATCH', body })),
  deletePrompt: (name: string) => data(request<void>(`/prompts/${enc(name)}`, { method: 'DELETE' })),

  listVersions: (name: string, cursor?: string | null) =>
    data(request<Page<VersionSummary>>(`/prompts/${enc(name)}/versions${qs({ limit: 50, cursor })}`)),
  getVersion: (name: string, n: number) => data(request<Version>(`/prompts/${enc(name)}/versions/${n}`)),
  createVersion: (name: string, body: VersionBody, etag: string | null) =>
    data(request<Version>(`/prompts/${enc(name)}/versions`, { method: 'POST', body, headers: etag ? { 'If-Match': etag } : {} })),
  activate: (name: string, version: number) =>
    data(request<PromptDetail>(`/prompts/${enc(name)}/active`, { method: 'PUT', body: { version } })),
  deactivate: (name: string) => data(request<PromptDetail>(`/prompts/${enc(name)}/active`, { method: 'DELETE' })),
  render: (name: string, args: Record<string, string>, version?: number, signal?: AbortSignal) =>
    data(request<RenderResult>(`/prompts/${enc(name)}/render`, { method: 'POST', body: { version, arguments: args }, signal })),

  listResources: (p: { q?: string; limit?: number; cursor?: string | null } = {}) =>
    data(request<Page<Resource>>(`/resources${qs(p)}`)),
  getResource: (id: Resource['id']) => data(request<ResourceDetail>(`/resources/${enc(String(id))}`)),
  createResource: (body: ResourceBody) => data(request<Resource>('/resources', { method: 'POST', body })),
  updateResource: (id: Resource['id'], body: ResourceBody) =>
    data(request<Resource>(`/resources/${enc(String(id))}`, { method: 'PUT', body })),
  deleteResource: (id: Resource['id']) => data(request<void>(`/resources/${enc(String(id))}`, { method: 'DELETE' })),

  listTemplates: (cursor?: string | null) =>
    data(request<Page<ResourceTemplate>>(`/resource-templates${qs({ limit: 200, cursor })}`)),
  createTemplate: (body: ResourceTemplateBody) =>
    data(request<ResourceTemplate>('/resource-templates', { method: 'POST', body })),
  updateTemplate: (id: ResourceTemplate['id'], body: ResourceTemplateBody) =>
    data(request<ResourceTemplate>(`/resource-templates/${enc(String(id))}`, { method: 'PUT', body })),
  deleteTemplate: (id: ResourceTemplate['id']) =>
    data(request<void>(`/resource-templates/${enc(String(id))}`, { method: 'DELETE' })),
};

/** Opens the change-event stream; EventSource cannot send headers, so the token goes in the query. */
export function openEvents(onChange: (e: ChangeEvent) => void, onStatus: (s: 'open' | 'error') => void): () => void {
  const es = new EventSource(`${API_BASE}/events?access_token=${enc(getToken() ?? '')}`);
  es.addEventListener('open', () => onStatus('open'));
  es.addEventListener('error', () => onStatus('error'));
  es.addEventListener('change', (ev) => {
    try {
      onChange(JSON.parse((ev as MessageEvent<string>).data) as ChangeEvent);
    } catch {
      /* ignore malformed events */
    }
  });
  return () => es.close();
}

/** The human message for an error, for banners. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    const p = err.problem;
    return [p.title, p.detail].filter(Boolean).filter((v, i, a) => a.indexOf(v) === i).join(': ') || `HTTP ${err.status}`;
  }
  return err instanceof Error ? err.message : String(err);
}
