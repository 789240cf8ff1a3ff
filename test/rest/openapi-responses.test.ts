// Walks the OpenAPI document: every documented 2xx response gets a representative
// request, and what the server sends must match the documented schema strictly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { findOperation, responseErrors, type OpenApiDoc } from '../helpers/openapi.js';

let core: Core;
let client: ReturnType<typeof makeClient>;
let doc: OpenApiDoc;
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
  doc = await client.openapi();
});
afterAll(() => core.close());

interface Sample { method: string; path: string; body?: unknown; headers?: Record<string, string>; status: number }

/** Representative requests in an order that works against an empty database (ids are looked up as they appear). */
async function* samples(): AsyncGenerator<Sample, void, void> {
  yield { method: 'POST', path: '/resources', body: { uri: 'docs://style', name: 'style', mimeType: 'text/plain', text: 'Be brief.' }, status: 201 };
  yield { method: 'GET', path: '/resources', status: 200 };
  const text = (await (await client.call('GET', '/resources?q=style')).json()).items[0].id;
  yield { method: 'GET', path: `/resources/${text}`, status: 200 };
  yield { method: 'PUT', path: `/resources/${text}`, body: { uri: 'docs://style', name: 'style', title: 'Style', mimeType: 'text/plain', text: 'Be brief!' }, status: 200 };
  const logo = (await (await client.call('POST', '/resources', { uri: 'image://logo.png', name: 'logo', mimeType: 'image/png', blob: png })).json()).id;
  yield { method: 'GET', path: `/resources/${logo}`, status: 200 };
  yield { method: 'POST', path: '/resource-templates', body: { uriTemplate: 'docs://guide/{lang}', name: 'guide', mimeType: 'text/markdown', text: '# {{lang}}' }, status: 201 };
  yield { method: 'GET', path: '/resource-templates', status: 200 };
  const tpl = (await (await client.call('GET', '/resource-templates')).json()).items[0].id;
  yield { method: 'GET', path: `/resource-templates/${tpl}`, status: 200 };
  yield { method: 'PUT', path: `/resource-templates/${tpl}`, body: { uriTemplate: 'docs://guide/{lang}', name: 'guide', mimeType: 'text/markdown', text: '## {{lang}}' }, status: 200 };
  const every = {
    title: 'Every content type', icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png', sizes: ['48x48'] }], note: 'first',
    arguments: [{ name: 'lang', title: 'Language', description: 'which guide', required: true, choices: ['rust', 'go'], maxLength: 10 }],
    messages: [
      { role: 'user', content: { type: 'text', text: 'Read the {{lang}} guide', annotations: { audience: ['user'], priority: 0.5 } } },
      { role: 'user', content: { type: 'resource', uri: 'docs://style' } },
      { role: 'user', content: { type: 'resource', uri: 'docs://guide/{lang}' } },
      { role: 'user', content: { type: 'image', resourceUri: 'image://logo.png' } },
      { role: 'assistant', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
      { role: 'assistant', content: { type: 'resource_link', uri: 'image://logo.png' } },
    ],
  };
  yield { method: 'POST', path: '/prompts', body: { name: 'walk', description: 'all of it', ...every }, status: 201 };
  yield { method: 'GET', path: '/prompts', status: 200 };
  yield { method: 'GET', path: '/prompts/walk', status: 200 };
  yield { method: 'PATCH', path: '/prompts/walk', body: { archived: false }, status: 200 };
  yield { method: 'PUT', path: '/prompts/walk/tags', body: { tags: ['team-a'] }, status: 200 };
  yield { method: 'GET', path: '/prompts?tag=team-a&tag=team-b', status: 200 };
  const etag = (await client.call('GET', '/prompts/walk')).headers.get('etag')!;
  yield { method: 'POST', path: '/prompts/walk/versions', body: { ...every, note: 'second' }, headers: { 'if-match': etag }, status: 201 };
  yield { method: 'GET', path: '/prompts/walk/versions', status: 200 };
  yield { method: 'GET', path: '/prompts/walk/versions/2', status: 200 };
  yield { method: 'PUT', path: '/prompts/walk/active', body: { version: 2 }, status: 200 };
  yield { method: 'POST', path: '/prompts/walk/render', body: { arguments: { lang: 'rust' } }, status: 200 };
  yield { method: 'POST', path: '/prompts/walk/versions/1/check', body: { label: 'production' }, status: 200 };
  // Usage (issue 18): the render above is counted
  yield { method: 'GET', path: '/usage?prompt=walk&bucket=hour', status: 200 };
  yield { method: 'GET', path: '/usage.csv', status: 200 };
  yield { method: 'GET', path: '/prompts/walk/usage', status: 200 };
  yield { method: 'GET', path: '/prompts?sort=lastUsed&unusedFor=30d', status: 200 };
  yield { method: 'PUT', path: '/prompts/walk/labels/staging', body: { version: 1 }, status: 200 };
  yield { method: 'GET', path: '/prompts/walk/labels', status: 200 };
  yield { method: 'GET', path: '/labels', status: 200 };
  yield { method: 'POST', path: '/labels/staging/promote', body: { to: 'beta' }, status: 200 };
  yield { method: 'GET', path: '/prompts/walk/label-history', status: 200 };
  yield { method: 'GET', path: '/prompts/walk/dependents', status: 200 };
  yield { method: 'GET', path: '/prompts/walk/includes', status: 200 };
  yield { method: 'DELETE', path: '/prompts/walk/labels/beta', status: 204 };
  yield { method: 'DELETE', path: '/prompts/walk/active', status: 200 };
  yield { method: 'DELETE', path: '/prompts/walk', status: 204 };
  yield { method: 'POST', path: '/prompts/walk/restore', status: 200 };
  yield { method: 'DELETE', path: '/prompts/walk', status: 204 };
  yield { method: 'POST', path: '/webhooks', body: { url: 'https://hooks.example.com/promptd', events: ['*'] }, status: 201 };
  const hook = (await (await client.call('GET', '/webhooks')).json()).items[0].id;
  yield { method: 'GET', path: '/webhooks', status: 200 };
  yield { method: 'GET', path: `/webhooks/${hook}`, status: 200 };
  yield { method: 'PATCH', path: `/webhooks/${hook}`, body: { events: ['version.created'] }, status: 200 };
  yield { method: 'POST', path: `/webhooks/${hook}/ping`, status: 202 };
  const delivery = (await (await client.call('GET', `/webhooks/${hook}/deliveries`)).json()).items[0].id;
  yield { method: 'GET', path: `/webhooks/${hook}/deliveries`, status: 200 };
  yield { method: 'POST', path: `/webhooks/${hook}/deliveries/${delivery}/redeliver`, status: 202 };
  yield { method: 'DELETE', path: `/webhooks/${hook}`, status: 204 };
  yield { method: 'DELETE', path: `/resources/${text}`, status: 204 };
  yield { method: 'DELETE', path: `/resource-templates/${tpl}`, status: 204 };
  yield { method: 'POST', path: '/import?format=auto&dryRun=true', body: { files: [{ path: '.claude/commands/hi.md', text: 'Say hi to $ARGUMENTS\n' }, { path: 'chat.prompty', text: '---\nname: chat\n---\nsystem:\nBe kind.\n' }] }, status: 200 };
  yield { method: 'GET', path: '/server-info', status: 200 };
  yield { method: 'GET', path: '/me', status: 200 };
  yield { method: 'POST', path: '/events/ticket', status: 200 };
  yield { method: 'GET', path: '/events', status: 200 };
  // Tokens (issue 22.5)
  yield { method: 'POST', path: '/tokens', body: { name: 'walker' }, status: 201 };
  yield { method: 'POST', path: '/tokens', body: { name: 'mcp-walker', kind: 'mcp', label: 'production', tags: ['team-a'] }, status: 201 };
  yield { method: 'GET', path: '/tokens', status: 200 };
  const walker = (await (await client.call('GET', '/tokens')).json()).items[0].id;
  yield { method: 'PATCH', path: `/tokens/${walker}`, body: { mcpRatePerMinute: 30, writeRatePerMinute: null }, status: 200 };
  yield { method: 'DELETE', path: `/tokens/${walker}`, status: 200 };
  // Activity (issue 22.4): the newest 50 events written above, with details of each kind
  yield { method: 'GET', path: '/activity', status: 200 };
  // Audit and rate-limit settings (issue 19)
  yield { method: 'GET', path: '/audit?action=token.*', status: 200 };
  yield { method: 'GET', path: '/audit.csv?limit=20', status: 200 };
  yield { method: 'GET', path: '/settings/rate-limits', status: 200 };
  yield { method: 'PUT', path: '/settings/rate-limits', body: { mcpPerMinute: 600, adminWritesPerMinute: 120, adminReadsPerMinute: 600 }, status: 200 };
}

describe('every documented success response matches its schema', () => {
  it('walks the document', async () => {
    const covered = new Set<string>();
    for await (const s of samples()) {
      const init: RequestInit = {
        method: s.method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...s.headers },
        ...(s.body !== undefined ? { body: JSON.stringify(s.body) } : {}),
      };
      const abort = new AbortController();
      const res = await client.app.request(`/admin/v1${s.path}`, { ...init, signal: abort.signal });
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
        Object.keys(op.responses).filter((status) => /^2\d\d$/.test(status)).map((status) => `${method.toUpperCase()} ${template} ${status}`)));
    expect(documented.filter((d) => !covered.has(d)), 'documented 2xx responses without a sample request').toEqual([]);
  });

  it('an undeclared field anywhere in a response fails the check (self-test)', async () => {
    const res = await client.call('POST', '/prompts', { name: 'planted', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] });
    const body = await res.json();
    const plant = (mutate: (b: typeof body) => void) => {
      const copy = structuredClone(body);
      mutate(copy);
      return new Response(JSON.stringify(copy), { status: 201, headers: { 'content-type': 'application/json' } });
    };
    expect(await responseErrors(doc, 'POST', '/prompts', plant(() => {}))).toEqual([]);
    expect(await responseErrors(doc, 'POST', '/prompts', plant((b) => { b.secret = 'x'; }))).toEqual(['POST /prompts → 201: $.secret: not declared in the schema']);
    expect(await responseErrors(doc, 'POST', '/prompts', plant((b) => { b.latest.messages[0].content.internalId = 7; }))).toEqual([
      expect.stringContaining('$.latest.messages[0].content: matches none of'),
    ]);
    expect(await responseErrors(doc, 'POST', '/prompts', plant((b) => { delete b.revision; }))).toEqual(['POST /prompts → 201: $.revision: required but missing']);
    const list = await (await client.call('GET', '/prompts')).json();
    list.items[0].rowid = 1;
    const planted = new Response(JSON.stringify(list), { status: 200, headers: { 'content-type': 'application/json' } });
    expect(await responseErrors(doc, 'GET', '/prompts', planted)).toEqual(['GET /prompts → 200: $.items[0].rowid: not declared in the schema']);
  });
});
