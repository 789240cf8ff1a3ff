// GET /server-info: the database a stdio MCP process should use (Connect page), never a PostgreSQL password.
import { afterAll, beforeAll, expect, it } from 'vitest';
import path from 'node:path';
import { dialectFor } from '../../src/db/dialects.js';
import { makeCore, type TestCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: TestCore;
let client: ReturnType<typeof makeClient>;
beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
});
afterAll(() => core.close());

it('names the database this server uses, and needs a token', async () => {
  const res = await client.call('GET', '/server-info');
  expect(res.status).toBe(200);
  const body = (await res.json()) as { database: { provider: string; url: string } };
  expect(body.database.provider).toBe(core.db.provider);
  expect(body.database.url).toBe(core.db.dialect.displayUrl(core.db.url));
  const password = core.db.url.startsWith('postgres') ? decodeURIComponent(new URL(core.db.url).password) : '';
  if (password) expect(body.database.url).not.toContain(password);
  // the admin UI's delete dialog says how long a deleted prompt stays in the bin
  expect((body as unknown as { deletedRetentionDays: number }).deletedRetentionDays).toBe(core.prompts.deletedRetentionDays);
  expect((await client.app.request('/admin/v1/server-info')).status).toBe(401);
});

it('makes SQLite paths absolute and hides PostgreSQL passwords', () => {
  const publicDatabaseUrl = (url: string, _kind: string) => dialectFor(url).displayUrl(url);
  expect(publicDatabaseUrl('file:./data/promptd.db', 'sqlite')).toBe(`file:${path.resolve('data/promptd.db')}`);
  expect(publicDatabaseUrl('file:/srv/p.db', 'sqlite')).toBe('file:/srv/p.db');
  const pg = publicDatabaseUrl('postgresql://app:s3cret@db.internal:5432/promptd?schema=public', 'postgresql');
  expect(pg).not.toContain('s3cret');
  expect(pg).toContain('app:');
  expect(pg).toContain('db.internal:5432/promptd');
});
