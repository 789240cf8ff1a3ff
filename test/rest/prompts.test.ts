import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
});
afterAll(() => core.close());

describe('prompts REST API', () => {
  it('creates a prompt with version 1 and reads it back with an ETag', async () => {
    const res = await call('POST', '/prompts', textPrompt('greet', 'Hello {{who}}', { activate: true }));
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ name: 'greet', activeVersion: 1, latestVersion: 1, archived: false });
    expect(body.latest.messages[0]).toEqual({ role: 'user', content: { type: 'text', text: 'Hello {{who}}' } });
    const get = await call('GET', '/prompts/greet');
    expect(get.status).toBe(200);
    expect(get.headers.get('etag')).toMatch(/^"\d+"$/);
  });

  it('rejects a duplicate name with 409 problem+json', async () => {
    const res = await call('POST', '/prompts', textPrompt('greet'));
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await res.json()).errors[0].path).toBe('name');
  });

  it('422 names messages[0] for an undeclared variable, an unparseable template, and an invalid name', async () => {
    let res = await call('POST', '/prompts', { name: 'bad1', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'Hi {{nope}}' } }] });
    expect(res.status).toBe(422);
    let body = await res.json();
    expect(body.errors).toContainEqual({ path: 'messages[0].content.text', message: '{{nope}} is not a declared argument' });

    res = await call('POST', '/prompts', { name: 'bad2', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'Hi {{#open}} never closed' } }] });
    expect(res.status).toBe(422);
    body = await res.json();
    expect(body.errors[0].path).toBe('messages[0].content.text');
    expect(body.errors[0].message).toMatch(/does not parse/);

    res = await call('POST', '/prompts', textPrompt('bad name!'));
    expect(res.status).toBe(422);
    expect((await res.json()).errors[0].path).toBe('name');
    expect((await call('GET', '/prompts/greet')).status).toBe(200);
    expect((await call('GET', '/prompts/bad1')).status).toBe(404);
  });

  it('reports every failing path at once', async () => {
    const res = await call('POST', '/prompts', {
      name: 'multi',
      arguments: [{ name: 'a' }, { name: 'a' }],
      messages: [
        { role: 'user', content: { type: 'text', text: '{{x}}' } },
        { role: 'user', content: { type: 'resource', uri: 'logs://{missing}' } },
        { role: 'user', content: { type: 'resource', uri: 'mem://not-stored' } },
      ],
    });
    expect(res.status).toBe(422);
    const paths = (await res.json()).errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['arguments[1].name', 'messages[0].content.text', 'messages[1].content.uri', 'messages[2].content.uri']));
  });

  it('one 422 lists the schema errors and the semantic ones together (issue 15 item 11)', async () => {
    const res = await call('POST', '/prompts', {
      name: 'bad name!',
      arguments: [{ name: 'who', required: 'yes' }],
      messages: [
        { role: 'user', content: { type: 'text', text: 'Hi {{who}} and {{nope}}' } },
        { role: 'robot', content: { type: 'text', text: 'x' } },
      ],
    });
    expect(res.status).toBe(422);
    const errors = (await res.json()).errors as { path: string; message: string }[];
    expect(errors.map((e) => e.path)).toEqual(expect.arrayContaining(['name', 'arguments[0].required', 'messages[1].role']));
    expect(errors).toContainEqual({ path: 'messages[0].content.text', message: '{{nope}} is not a declared argument' });
    // the argument with a bad field still declares its name
    expect(errors.filter((e) => e.message.includes('{{who}}'))).toEqual([]);
  });

  it('two editors holding the same ETag: one gets 201, the other 412', async () => {
    await call('POST', '/prompts', textPrompt('shared'));
    const etag = (await call('GET', '/prompts/shared')).headers.get('etag')!;
    const v = (text: string) => ({ arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text } }] });
    const [a, b] = await Promise.all([
      call('POST', '/prompts/shared/versions', v('A {{who}}'), { 'if-match': etag }),
      call('POST', '/prompts/shared/versions', v('B {{who}}'), { 'if-match': etag }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 412]);
    const loser = a.status === 412 ? a : b;
    expect((await loser.json()).title).toBe('Precondition failed');
    expect((await call('GET', '/prompts/shared')).status).toBe(200);
    const versions = await (await call('GET', '/prompts/shared/versions')).json();
    expect(versions.items.map((x: { version: number }) => x.version)).toEqual([2, 1]);
  });

  it('activates, rolls back and deactivates; render previews exactly', async () => {
    await call('POST', '/prompts', textPrompt('roll', 'v1 {{who}}'));
    await call('POST', '/prompts/roll/versions', { arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'v2 {{who}}' } }] });
    let res = await call('PUT', '/prompts/roll/active', { version: 2 });
    expect((await res.json()).activeVersion).toBe(2);
    res = await call('PUT', '/prompts/roll/active', { version: 1 });
    expect((await res.json()).activeVersion).toBe(1);
    res = await call('POST', '/prompts/roll/render', { arguments: { who: '{{who}} & <b>' } });
    expect(await res.json()).toEqual({ description: 'prompt roll', messages: [{ role: 'user', content: { type: 'text', text: 'v1 {{who}} & <b>' } }] });
    res = await call('PUT', '/prompts/roll/active', { version: 9 });
    expect(res.status).toBe(422);
    res = await call('DELETE', '/prompts/roll/active');
    expect((await res.json()).activeVersion).toBeNull();
    res = await call('POST', '/prompts/roll/render', { arguments: {} });
    expect(res.status).toBe(422);
    expect((await res.json()).errors[0]).toMatchObject({ path: 'arguments.who' });
  });

  it('renames, archives, deletes', async () => {
    await call('POST', '/prompts', textPrompt('old-name'));
    let res = await call('PATCH', '/prompts/old-name', { name: 'new-name', archived: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'new-name', archived: true });
    expect((await call('GET', '/prompts/old-name')).status).toBe(404);
    const listed = await (await call('GET', '/prompts?archived=true')).json();
    expect(listed.items.map((p: { name: string }) => p.name)).toContain('new-name');
    res = await call('PATCH', '/prompts/new-name', { name: 'greet' });
    expect(res.status).toBe(409);
    expect((await call('DELETE', '/prompts/new-name')).status).toBe(204);
    expect((await call('GET', '/prompts/new-name')).status).toBe(404);
    expect((await call('GET', '/prompts/new-name/versions/1')).status).toBe(404);
  });

  it('malformed JSON is 400, a huge body is 413, an unknown route 404 — never 500', async () => {
    expect((await call('POST', '/prompts', '{"name": ')).status).toBe(400);
    const huge = JSON.stringify({ ...textPrompt('huge'), description: 'x'.repeat(17 * 1024 * 1024) });
    const res = await call('POST', '/prompts', huge);
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await call('GET', '/nope')).status).toBe(404);
    expect((await call('GET', '/prompts?limit=abc')).status).toBe(400);
  });
});
