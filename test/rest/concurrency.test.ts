import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Core } from '../../src/core/index.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';
import { assertConforms, type OpenApiDoc } from '../helpers/openapi.js';

let core: Core;
let server: ServerType;
let base: string;
let doc: OpenApiDoc;

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  const { app, openapi } = makeClient(core);
  doc = await openapi();
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/v1`;
});
afterAll(async () => {
  server.close();
  await core.close();
});

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await assertConforms(doc, 'POST', path, res);
  return res;
};

it('20 simultaneous new versions over HTTP all succeed, numbered without gaps or duplicates', async () => {
  expect((await post('/prompts', textPrompt('busy'))).status).toBe(201);
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => post('/prompts/busy/versions', { arguments: [{ name: 'who' }], messages: [{ role: 'user', content: { type: 'text', text: `edit ${i} {{who}}` } }] })),
  );
  expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
  const numbers = (await Promise.all(results.map((r) => r.json()))).map((v) => v.version).sort((a, b) => a - b);
  expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
  const list = await (await fetch(`${base}/prompts/busy/versions?limit=100`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
  expect(list.items.map((v: { version: number }) => v.version)).toEqual(Array.from({ length: 21 }, (_, i) => 21 - i));
});
