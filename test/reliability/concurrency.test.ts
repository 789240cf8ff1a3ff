// Concurrent writers against a listening server (startServer, as `promptd serve`):
// gapless version numbers, activation storms that leave one consistent active
// version, and a second OS process writing the same database under load.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { TEST_DB, tempDbUrl } from '../helpers/db.js';
import { waitFor } from '../helpers/spawn.js';
import { ARGS, MESSAGES, versionBody } from './writer-child.js';
import { expectWholeVersions, spawnWriter } from './child.js';

const TOKEN = 'concurrency-token';
let srv: RunningServer;
let dbUrl: string;

beforeAll(async () => {
  dbUrl = await tempDbUrl();
  srv = await startServer({ databaseUrl: dbUrl, port: 0, seed: false, adminToken: TOKEN, logger: createLogger('silent') });
});
afterAll(() => srv?.close());

const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${srv.url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

it('50 concurrent new versions of one prompt → 51 versions, numbered without gaps, each whole', async () => {
  expect((await api('POST', '/prompts', { name: 'busy', ...versionBody(0) })).status).toBe(201);
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => api('POST', '/prompts/busy/versions', versionBody(i + 1))));
  const bodies = await Promise.all(results.map((r) => r.json()));
  expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
  expect(bodies.map((b) => b.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
  const list = await (await api('GET', '/prompts/busy/versions?limit=100')).json();
  expect(list.items.map((v: { version: number }) => v.version)).toEqual(Array.from({ length: 51 }, (_, i) => 51 - i));
  const whole = await expectWholeVersions(srv.store, () => ({ messages: MESSAGES, arguments: ARGS }));
  expect(whole.problems).toEqual([]);
});

it('30 concurrent new versions with the same If-Match: exactly one wins, the rest get 412', async () => {
  const etag = (await api('GET', '/prompts/busy')).headers.get('etag')!;
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) => api('POST', '/prompts/busy/versions', versionBody(100 + i), { 'if-match': etag })));
  const statuses = results.map((r) => r.status).sort();
  expect(statuses).toEqual([201, ...Array(29).fill(412)]);
  expect((await (await api('GET', '/prompts/busy')).json()).latestVersion).toBe(52);
});

it('an activate/rollback storm leaves exactly one active version, consistent with the change log and the served catalog', async () => {
  expect((await api('POST', '/prompts', { name: 'storm', ...versionBody(0), activate: true })).status).toBe(201);
  for (let i = 1; i < 10; i++) expect((await api('POST', '/prompts/storm/versions', versionBody(i))).status).toBe(201);
  const picks = Array.from({ length: 120 }, (_, i) => ((i * 7919) % 10) + 1);
  const results = await Promise.all(picks.map((version) => api('PUT', '/prompts/storm/active', { version })));
  expect(results.map((r) => r.status)).toEqual(Array(120).fill(200));

  const detail = await (await api('GET', '/prompts/storm')).json();
  const versions = (await (await api('GET', '/prompts/storm/versions?limit=100')).json()).items as { version: number; active: boolean }[];
  expect(versions.filter((v) => v.active).map((v) => v.version)).toEqual([detail.activeVersion]);

  // Replaying the log: each activation names the version that was active before it.
  const events = await srv.store.db.prisma.changeEvent.findMany({ where: { entity: 'prompt', entityKey: 'storm', action: { in: ['prompt.activated', 'prompt.rolled_back'] } }, orderBy: { id: 'asc' } });
  let active: number | null = null;
  for (const e of events) {
    const d = JSON.parse(e.details ?? '{}') as { version: number; previous?: number | null };
    if (active !== null) expect(d.previous, `event ${e.id}`).toBe(active);
    active = d.version;
  }
  expect(active).toBe(detail.activeVersion);
  await waitFor(() => srv.core.catalog.find('storm')?.version.version === detail.activeVersion || undefined, 10_000, 'the served catalog to catch up');
});

it('a second OS process writing the same database under load never surfaces SQLITE_BUSY to anyone', async () => {
  const writer = spawnWriter(dbUrl, 'from-child', 60, 10);
  await writer.ready;
  expect((await api('POST', '/prompts', { name: 'from-server', ...versionBody(0) })).status).toBe(201);
  const statuses: number[] = [];
  // Server-side load while the child writes: new versions, activations, reads.
  await Promise.all(
    Array.from({ length: 4 }, async (_, lane) => {
      for (let i = 0; i < 15; i++) {
        const res = await api('POST', '/prompts/from-server/versions', { ...versionBody(lane * 100 + i), activate: i % 5 === 0 });
        statuses.push(res.status);
        statuses.push((await api('GET', '/prompts?limit=200')).status);
      }
    }),
  );
  const code = await writer.exited;
  expect(writer.stderr()).not.toMatch(/SQLITE_BUSY|database is locked/i);
  expect(code, writer.stderr()).toBe(0);
  expect(statuses.filter((s) => s >= 300)).toEqual([]);
  expect(writer.committed()).toBe(61);
  const whole = await expectWholeVersions(srv.store, () => ({ messages: MESSAGES, arguments: ARGS }));
  expect(whole.problems).toEqual([]);
  // The server follows the other process's writes: its last activation (v61) is served here.
  await waitFor(() => srv.core.catalog.find('from-child')?.version.version === 61 || undefined, 10_000, 'the child’s activation to be served');
  if (TEST_DB === 'sqlite') {
    const rows = await srv.store.db.prisma.$queryRawUnsafe<{ journal_mode: string }[]>('PRAGMA journal_mode');
    expect(rows[0]?.journal_mode).toBe('wal');
  }
});
