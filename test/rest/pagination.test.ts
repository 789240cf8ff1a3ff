import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { actor, makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let call: ReturnType<typeof makeClient>['call'];
const names = Array.from({ length: 120 }, (_, i) => `p-${String((i * 37) % 120).padStart(3, '0')}`);

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  call = makeClient(core).call;
  for (const name of names) await core.prompts.create({ name, arguments: [], messages: [{ role: 'user', content: { type: 'text', text: name } }] }, actor);
});
afterAll(() => core.close());

it('walks 120 prompts with limit=50: each exactly once, sorted by name', async () => {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: Response = await call('GET', `/prompts?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    seen.push(...body.items.map((p: { name: string }) => p.name));
    cursor = body.nextCursor;
    pages++;
  } while (cursor);
  expect(pages).toBe(3);
  expect(seen).toEqual([...names].sort());
});

it('a tampered cursor is 400, not a silent restart', async () => {
  const first = await (await call('GET', '/prompts?limit=50')).json();
  const cursor: string = first.nextCursor;
  const [payload, sig] = cursor.split('.');
  const forgedPayload = Buffer.from(JSON.stringify({ k: 'admin-prompts', v: 'p-000' })).toString('base64url');
  for (const bad of [`${forgedPayload}.${sig}`, `${payload}.${sig!.slice(0, -2)}xx`, 'garbage', `${payload}`]) {
    const res = await call('GET', `/prompts?cursor=${encodeURIComponent(bad)}`);
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].path).toBe('cursor');
  }
});
