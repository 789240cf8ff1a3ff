import { createApp } from '../../src/http/app.js';
import type { Core } from '../../src/core/index.js';

export const TOKEN = 'test-admin-token';

export function makeClient(core: Core) {
  const app = createApp({ core, logError: (e) => console.error(e) });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.request(`/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
  return { app, call };
}

export const textPrompt = (name: string, text = 'Hello {{who}}', extra: Record<string, unknown> = {}) => ({
  name,
  description: `prompt ${name}`,
  arguments: [{ name: 'who', description: 'who to greet', required: true }],
  messages: [{ role: 'user', content: { type: 'text', text } }],
  ...extra,
});
