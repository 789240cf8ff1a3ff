import { createApp } from '../../src/http/app.js';
import type { Core } from '../../src/core/index.js';
import { assertConforms, type OpenApiDoc } from './openapi.js';

export const TOKEN = 'test-admin-token';

export function makeClient(core: Core) {
  const app = createApp({ core, logError: (e) => console.error(e) });
  let doc: Promise<OpenApiDoc> | undefined;
  /** The published document, fetched once per client. */
  const openapi = () => (doc ??= Promise.resolve(app.request('/admin/v1/openapi.json')).then((r) => r.json() as Promise<OpenApiDoc>));
  /** Every response is checked against the OpenAPI document, strictly (an undeclared field fails). */
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await app.request(`/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    await assertConforms(await openapi(), method, path.split('?')[0]!, res);
    return res;
  };
  return { app, call, openapi };
}

export const textPrompt = (name: string, text = 'Hello {{who}}', extra: Record<string, unknown> = {}) => ({
  name,
  description: `prompt ${name}`,
  arguments: [{ name: 'who', description: 'who to greet', required: true }],
  messages: [{ role: 'user', content: { type: 'text', text } }],
  ...extra,
});
