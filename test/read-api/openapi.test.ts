// The read API's own document (/v1/openapi.json), walked like the admin one in
// test/rest/openapi-responses.test.ts: every documented 2xx and 304 response gets a
// sample request, and each response must match its schema strictly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { actor, makeCore } from '../helpers/db.js';
import { TOKEN } from '../helpers/http.js';
import { findOperation, responseErrors, type OpenApiDoc } from '../helpers/openapi.js';
import { makeReadClient } from './helpers.js';

let core: Core;
let client: ReturnType<typeof makeReadClient>;
let doc: OpenApiDoc;
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeReadClient(core);
  doc = await client.openapi();
  await core.resources.create({ uri: 'docs://style', name: 'style', mimeType: 'text/plain', text: 'Be brief.' } as never, actor);
  await core.resources.create({ uri: 'image://logo.png', name: 'logo', mimeType: 'image/png', blob: png } as never, actor);
  await core.resources.createTemplate({ uriTemplate: 'docs://guide/{lang}', name: 'guide', mimeType: 'text/markdown', text: '# {{lang}}' } as never, actor);
  await core.prompts.create({
    name: 'walk', description: 'all of it', title: 'Every content type', activate: true,
    icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png', sizes: ['48x48'] }],
    arguments: [{ name: 'lang', title: 'Language', description: 'which guide', required: true, choices: ['rust', 'go'], maxLength: 10 }],
    messages: [
      { role: 'user', content: { type: 'text', text: 'Read the {{lang}} guide', annotations: { audience: ['user'], priority: 0.5 } } },
      { role: 'user', content: { type: 'resource', uri: 'docs://style' } },
      { role: 'user', content: { type: 'resource', uri: 'docs://guide/{lang}' } },
      { role: 'user', content: { type: 'image', resourceUri: 'image://logo.png' } },
      { role: 'assistant', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
      { role: 'assistant', content: { type: 'resource_link', uri: 'image://logo.png' } },
    ],
  } as never, actor);
});
afterAll(() => core.close());

interface Sample { method: string; path: string; body?: unknown; headers?: Record<string, string>; status: number }

async function* samples(): AsyncGenerator<Sample, void, void> {
  yield { method: 'GET', path: '/prompts/walk', status: 200 };
  const etag = (await client.call('GET', '/prompts/walk')).headers.get('etag')!;
  yield { method: 'GET', path: '/prompts/walk', headers: { 'if-none-match': etag }, status: 304 };
  const render = { arguments: { lang: 'rust' } };
  yield { method: 'POST', path: '/prompts/walk/render?label=latest', body: render, status: 200 };
  const rendered = (await client.call('POST', '/prompts/walk/render', render)).headers.get('etag')!;
  yield { method: 'POST', path: '/prompts/walk/render', body: render, headers: { 'if-none-match': rendered }, status: 304 };
  yield { method: 'GET', path: '/changes', status: 200 };
  yield { method: 'GET', path: '/changes?since=0&limit=2', status: 200 };
  yield { method: 'GET', path: '/changes/stream', status: 200 };
}

describe('/v1/openapi.json', () => {
  it('is a 3.1 document of its own, public, naming the bearer scheme', async () => {
    expect(doc).toMatchObject({ openapi: '3.1.0', servers: [{ url: '/v1' }], security: [{ bearer: [] }] });
    expect(Object.keys(doc.paths).sort()).toEqual(['/changes', '/changes/stream', '/prompts/{name}', '/prompts/{name}/render']);
  });

  it('every documented success and 304 response matches its schema', async () => {
    const covered = new Set<string>();
    for await (const s of samples()) {
      const abort = new AbortController();
      const res = await client.app.request(`/v1${s.path}`, {
        method: s.method, signal: abort.signal,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...s.headers },
        ...(s.body !== undefined ? { body: JSON.stringify(s.body) } : {}),
      });
      const found = findOperation(doc, s.method, s.path.split('?')[0]!);
      expect(res.status, `${s.method} ${s.path}: ${res.status === s.status ? '' : await res.text()}`).toBe(s.status);
      expect(found, `${s.method} ${s.path} is documented`).toBeDefined();
      expect(await responseErrors(doc, s.method, s.path.split('?')[0]!, res), `${s.method} ${s.path}`).toEqual([]);
      if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
        abort.abort();
        await res.body?.cancel();
      }
      covered.add(`${s.method} ${found!.template} ${s.status}`);
    }
    const documented = Object.entries(doc.paths).flatMap(([template, ops]) =>
      Object.entries(ops).flatMap(([method, op]) =>
        Object.keys(op.responses).filter((status) => /^(2\d\d|304)$/.test(status)).map((status) => `${method.toUpperCase()} ${template} ${status}`)));
    expect(documented.filter((d) => !covered.has(d)), 'documented responses without a sample request').toEqual([]);
  });

  it('an undeclared field fails the check (self-test)', async () => {
    const body = await (await client.call('GET', '/prompts/walk')).json();
    const plant = (mutate: (b: typeof body) => void) => {
      const copy = structuredClone(body);
      mutate(copy);
      return new Response(JSON.stringify(copy), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    expect(await responseErrors(doc, 'GET', '/prompts/walk', plant(() => {}))).toEqual([]);
    expect(await responseErrors(doc, 'GET', '/prompts/walk', plant((b) => { b.note = 'internal'; }))).toEqual(['GET /prompts/walk → 200: $.note: not declared in the schema']);
    const changes = await (await client.call('GET', '/changes?since=0')).json();
    changes.items[0].actor = 'someone';
    const planted = new Response(JSON.stringify(changes), { status: 200, headers: { 'content-type': 'application/json' } });
    expect(await responseErrors(doc, 'GET', '/changes', planted)).toEqual(['GET /changes → 200: $.items[0].actor: not declared in the schema']);
  });
});
