// Property-based fuzzing of /admin/v1 through app.request(): random and hostile
// methods, paths, query strings, headers and bodies. Invariants: never a 5xx, every
// error is RFC 9457 problem+json, every response matches the OpenAPI document strictly,
// and the data written before the run is intact.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { projectRoot } from '../../src/db/paths.js';
import { makeCore, type TestCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';
import { publicRequest, renderBody, restCase, versionBody, resourceBody, templateBody, wireBody } from './arbitraries.js';
import { checkRestResponse } from './invariants.js';
import { responseErrors } from '../helpers/openapi.js';
import { seedSentinels, snapshotSentinels, touchesSentinel, type Sentinels } from './sentinels.js';

let core: TestCore;
let client: ReturnType<typeof makeClient>;
let sentinels: Sentinels;
let before: unknown;

beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
  sentinels = await seedSentinels(client.call);
  before = await snapshotSentinels(client.call, sentinels);
});
afterAll(() => core.close());

const send = (method: string, path: string, body: string | undefined, headers: Record<string, string>) =>
  client.app.request(`/admin/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...headers }, ...(body !== undefined ? { body } : {}) });

const leavesApi = (p: string) => !new URL(`/admin/v1${p}`, 'http://localhost').pathname.startsWith('/admin/v1/');
// The path the server routes: URL parsing resolves dot segments, `%2e%2e` included, so
// `/x/%2e%2e/resources` is GET /resources and is checked against that operation.
const routedPath = (p: string) => new URL(`/admin/v1${p.split('?')[0]}`, 'http://localhost').pathname.slice('/admin/v1'.length);

// FUZZ_SEED replays a failure's seed (fast-check prints it with the counterexample).
const runs = (n: number) => ({ numRuns: Number(process.env.FUZZ_RUNS ?? n), endOnFailure: true, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) });

it('random requests to any route: no 5xx, errors are problem+json', async () => {
  await fc.assert(
    fc.asyncProperty(restCase, async (c) => {
      fc.pre(!touchesSentinel(c.path, sentinels));
      // Dot segments can climb out of /admin/v1 (to the admin UI, which answers any path):
      // those requests belong to the "anywhere" property below, not to the API's document.
      fc.pre(leavesApi(c.path) === false);
      const res = await send(c.method, c.path, c.body, c.headers);
      const conformance = await responseErrors(await client.openapi(), c.method, routedPath(c.path), res);
      const problem = await checkRestResponse(res, c.method);
      expect(problem, `${c.method} ${c.path.slice(0, 200)}`).toBeNull();
      expect(conformance).toEqual([]);
    }),
    runs(250),
  );
});

it('hostile bodies on every write route: no 5xx, errors are problem+json', async () => {
  const json = { 'content-type': 'application/json' };
  const target = fc.oneof(
    wireBody(versionBody).map((b) => ['POST', '/prompts', b] as const),
    wireBody(versionBody).map((b) => ['POST', '/prompts/f1/versions', b] as const),
    wireBody(renderBody).map((b) => ['POST', '/prompts/keep.alpha/render', b] as const),
    wireBody(renderBody).map((b) => ['POST', '/prompts/f1/render', b] as const),
    wireBody(resourceBody).map((b) => ['POST', '/resources', b] as const),
    wireBody(templateBody).map((b) => ['POST', '/resource-templates', b] as const),
  );
  await fc.assert(
    fc.asyncProperty(target, async ([method, path, body]) => {
      const res = await send(method, path, body, json);
      const conformance = await responseErrors(await client.openapi(), method, path, res);
      const problem = await checkRestResponse(res, method);
      expect(problem, `${method} ${path} ${body.slice(0, 300)}`).toBeNull();
      expect(conformance).toEqual([]);
    }),
    runs(200),
  );
});

it('unauthenticated requests anywhere (UI, API, MCP, health): no 5xx, no file outside the UI directory served', async () => {
  const uiBuilt = existsSync(path.join(projectRoot, 'admin', 'dist', 'index.html'));
  await fc.assert(
    fc.asyncProperty(publicRequest, async ({ url, method }) => {
      const res = await client.app.request(url, { method, headers: { host: 'localhost' } });
      const body = method === 'HEAD' ? '' : await res.text();
      if (!uiBuilt && res.status === 503 && body.includes('not built')) return;
      expect(res.status, `${method} ${url}`).toBeLessThan(500);
      expect(body, `${method} ${url}`).not.toMatch(/"name":\s*"promptd"|DATABASE_URL|BEGIN [A-Z ]*PRIVATE KEY/);
    }),
    runs(150),
  );
});

it('the data written before the fuzz run is intact and still served', async () => {
  expect(await snapshotSentinels(client.call, sentinels)).toEqual(before);
  await core.catalog.ready();
  expect(core.catalog.find('keep.alpha')?.version.version).toBe(2);
  expect(core.catalog.find('keep.beta')).toBeUndefined();
  // Every stored version is whole: its argument and message rows are there.
  const versions = await core.db.prisma.promptVersion.findMany({ include: { _count: { select: { messages: true } } } });
  for (const v of versions) expect(v._count.messages, `version ${v.id}`).toBeGreaterThan(0);
});
