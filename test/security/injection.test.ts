// Injection: argument values are never evaluated as templates; URI template
// expansion percent-encodes values so they cannot change the scheme, host or path
// structure of a bound URI; `{+var}` whole-URI bindings and resources/read resolve
// only against stored resources (no file-system or network reads for a client); SQL
// goes only through Prisma's parameterised queries.
import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { expandUriTemplate } from '../../src/core/uri-template.js';
import { renderTemplate } from '../../src/core/template.js';
import { makeCore, type TestCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { mcpHarness } from '../fuzz/mcp-harness.js';
import { NASTY } from '../fuzz/arbitraries.js';

let core: TestCore;
let call: ReturnType<typeof makeClient>['call'];
let h: ReturnType<typeof mcpHarness>;
let sid: string;
let hits = 0;
let bait: http.Server;
let baitUrl: string;
let secretFile: string;

const text = (role: string, t: string) => ({ role, content: { type: 'text', text: t } });
const ok = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.json();
};

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
  await ok(await call('POST', '/resources', { uri: 'mem://secret', name: 'secret', mimeType: 'text/plain', text: 'TOP SECRET' }));
  await ok(await call('POST', '/resources', { uri: 'docs://public/readme', name: 'readme', mimeType: 'text/plain', text: 'public readme', visibility: 'public' }));
  await ok(await call('POST', '/resource-templates', { uriTemplate: 'docs://guide/{lang}', name: 'guide', mimeType: 'text/plain', text: 'Guide for {{lang}}' }));
  await ok(await call('POST', '/prompts', {
    name: 'inj', activate: true,
    arguments: [{ name: 'x' }, { name: 'lang', required: true }],
    messages: [text('user', '[{{x}}]'), text('assistant', '{{#x}}<{{x}}>{{/x}}{{^x}}none{{/x}}'), { role: 'user', content: { type: 'resource', uri: 'docs://guide/{lang}' } }],
  }));
  await ok(await call('POST', '/prompts', { name: 'whole', activate: true, arguments: [{ name: 'fileUri', required: true }], messages: [{ role: 'user', content: { type: 'resource', uri: '{+fileUri}' } }] }));
  h = mcpHarness(core);
  sid = await h.initialize();
  bait = http.createServer((_req, res) => {
    hits++;
    res.end('NETWORK CONTENT');
  });
  await new Promise<void>((r) => bait.listen(0, '127.0.0.1', r));
  baitUrl = `http://127.0.0.1:${(bait.address() as AddressInfo).port}/bait`;
  secretFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'promptd-inj-')), 'secret.txt');
  writeFileSync(secretFile, 'FILE SYSTEM SECRET');
});
afterAll(async () => {
  bait?.close();
  await h?.mcp.closeAll();
  await core?.close();
});

type Rendered = { messages: { content: { text?: string; resource?: { uri: string; text?: string } } }[] };

describe('argument values are inserted literally', () => {
  const templateLike = ['{{x}}', '{{#a}}yes{{/a}}', '{{^a}}no{{/a}}', '{{>p}}', '{{=<% %>=}}<%x%>', '{{{x}}}', '{{&x}}', '{{!c}}', '{{.}}', '<script>&"\'</script>'];

  it('over REST render and MCP prompts/get, for template syntax and HTML alike', async () => {
    for (const x of templateLike) {
      const rest = (await ok(await call('POST', '/prompts/inj/render', { arguments: { x, lang: 'en' } }))) as Rendered;
      const mcp = await h.rpc(sid, 'prompts/get', { name: 'inj', arguments: { x, lang: 'en' } });
      for (const r of [rest, mcp.result as unknown as Rendered]) {
        expect(r.messages[0]!.content.text).toBe(`[${x}]`);
        expect(r.messages[1]!.content.text).toBe(`<${x}>`);
      }
    }
  });

  it('for any string (property)', async () => {
    const value = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom(...templateLike, ...NASTY.filter(Boolean)));
    await fc.assert(
      fc.asyncProperty(value, async (x) => {
        fc.pre(x !== '');
        const r = await core.catalog.render('inj', { x, lang: 'en' });
        expect([r.messages[0]!.content, r.messages[1]!.content].map((c) => (c as { text: string }).text)).toEqual([`[${x}]`, `<${x}>`]);
      }),
      { numRuns: 200 },
    );
  });

  it('names of Object.prototype members never leak into a rendering', async () => {
    // Arguments may not be named after them (test/security/names.test.ts); values sent under such names are unknown arguments.
    await expect(core.catalog.render('inj', { lang: 'en', toString: 'x' } as Record<string, string>)).rejects.toMatchObject({ code: 'validation' });
    await expect(core.catalog.render('inj', JSON.parse('{"lang":"en","__proto__":"x"}'))).rejects.toMatchObject({ code: 'validation' });
    expect(renderTemplate('[{{constructor}}][{{toString}}]', {})).toBe('[][]');
  });
});

describe('URI template expansion', () => {
  it('percent-encodes values: they cannot change scheme, host or path structure (property)', () => {
    const value = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('../secret', '..%2Fsecret', '?a=b', '#frag', '/', '@evil.com', 'x/../../etc/passwd', ':', 'mem://secret'));
    fc.assert(
      fc.property(value, (v) => {
        const uri = expandUriTemplate('docs://guide/{lang}', { lang: v });
        expect(uri.startsWith('docs://guide/')).toBe(true);
        expect(uri.slice('docs://guide/'.length)).toMatch(/^[A-Za-z0-9\-._~%]*$/);
        expect(new URL(uri).host).toBe('guide');
      }),
      { numRuns: 500 },
    );
  });

  it('a hostile value resolves to the template, never to another stored resource', async () => {
    for (const lang of ['../../secret', '../public/readme', 'x?y#z', '@mem://secret', '\ud800']) {
      const r = (await ok(await call('POST', '/prompts/inj/render', { arguments: { lang } }))) as Rendered;
      const res = r.messages[2]!.content.resource!;
      expect(res.uri.startsWith('docs://guide/')).toBe(true);
      expect(res.text).not.toContain('SECRET');
      expect(res.text).not.toContain('public readme');
    }
  });

  it('{+var} whole-URI bindings resolve stored resources only: never a file, never the network', async () => {
    const r = (await ok(await call('POST', '/prompts/whole/render', { arguments: { fileUri: 'docs://public/readme' } }))) as Rendered;
    expect(r.messages[0]!.content.resource).toEqual({ uri: 'docs://public/readme', mimeType: 'text/plain', text: 'public readme' });
    for (const fileUri of ['file:///etc/passwd', `file://${secretFile}`, baitUrl, 'http://169.254.169.254/latest/meta-data/', '/etc/passwd', '../../etc/passwd']) {
      const rest = await call('POST', '/prompts/whole/render', { arguments: { fileUri } });
      expect(rest.status, fileUri).toBe(422);
      const body = await rest.text();
      expect(body).toContain('not found');
      const mcp = await h.rpc(sid, 'prompts/get', { name: 'whole', arguments: { fileUri } });
      expect(mcp.error?.code, fileUri).toBe(-32602);
      const read = await h.rpc(sid, 'resources/read', { uri: fileUri });
      expect(read.error?.code, fileUri).toBe(-32602);
      for (const t of [body, JSON.stringify(mcp), JSON.stringify(read)]) {
        expect(t).not.toMatch(/FILE SYSTEM SECRET|NETWORK CONTENT|root:/);
      }
    }
    expect(hits).toBe(0);
  });

  it('saving a binding that points at a file or URL which is not stored is refused (422)', async () => {
    for (const uri of [`file://${secretFile}`, baitUrl]) {
      const res = await call('POST', '/prompts', { name: 'leak', arguments: [], messages: [{ role: 'user', content: { type: 'resource', uri } }] });
      expect(res.status, uri).toBe(422);
    }
    expect(hits).toBe(0);
  });
});

describe('SQL', () => {
  it('names carrying SQL are rejected by validation; the tables are untouched', async () => {
    for (const name of [`x'; DROP TABLE "Prompt";--`, `x" OR "1"="1`, 'x;DELETE FROM Prompt', 'a b']) {
      const res = await call('POST', '/prompts', { name, arguments: [], messages: [text('user', 'hi')] });
      expect(res.status).toBe(422);
      expect((await res.json()).errors[0].path).toBe('name');
      expect((await call('GET', `/prompts/${encodeURIComponent(name)}`)).status).toBe(422);
    }
    expect(await core.db.prisma.prompt.count()).toBe(2);
  });

  it('SQL metacharacters in q= are harmless: a bound parameter, never SQL', async () => {
    await ok(await call('POST', '/prompts', { name: 'quote', title: `it's 100% "real"_thing; DROP TABLE x --`, arguments: [], messages: [text('user', 'q')] }));
    const names = async (q: string) => ((await ok(await call('GET', `/prompts?q=${encodeURIComponent(q)}`))).items as { name: string }[]).map((p) => p.name);
    for (const q of [`' OR '1'='1`, `'; DROP TABLE "Prompt";--`, '" OR 1=1 --', '\\', `') UNION SELECT * FROM "ApiToken" --`]) expect(await names(q), q).toEqual([]);
    expect(await names(`it's 100`)).toEqual(['quote']);
    expect(await names(`"real"`)).toEqual(['quote']);
    // LIKE wildcards are not escaped by Prisma's `contains`: `%` and `_` act as wildcards
    // inside the parameter (a broader match), which is harmless.
    expect((await names('%')).length).toBeLessThanOrEqual(3);
    expect((await ok(await call('GET', `/resources?q=${encodeURIComponent(`' OR 1=1 --`)}`))).items).toEqual([]);
    expect(await core.db.prisma.prompt.count()).toBe(3);
    expect(await core.db.prisma.apiToken.count()).toBe(0);
  });
});
