import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
});
afterAll(() => core.close());

describe('resources and bindings', () => {
  it('creates text and binary resources; 409 on duplicate URI; reads content back', async () => {
    let res = await call('POST', '/resources', { uri: 'logs://recent?timeframe=1h', name: 'logs-1h', mimeType: 'text/plain', text: 'ERROR boom at 10:00' });
    expect(res.status).toBe(201);
    res = await call('POST', '/resources', { uri: 'logs://recent?timeframe=1h', name: 'dup', mimeType: 'text/plain', text: 'x' });
    expect(res.status).toBe(409);
    res = await call('POST', '/resources', { uri: 'image://logo.png', name: 'logo', mimeType: 'image/png', blob: png.toString('base64') });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const detail = await (await call('GET', `/resources/${id}`)).json();
    expect(detail).toMatchObject({ uri: 'image://logo.png', binary: true, size: png.length, blob: png.toString('base64'), usedBy: [] });
    res = await call('POST', '/resources', { uri: 'no-scheme', name: 'x', mimeType: 'text/plain', text: 'x' });
    expect(res.status).toBe(422);
    res = await call('POST', '/resources', { uri: 'a://b', name: 'x', mimeType: 'text/plain' });
    expect(res.status).toBe(422);
  });

  it('a binding logs://recent?timeframe={timeframe} resolves to the stored resource; unknown URI is a clear error', async () => {
    let res = await call('POST', '/prompts', {
      name: 'analyze',
      arguments: [{ name: 'timeframe', required: true, choices: ['1h', '24h'] }],
      messages: [
        { role: 'user', content: { type: 'text', text: 'Look at the last {{timeframe}}' } },
        { role: 'user', content: { type: 'resource', uri: 'logs://recent?timeframe={timeframe}', allow: ['logs://recent?'] } },
        { role: 'user', content: { type: 'image', resourceUri: 'image://logo.png' } },
      ],
      activate: true,
    });
    expect(res.status).toBe(201);
    res = await call('POST', '/prompts/analyze/render', { arguments: { timeframe: '1h' } });
    expect(res.status).toBe(200);
    const out = await res.json();
    expect(out.messages[1].content).toEqual({ type: 'resource', resource: { uri: 'logs://recent?timeframe=1h', mimeType: 'text/plain', text: 'ERROR boom at 10:00' } });
    expect(out.messages[2].content).toEqual({ type: 'image', data: png.toString('base64'), mimeType: 'image/png' });
    res = await call('POST', '/prompts/analyze/render', { arguments: { timeframe: '24h' } });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toContain('logs://recent?timeframe=24h');
    res = await call('POST', '/prompts/analyze/render', { arguments: { timeframe: '7d' } });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toContain('must be one of: 1h, 24h');
  });

  it('a resource template serves rendered content; an active binding blocks deletion', async () => {
    let res = await call('POST', '/resource-templates', { uriTemplate: 'docs://guide/{lang}', name: 'guide', mimeType: 'text/markdown', text: '# {{lang}} guide' });
    expect(res.status).toBe(201);
    res = await call('POST', '/resource-templates', { uriTemplate: 'docs://bad/{lang}', name: 'bad', mimeType: 'text/markdown', text: '{{nope}}' });
    expect(res.status).toBe(422);
    res = await call('POST', '/prompts', {
      name: 'guided', arguments: [{ name: 'lang', required: true }],
      messages: [{ role: 'user', content: { type: 'resource', uri: 'docs://guide/{lang}' } }], activate: true,
    });
    expect(res.status).toBe(201);
    res = await call('POST', '/prompts/guided/render', { arguments: { lang: 'rust' } });
    expect((await res.json()).messages[0].content.resource).toEqual({ uri: 'docs://guide/rust', mimeType: 'text/markdown', text: '# rust guide' });
    const list = await (await call('GET', '/resources')).json();
    const logo = list.items.find((r: { uri: string }) => r.uri === 'image://logo.png');
    expect((await (await call('GET', `/resources/${logo.id}`)).json()).usedBy).toEqual([{ prompt: 'analyze', version: 1, active: true }]);
    expect((await call('DELETE', `/resources/${logo.id}`)).status).toBe(409);
    await call('DELETE', '/prompts/analyze/active');
    expect((await call('DELETE', `/resources/${logo.id}`)).status).toBe(204);
  });
});
