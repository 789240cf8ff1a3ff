// URI schemes (issue 24 #4): icons are https:, data:image/* or loopback http:;
// stored resources, resource templates and the URIs messages bind never use a
// scheme that runs script or carries an inline document (javascript:, data:,
// vbscript:…), and PROMPTD_URI_SCHEMES narrows them to an allow-list. Data stored
// before these rules is never served to MCP clients as a link or an icon.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { TestCore as Core } from '../helpers/db.js';
import { loadConfig } from '../../src/config.js';
import { parseUriSchemes } from '../../src/core/uri-schemes.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { connect, PNG_BASE64, rpcError } from '../mcp/helpers.js';
import { overwriteIcons, overwriteResourceUri } from './stored.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
let mcp: Awaited<ReturnType<typeof connect>>;

const text = (t: string) => ({ role: 'user', content: { type: 'text', text: t } });
const withIcon = (name: string, src: string) => ({ name, activate: true, arguments: [], messages: [text('hi')], icons: [{ src, mimeType: 'image/png' }] });
const problem = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(422);
  return (await res.json()).errors as { path: string; message: string }[];
};

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
  // Stored before the rules: a link to a javascript: resource and a javascript: icon.
  await core.resources.create({ uri: 'mem://later-js', name: 'js', mimeType: 'text/plain', text: 'x' }, { name: 't' });
  expect((await call('POST', '/prompts', { name: 'old-link', activate: true, arguments: [], messages: [{ role: 'user', content: { type: 'resource_link', uri: 'mem://later-js' } }] })).status).toBe(201);
  await overwriteResourceUri(core, 'mem://later-js', 'javascript:alert(1)');
  expect((await call('POST', '/prompts', withIcon('old-icon', 'https://example.com/ok.png'))).status).toBe(201);
  await overwriteIcons(core, 'old-icon', 1, [{ src: 'javascript:alert(document.domain)' }, { src: 'https://example.com/ok.png' }]);
  mcp = await connect(core);
});
afterAll(async () => {
  await mcp?.close();
  await core?.close();
});
afterEach(() => {
  delete process.env.PROMPTD_URI_SCHEMES;
});

describe('icons', () => {
  const refused = [
    'javascript:alert(document.domain)', 'JavaScript:alert(1)', 'file:///etc/passwd', 'http://tracker.example/pixel.gif?u=1',
    'data:text/html,<script>alert(1)</script>', 'data:,hello', 'vbscript:msgbox(1)', ' https://example.com/x.png', 'ftp://example.com/i.png', 'icon.png',
  ];
  for (const src of refused) {
    it(`refuses ${JSON.stringify(src)}, naming icons[0].src`, async () => {
      const errors = await problem(await call('POST', '/prompts', withIcon('icon-bad', src)));
      expect(errors.map((e) => e.path)).toEqual(['icons[0].src']);
    });
  }

  const allowed = ['https://example.com/icon.png', `data:image/png;base64,${PNG_BASE64}`, 'data:image/svg+xml,%3Csvg%2F%3E', 'http://127.0.0.1:8080/i.png', 'http://localhost/i.png', 'http://[::1]/i.png'];
  it('allows https:, data:image/* and loopback http:', async () => {
    for (const [i, src] of allowed.entries()) expect((await call('POST', '/prompts', withIcon(`icon-ok-${i}`, src))).status, src).toBe(201);
  });

  it('an icon stored before the rules is not served in prompts/list', async () => {
    const p = (await mcp.client.listPrompts()).prompts.find((x) => x.name === 'old-icon') as { icons?: { src: string }[] } | undefined;
    expect(p?.icons).toEqual([{ src: 'https://example.com/ok.png' }]);
  });
});

describe('resource and link URIs', () => {
  const refused = ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'vbscript:msgbox(1)', 'data:text/html,<script>alert(1)</script>', 'data:image/png;base64,AAAA', 'blob:https://x/1', 'no-scheme', ' javascript:alert(1)'];
  for (const uri of refused) {
    it(`refuses the resource ${JSON.stringify(uri)}, naming uri`, async () => {
      const errors = await problem(await call('POST', '/resources', { uri, name: 'r', mimeType: 'text/plain', text: 'x' }));
      expect(errors.map((e) => e.path)).toEqual(['uri']);
    });
  }

  it('refuses such resource templates, and templates that do not start with a scheme', async () => {
    for (const uriTemplate of ['javascript:{x}', 'data:text/html,{x}', '{+u}']) {
      const errors = await problem(await call('POST', '/resource-templates', { uriTemplate, name: 't', mimeType: 'text/plain', text: 'x' }));
      expect(errors.map((e) => e.path), uriTemplate).toEqual(['uriTemplate']);
    }
  });

  it('refuses a message that binds such a URI, naming the field', async () => {
    const errors = await problem(await call('POST', '/prompts', { name: 'link-bad', arguments: [], messages: [text('x'), { role: 'user', content: { type: 'resource_link', uri: 'javascript:alert(1)' } }] }));
    expect(errors).toEqual([{ path: 'messages[1].content.uri', message: expect.stringMatching(/"javascript:" scheme is not allowed/) }]);
  });

  it('keeps custom schemes: file://, docs://, secret://, logs://', async () => {
    for (const uri of ['file:///project/README.md', 'docs://guide/en', 'secret://k', 'logs://recent?timeframe=1h']) {
      expect((await call('POST', '/resources', { uri, name: 'r', mimeType: 'text/plain', text: 'x' })).status, uri).toBe(201);
    }
  });

  it('a link stored before the rules is never served: prompts/get is -32602', async () => {
    const err = await rpcError(mcp.client.getPrompt({ name: 'old-link' }));
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).toMatch(/javascript:alert\(1\).*scheme is not allowed/);
  });
});

describe('PROMPTD_URI_SCHEMES', () => {
  it('narrows resource schemes to the list; the refused schemes stay refused even when listed', async () => {
    process.env.PROMPTD_URI_SCHEMES = 'https, docs, javascript';
    expect((await call('POST', '/resources', { uri: 'docs://only/this', name: 'r', mimeType: 'text/plain', text: 'x' })).status).toBe(201);
    let errors = await problem(await call('POST', '/resources', { uri: 'file:///etc/hosts', name: 'r', mimeType: 'text/plain', text: 'x' }));
    expect(errors).toEqual([{ path: 'uri', message: 'the "file:" scheme is not allowed here (PROMPTD_URI_SCHEMES allows: https, docs, javascript)' }]);
    errors = await problem(await call('POST', '/resources', { uri: 'javascript:alert(1)', name: 'r', mimeType: 'text/plain', text: 'x' }));
    expect(errors[0]!.path).toBe('uri');
  });

  it('a malformed list stops start-up', () => {
    expect(() => loadConfig({ PROMPTD_URI_SCHEMES: 'https,not a scheme' })).toThrow(/PROMPTD_URI_SCHEMES: "not a scheme"/);
    expect(loadConfig({}).uriSchemes).toBeNull();
    expect([...parseUriSchemes('HTTPS:, docs')!]).toEqual(['https', 'docs']);
  });
});
