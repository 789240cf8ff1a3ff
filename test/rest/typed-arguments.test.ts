// Typed arguments through the admin REST API and the read API, every response checked
// strictly against the OpenAPI document: type/default on the Version, write-time lint
// (422 naming the field), warnings in 201 responses, render validation by type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
let app: ReturnType<typeof makeClient>['app'];

const text = (t: string) => ({ role: 'user', content: { type: 'text', text: t } });
const typed = {
  name: 'typed',
  arguments: [
    { name: 'count', type: 'integer', required: true },
    { name: 'loud', type: 'boolean', default: false },
    { name: 'ratio', type: 'number', default: 0.5, description: 'share' },
    { name: 'tone', choices: ['calm', 'firm'], default: 'calm' },
  ],
  messages: [text('{{count}} {{tone}} {{ratio}}{{#loud}} LOUD{{/loud}}')],
  activate: true,
};

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  ({ call, app } = makeClient(core));
});
afterAll(() => core.close());

describe('typed arguments over REST', () => {
  it('stores and returns type and default on the Version (untyped arguments read as string, default null)', async () => {
    const res = await call('POST', '/prompts', typed);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.warnings).toEqual([]);
    expect(body.latest.arguments).toEqual([
      { name: 'count', type: 'integer', default: null, title: null, description: null, required: true, choices: null, maxLength: null },
      { name: 'loud', type: 'boolean', default: false, title: null, description: null, required: false, choices: null, maxLength: null },
      { name: 'ratio', type: 'number', default: 0.5, title: null, description: 'share', required: false, choices: null, maxLength: null },
      { name: 'tone', type: 'string', default: 'calm', title: null, description: null, required: false, choices: ['calm', 'firm'], maxLength: null },
    ]);
    const v = await (await call('GET', '/prompts/typed/versions/1')).json();
    expect(v.arguments.map((a: { type: string; default: unknown }) => [a.type, a.default])).toEqual([['integer', null], ['boolean', false], ['number', 0.5], ['string', 'calm']]);
  });

  it('422 names the template field for an undeclared variable, and the default for a bad one', async () => {
    let res = await call('POST', '/prompts', { name: 'lint1', arguments: [{ name: 'a' }], messages: [text('{{a}}'), text('{{#a}}{{b}}{{/a}}')] });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([{ path: 'messages[1].content.text', message: '{{b}} is not a declared argument' }]);

    res = await call('POST', '/prompts', { name: 'lint2', arguments: [{ name: 'n', type: 'integer', default: 'three' }], messages: [text('{{n}}')] });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([{ path: 'arguments[0].default', message: 'the default must be an integer (the argument\'s type; got the string "three")' }]);

    res = await call('POST', '/prompts', { name: 'lint3', arguments: [{ name: 'n', required: true, default: 'x' }], messages: [text('{{n}}')] });
    expect(res.status).toBe(422);
    expect((await res.json()).errors[0].path).toBe('arguments[0].default');
    expect((await call('GET', '/prompts/lint2')).status).toBe(404);
  });

  it('201 carries warnings for a required argument no template uses, on create and on a new version', async () => {
    let res = await call('POST', '/prompts', { name: 'warned', arguments: [{ name: 'a', required: true }, { name: 'b', required: true }], messages: [text('{{a}}')] });
    expect(res.status).toBe(201);
    expect((await res.json()).warnings).toEqual([
      { path: 'arguments[1]', message: 'required argument "b" is not used by any template: clients must send it and it changes nothing; use it or make it optional' },
    ]);
    res = await call('POST', '/prompts/warned/versions', { arguments: [{ name: 'a', required: true }, { name: 'c', required: true }], messages: [text('{{c}}')] });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.version).toBe(2);
    expect(body.warnings.map((w: { path: string }) => w.path)).toEqual(['arguments[0]']);
  });

  it('render validates values by type (422 naming arguments.x), accepts JSON numbers and booleans, fills defaults', async () => {
    let res = await call('POST', '/prompts/typed/render', { arguments: { count: 'ten' } });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([{ path: 'arguments.count', message: 'argument "count" must be an integer (got "ten")' }]);
    res = await call('POST', '/prompts/typed/render', { arguments: { count: 4, loud: true } });
    expect(res.status).toBe(200);
    expect((await res.json()).messages[0].content.text).toBe('4 calm 0.5 LOUD');
    res = await call('POST', '/prompts/typed/render', { arguments: { count: '4', loud: 'false', ratio: '2' } });
    expect((await res.json()).messages[0].content.text).toBe('4 calm 2');
    res = await call('POST', '/prompts/typed/render', { arguments: { count: 4, tone: 3 } });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([{ path: 'arguments.tone', message: 'argument "tone" must be a string (got 3)' }]);
  });

  it('the read API render validates the same way', async () => {
    const post = (body: unknown) =>
      app.request('/v1/prompts/typed/render', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    let res = await post({ arguments: { count: '1.5' } });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([{ path: 'arguments.count', message: 'argument "count" must be an integer (got "1.5")' }]);
    res = await post({ arguments: { count: 2 } });
    expect(res.status).toBe(200);
    expect((await res.json()).messages[0].content.text).toBe('2 calm 0.5');
  });
});
