// POST /prompts/{name}/versions answers from its own transaction's writes (no read
// back): the body must be exactly what GET returns for that version, and the ETag
// exactly the prompt's ETag as GET reports it, whatever the content and whether the
// write moved production.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
  expect((await call('POST', '/resources', { uri: 'image://logo.png', name: 'logo', mimeType: 'image/png', blob: png })).status).toBe(201);
  expect((await call('POST', '/resources', { uri: 'docs://style', name: 'style', mimeType: 'text/plain', text: 'be brief' })).status).toBe(201);
  expect((await call('POST', '/resource-templates', { uriTemplate: 'docs://guide/{lang}', name: 'guide', mimeType: 'text/markdown', text: '# {{lang}}' })).status).toBe(201);
  expect((await call('POST', '/prompts', { name: 'part', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'shared part' } }], activate: true })).status).toBe(201);
});
afterAll(() => core.close());

const every = {
  title: 'Every content type', description: 'all of it', icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png', sizes: ['48x48'] }], note: 'n',
  arguments: [
    { name: 'lang', title: 'Language', description: 'which guide', required: true, choices: ['rust', 'go'], maxLength: 10 },
    { name: 'n', type: 'number', default: 3 },
    { name: 'plain' },
  ],
  messages: [
    { role: 'user', content: { type: 'text', text: 'Read the {{lang}} guide {{n}} {{plain}} {{>part}}', annotations: { audience: ['user'], priority: 0.5 } } },
    { role: 'user', content: { type: 'resource', uri: 'docs://style', annotations: { priority: 1 } } },
    { role: 'user', content: { type: 'resource', uri: 'docs://guide/{lang}', allow: ['docs://guide/'] } },
    { role: 'user', content: { type: 'image', resourceUri: 'image://logo.png' } },
    { role: 'user', content: { type: 'image', data: png, mimeType: 'image/png' } },
    { role: 'assistant', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
    { role: 'assistant', content: { type: 'resource_link', uri: 'image://logo.png' } },
    { role: 'user', content: { type: 'include', prompt: 'part', label: 'production', arguments: {} } },
  ],
  tests: [{ name: 't1', arguments: { lang: 'go', plain: 'x' }, expect: [{ contains: 'go' }] }],
};

async function answerMatchesGet(name: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await call('POST', `/prompts/${name}/versions`, body, headers);
  expect(res.status, await res.clone().text()).toBe(201);
  const answer = await res.json();
  const { warnings: _w, ...version } = answer;
  const get = await call('GET', `/prompts/${name}/versions/${answer.version}`);
  expect(version).toEqual(await get.json());
  const head = await call('GET', `/prompts/${name}`);
  expect(res.headers.get('etag')).toBe(head.headers.get('etag'));
  return res.headers.get('etag')!;
}

describe('a new version answers what was stored', () => {
  it('every content type, typed arguments, test cases: the body is GET’s, the ETag is GET’s', async () => {
    expect((await call('POST', '/prompts', { name: 'walk', ...every, note: 'first' })).status).toBe(201);
    const etag = await answerMatchesGet('walk', { ...every, note: 'second' });
    // The answered ETag is current: it passes If-Match, and the next one too.
    const next = await answerMatchesGet('walk', { ...every, note: 'third' }, { 'if-match': etag });
    expect(next).not.toBe(etag);
    expect((await call('POST', '/prompts/walk/versions', every, { 'if-match': etag })).status).toBe(412);
  });

  it('with activate (a production move bumps the revision once more) and without optional fields', async () => {
    expect((await call('POST', '/prompts', { name: 'bare', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] })).status).toBe(201);
    const etag = await answerMatchesGet('bare', { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'v2' } }], activate: true });
    await answerMatchesGet('bare', { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'v3' } }], activate: true }, { 'if-match': etag });
    expect((await (await call('GET', '/prompts/bare')).json()).activeVersion).toBe(3);
  });
});
