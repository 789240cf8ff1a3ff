// A client of the read API (/v1) through app.request(): every response is checked,
// strictly, against the read API's own OpenAPI document (/v1/openapi.json).
import { expect } from 'vitest';
import { createApp } from '../../src/http/app.js';
import type { Core } from '../../src/core/index.js';
import type { EventStreamLimits } from '../../src/rest/events/stream-registry.js';
import { assertConforms, type OpenApiDoc } from '../helpers/openapi.js';
import { TOKEN } from '../helpers/http.js';

export function makeReadClient(core: Core, opts: { events?: Partial<EventStreamLimits> } = {}) {
  const app = createApp({ core, logError: (e) => console.error(e), events: opts.events });
  let doc: Promise<OpenApiDoc> | undefined;
  const openapi = () => (doc ??= Promise.resolve(app.request('/v1/openapi.json')).then((r) => r.json() as Promise<OpenApiDoc>));
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, init: RequestInit = {}) => {
    const res = await app.request(`/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      ...init,
    });
    await assertConforms(await openapi(), method, path.split('?')[0]!, res);
    return res;
  };
  return { app, call, openapi };
}

export const problem = async (res: Response, status: number) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return res.json() as Promise<{ detail: string; errors?: { path: string; message: string }[] }>;
};

export interface SseFrame {
  event?: string;
  id?: string;
  data?: string;
}

/** Reads server-sent event frames from a response body, one at a time (comments skipped). */
export function sseReader(res: Response) {
  const r = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  return {
    async next(): Promise<SseFrame | null> {
      for (;;) {
        const end = buf.indexOf('\n\n');
        if (end >= 0) {
          const raw = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const frame: SseFrame = {};
          for (const line of raw.split('\n')) {
            const m = /^(event|id|data): ?(.*)$/.exec(line);
            if (m) frame[m[1] as keyof SseFrame] = m[2];
          }
          if (Object.keys(frame).length) return frame;
          continue;
        }
        const { done, value } = await r.read();
        if (done) return null;
        buf += dec.decode(value, { stream: true });
      }
    },
    cancel: () => r.cancel(),
  };
}
