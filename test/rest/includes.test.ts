// Includes through the admin REST API (app.request, every response checked strictly
// against the OpenAPI document): write-time rules as 422 problems naming the field
// (missing prompt or version, cycle with its path, depth limit, required arguments),
// the 409 on deleting, archiving or renaming an included prompt, the dependents and
// includes endpoints, the impact of a label move, and previews rendering includes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];

const text = (t: string) => ({ role: 'user', content: { type: 'text', text: t } });
const prompt = (name: string, t: string, args: { name: string; required?: boolean }[] = [], extra: Record<string, unknown> = {}) => ({
  name, arguments: args, messages: [text(t)], activate: true, ...extra,
});
const problem = async (res: Response, status: number) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return res.json() as Promise<{ detail: string; errors?: { path: string; message: string }[] }>;
};

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  ({ call } = makeClient(core));
  expect((await call('POST', '/prompts', prompt('style', 'Be {{tone}}.', [{ name: 'tone', required: true }]))).status).toBe(201);
  expect((await call('POST', '/prompts', prompt('review', '{{> style}}\nReview {{code}}', [{ name: 'tone', required: true }, { name: 'code', required: true }]))).status).toBe(201);
}, 60_000);
afterAll(() => core.close());

describe('includes REST API', () => {
  it('422 when the included prompt, label or version does not exist, naming the field', async () => {
    let body = await problem(await call('POST', '/prompts', prompt('a1', '{{> nope}}')), 422);
    expect(body.errors).toEqual([{ path: 'messages[0].content.text', message: 'included prompt "nope" does not exist' }]);
    body = await problem(await call('POST', '/prompts', prompt('a1', '{{> style@9}}', [{ name: 'tone', required: true }])), 422);
    expect(body.errors?.[0]).toEqual({ path: 'messages[0].content.text', message: 'included prompt "style" has no version 9' });
    body = await problem(await call('POST', '/prompts', { name: 'a1', messages: [{ role: 'user', content: { type: 'include', prompt: 'style', label: 'staging', arguments: { tone: 'x' } } }] }), 422);
    expect(body.errors?.[0]).toEqual({ path: 'messages[0].content.prompt', message: 'included prompt "style" has no label "staging"' });
    body = await problem(await call('POST', '/prompts', prompt('a1', '{{> Bad Name!}}')), 422);
    expect(body.errors?.[0]?.path).toBe('messages[0].content.text');
    body = await problem(await call('POST', '/prompts', prompt('a1', '{{ > style}}', [{ name: 'tone', required: true }])), 422);
    expect(body.errors?.[0]?.message).toMatch(/write an include as \{\{> style\}\}/);
    // Nothing was created by the refused writes.
    expect((await call('GET', '/prompts/a1')).status).toBe(404);
  });

  it('422 when a required argument of the included prompt is not supplied', async () => {
    let body = await problem(await call('POST', '/prompts', prompt('a2', '{{> style}}')), 422);
    expect(body.errors?.[0]).toMatchObject({ path: 'messages[0].content.text', message: expect.stringContaining('requires argument "tone"') });
    body = await problem(await call('POST', '/prompts', { name: 'a2', messages: [{ role: 'user', content: { type: 'include', prompt: 'style' } }] }), 422);
    expect(body.errors?.[0]).toMatchObject({ path: 'messages[0].content.arguments', message: expect.stringContaining('requires argument "tone"') });
    body = await problem(await call('POST', '/prompts', { name: 'a2', arguments: [{ name: 'x' }], messages: [{ role: 'user', content: { type: 'include', prompt: 'style', arguments: { tone: '{{x}}', colour: 'red' } } }] }), 422);
    expect(body.errors?.[0]).toMatchObject({ path: 'messages[0].content.arguments.colour', message: expect.stringContaining('has no argument "colour"') });
    body = await problem(await call('POST', '/prompts', { name: 'a2', messages: [{ role: 'user', content: { type: 'include', prompt: 'style', arguments: { tone: '{{undeclared}}' } } }] }), 422);
    expect(body.errors?.[0]).toMatchObject({ path: 'messages[0].content.arguments.tone', message: '{{undeclared}} is not a declared argument' });
    // Mapped: accepted.
    const ok = await call('POST', '/prompts', { name: 'a2', arguments: [{ name: 'x' }], messages: [{ role: 'user', content: { type: 'include', prompt: 'style', arguments: { tone: 'very {{x}}' } } }], activate: true });
    expect(ok.status).toBe(201);
    const r = await call('POST', '/prompts/a2/render', { arguments: { x: '{{> review}}' } });
    expect(r.status).toBe(200);
    expect((await r.json()).messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Be very {{> review}}.' } }]);
  });

  it('422 with the cycle path: a → b → a', async () => {
    expect((await call('POST', '/prompts', prompt('cyc-a', 'A'))).status).toBe(201);
    expect((await call('POST', '/prompts', prompt('cyc-b', 'B {{> cyc-a}}'))).status).toBe(201);
    const body = await problem(await call('POST', '/prompts/cyc-a/versions', { messages: [text('A {{> cyc-b}}')], activate: true }), 422);
    expect(body.errors).toEqual([{ path: 'messages[0].content.text', message: 'include cycle: cyc-a → cyc-b → cyc-a' }]);
    expect(body.detail).toContain('cyc-a → cyc-b → cyc-a');
    // Self-inclusion too.
    const self = await problem(await call('POST', '/prompts/cyc-b/versions', { messages: [{ role: 'user', content: { type: 'include', prompt: 'cyc-b' } }] }), 422);
    expect(self.errors?.[0]?.message).toBe('include cycle: cyc-b → cyc-b');
  });

  it('422 past the depth limit of 8', async () => {
    expect((await call('POST', '/prompts', prompt('d0', 'leaf'))).status).toBe(201);
    for (let i = 1; i <= 8; i++) expect((await call('POST', '/prompts', prompt(`d${i}`, `{{> d${i - 1}}}`))).status).toBe(201);
    // d8 → … → d0 is 8 levels; one more is refused.
    const body = await problem(await call('POST', '/prompts', prompt('d9', '{{> d8}}')), 422);
    expect(body.errors?.[0]?.message).toMatch(/^includes nest deeper than 8 levels: d9 → d8 → .* → d0$/);
    const r = await call('POST', '/prompts/d8/render', {});
    expect((await r.json()).messages[0].content.text).toBe('leaf');
  });

  it('dependents and includes endpoints; 409 on delete, archive and rename of an included prompt', async () => {
    let res = await call('GET', '/prompts/style/dependents');
    expect(res.status).toBe(200);
    const deps = (await res.json()) as { items: { prompt: string; version: number; views: string[]; includes: string[] }[] };
    expect(deps.items.map((d) => [d.prompt, d.version, d.views, d.includes])).toEqual([
      ['a2', 1, ['production', 'latest'], ['style']],
      ['review', 1, ['production', 'latest'], ['style']],
    ]);
    res = await call('GET', '/prompts/review/includes');
    expect(await res.json()).toEqual({ version: 1, items: [{ include: 'style', prompt: 'style', label: null, pinnedVersion: null, resolvedVersion: 1, problem: null }] });
    await problem(await call('GET', '/prompts/nope/dependents'), 404);
    await problem(await call('GET', '/prompts/review/includes?version=99'), 422);

    let body = await problem(await call('DELETE', '/prompts/style'), 409);
    expect(body.detail).toMatch(/"a2", "review"|"review", "a2"/);
    body = await problem(await call('PATCH', '/prompts/style', { archived: true }), 409);
    expect(body.detail).toContain('cannot be archived');
    body = await problem(await call('PATCH', '/prompts/style', { name: 'style2' }), 409);
    expect(body.detail).toContain('cannot be renamed');
    expect((await call('GET', '/prompts/style')).status).toBe(200);
    // A prompt nobody includes is deleted as before.
    expect((await call('DELETE', '/prompts/d9')).status).toBe(404);
    expect((await call('POST', '/prompts', prompt('loner', 'x'))).status).toBe(201);
    expect((await call('DELETE', '/prompts/loner')).status).toBe(204);
  });

  it('moving a label reports its impact: set, and promote dry runs', async () => {
    expect((await call('POST', '/prompts/style/versions', { arguments: [{ name: 'tone', required: true }], messages: [text('Stay {{tone}}.')] })).status).toBe(201);
    let res = await call('PUT', '/prompts/style/labels/production', { version: 2 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ label: 'production', version: 2, impact: { dependents: ['a2', 'review'], message: 'this changes 2 production prompts that include it' } });
    expect((await call('PUT', '/prompts/style/labels/staging', { version: 1 })).status).toBe(200);
    res = await call('POST', '/labels/staging/promote', { to: 'production', prompts: ['style'], dryRun: true });
    expect(await res.json()).toEqual({ changes: [{ prompt: 'style', from: 2, to: 1 }], impact: { dependents: ['a2', 'review'], message: 'this changes 2 production prompts that include it' } });
    // The preview renders the new production text through the include.
    res = await call('POST', '/prompts/review/render', { arguments: { tone: 'calm', code: 'x' } });
    expect((await res.json()).messages[0].content.text).toBe('Stay calm.\nReview x');
  });

  it('a cycle made later by moving a label is refused when rendering (409), never looping', async () => {
    expect((await call('POST', '/prompts', prompt('lx', 'X plain'))).status).toBe(201);
    expect((await call('POST', '/prompts', prompt('ly', 'Y plain'))).status).toBe(201);
    expect((await call('PUT', '/prompts/lx/labels/staging', { version: 1 })).status).toBe(200);
    // ly v2 (latest only) includes lx@staging, which is plain: accepted.
    expect((await call('POST', '/prompts/ly/versions', { messages: [text('Y {{> lx@staging}}')] })).status).toBe(201);
    // lx v2 includes ly: as stored, ly's production v1 is plain, so no cycle at write time.
    expect((await call('POST', '/prompts/lx/versions', { messages: [text('X {{> ly}}')] })).status).toBe(201);
    const moved = await call('PUT', '/prompts/lx/labels/staging', { version: 2 });
    expect(moved.status).toBe(200);
    // Under `latest`, ly v2 → lx@staging (v2) → ly (latest: v2) → … : a cycle.
    const latest = await core.catalog.open('latest');
    const err = await latest.render('ly', {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'conflict', message: expect.stringContaining('include cycle ly → lx → ly') });
    // Production is unaffected: ly v1 is plain.
    expect((await (await call('POST', '/prompts/ly/render', {})).json()).messages[0].content.text).toBe('Y plain');
  });
});
