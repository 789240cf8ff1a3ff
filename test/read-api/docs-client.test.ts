// The caching client in docs/read-api.md, run as written against a real HTTP server:
// the first read is a 200, a repeat read while not following revalidates with a 304,
// and a label move is picked up on the next read.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { createApp } from '../../src/http/app.js';
import { actor, makeCore } from '../helpers/db.js';
import { textPrompt, TOKEN } from '../helpers/http.js';

let core: Core;
let server: ServerType;
const statuses: number[] = [];

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  const app = createApp({ core });
  const counting = async (req: Request) => {
    const res = await app.fetch(req);
    if (new URL(req.url).pathname.startsWith('/v1/prompts/')) statuses.push(res.status);
    return res;
  };
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: counting, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
});
afterAll(async () => {
  server.close();
  await core.close();
});

it('the documented client caches, revalidates with If-None-Match and sees a label move', async () => {
  const doc = readFileSync(new URL('../../docs/read-api.md', import.meta.url), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(doc)![1]!;
  expect(code.split('\n').length).toBeLessThanOrEqual(32);
  const port = (server.address() as AddressInfo).port;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'promptd-client-')), 'client.mjs');
  writeFileSync(file, code.replace("'http://127.0.0.1:3000/v1'", `'http://127.0.0.1:${port}/v1'`).replace('process.env.PROMPTD_TOKEN', JSON.stringify(TOKEN)));
  const client = (await import(pathToFileURL(file).href)) as { getPrompt(name: string, label?: string): Promise<{ version: number }> };

  await core.prompts.create({ ...textPrompt('doc'), activate: true } as never, actor);
  await core.prompts.createVersion('doc', { ...textPrompt('doc', 'v2 {{who}}'), name: undefined } as never, actor);
  expect((await client.getPrompt('doc')).version).toBe(1);
  expect((await client.getPrompt('doc')).version).toBe(1);
  expect(statuses).toEqual([200, 304]);
  await core.labels.set('doc', 'production', 2, actor);
  expect((await client.getPrompt('doc')).version).toBe(2);
  expect(statuses).toEqual([200, 304, 200]);
  expect((await client.getPrompt('doc', 'latest')).version).toBe(2);
});
