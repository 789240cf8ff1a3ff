// Names (issue 23 #7, #8; issue 25 #2): argument names that are Object.prototype
// machinery, prompt names starting with ".", and dotted names in templates (which
// read properties of argument values) are refused when saved, with a 422 naming
// the field; versions stored before these rules still answer with a clear error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { TestCore as Core } from '../helpers/db.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { connect, rpcError } from '../mcp/helpers.js';
import { readLibrary } from '../../src/library/read-library.js';
import { overwriteMessageText, renamePrompt } from './stored.js';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
let mcp: Awaited<ReturnType<typeof connect>>;

const text = (t: string) => ({ role: 'user', content: { type: 'text', text: t } });
const problem = async (res: Response, status = 422) => {
  expect(res.status, await res.clone().text()).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return (await res.json()) as { errors: { path: string; message: string }[] };
};

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
  // Stored before dotted names were refused: `{{x}}` overwritten with what issue 25 showed.
  expect((await call('POST', '/prompts', { name: 'dotted-old', activate: true, arguments: [{ name: 'x' }], messages: [text('{{x}}')] })).status).toBe(201);
  await overwriteMessageText(core, 'dotted-old', 1, 0, '{{x.constructor.name}}|{{x.length}}');
  // Stored before names starting with "." were refused.
  expect((await call('POST', '/prompts', { name: 'hidden', activate: true, arguments: [], messages: [text('hi')] })).status).toBe(201);
  await renamePrompt(core, 'hidden', '.hidden');
  mcp = await connect(core);
});
afterAll(async () => {
  await mcp?.close();
  await core?.close();
});

describe('argument names', () => {
  for (const name of ['__proto__', 'constructor', 'prototype']) {
    it(`"${name}" is refused, naming arguments[1].name`, async () => {
      const body = await problem(await call('POST', '/prompts', { name: `arg-${name.replaceAll('_', 'u')}`, arguments: [{ name: 'ok' }, { name }], messages: [text('{{ok}}')] }));
      expect(body.errors).toContainEqual({ path: 'arguments[1].name', message: 'argument names may not be __proto__, constructor, prototype' });
    });
  }

  it('an argument named like one sent by a client is an unknown argument, never a property lookup', async () => {
    expect((await call('POST', '/prompts', { name: 'plain', activate: true, arguments: [{ name: 'who', required: true }], messages: [text('[{{who}}]')] })).status).toBe(201);
    const err = await rpcError(mcp.client.getPrompt({ name: 'plain', arguments: { who: 'a', constructor: 'b' } }));
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).toMatch(/unknown argument "constructor"/);
    await expect(core.catalog.render('plain', JSON.parse('{"who":"a","__proto__":"b"}'))).rejects.toMatchObject({ code: 'validation', errors: [{ path: 'arguments.__proto__' }] });
  });

  it('the library importer refuses them too, by file and field', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'promptd-names-'));
    mkdirSync(path.join(dir, 'prompts'));
    writeFileSync(path.join(dir, 'prompts', 'p.yaml'), 'name: p\narguments:\n  - name: constructor\nmessages:\n  - role: user\n    content: "{{constructor}}"\n');
    const lib = readLibrary(dir);
    expect(JSON.stringify(lib.problems)).toMatch(/arguments\[0\]\.name.*may not be __proto__/);
  });
});

describe('dotted names in templates', () => {
  for (const t of ['{{x.constructor.name}}|{{x.length}}', '{{.}}', '{{#x}}{{.}}{{/x}}', '{{#x.length}}long{{/x.length}}', '{{^x.a}}{{/x.a}}']) {
    it(`${t} is refused when saved, naming the message text`, async () => {
      const body = await problem(await call('POST', '/prompts', { name: 'dots', arguments: [{ name: 'x' }], messages: [text('ok'), text(t)] }));
      expect(body.errors.length).toBeGreaterThan(0);
      for (const e of body.errors) {
        expect(e.path).toBe('messages[1].content.text');
        expect(e.message).toMatch(/not supported/);
      }
    });
  }

  it('a version stored with them never reads a property: REST 422 and MCP -32602, not "String|5"', async () => {
    const body = await problem(await call('POST', '/prompts/dotted-old/render', { arguments: { x: 'hello' } }));
    expect(body.errors).toEqual([{ path: 'messages[0].content.text', message: expect.stringMatching(/names with "\." are not supported/) }]);
    const err = await rpcError(mcp.client.getPrompt({ name: 'dotted-old', arguments: { x: 'hello' } }));
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).not.toContain('String|5');
  });
});

describe('prompt names', () => {
  for (const name of ['..', '...', '.', '.hidden', '.env']) {
    it(`"${name}" is refused on create and on rename, naming "name"`, async () => {
      let body = await problem(await call('POST', '/prompts', { name, arguments: [], messages: [text('x')] }));
      expect(body.errors).toContainEqual({ path: 'name', message: 'name must not start with "."' });
      body = await problem(await call('PATCH', '/prompts/plain', { name }));
      expect(body.errors).toContainEqual({ path: 'name', message: 'name must not start with "."' });
    });
  }

  it('dots inside a name are still fine', async () => {
    expect((await call('POST', '/prompts', { name: 'v1.2.x', arguments: [], messages: [text('x')] })).status).toBe(201);
  });

  it('a prompt stored as ".hidden" can still be read and renamed to a valid name', async () => {
    expect((await call('GET', '/prompts/.hidden')).status).toBe(200);
    const res = await call('PATCH', '/prompts/.hidden', { name: 'visible' });
    expect(res.status).toBe(200);
    expect((await res.json()).name).toBe('visible');
  });
});
