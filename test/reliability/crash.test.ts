// Crash safety: SIGKILL a process in the middle of a write storm and of a large
// `promptd import`; afterwards the database is intact (PRAGMA integrity_check on
// SQLite), every visible version is whole (all its messages and arguments), and
// `promptd serve` starts on it and serves. Spawned servers need `npm run build:server`.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { TEST_DB, makeCore, tempDbUrl, type TestCore } from '../helpers/db.js';
import { runPromptd, startServe, waitFor } from '../helpers/spawn.js';
import { ARGS, MESSAGES } from './writer-child.js';
import { expectWholeVersions, spawnWriter } from './child.js';
import { libName, libShape, writeLibrary } from './library-fixture.js';

const TOKEN = 'crash-token';

async function expectIntact(core: TestCore) {
  if (TEST_DB !== 'sqlite') return;
  const check = await core.db.prisma.$queryRawUnsafe<{ integrity_check: string }[]>('PRAGMA integrity_check');
  expect(check.map((r) => r.integrity_check)).toEqual(['ok']);
  expect(await core.db.prisma.$queryRawUnsafe<unknown[]>('PRAGMA foreign_key_check')).toEqual([]);
}

/** `promptd serve` on the database: ready, serves what is stored, and accepts a write. */
async function expectServerServes(url: string, prompt: string) {
  const srv = await startServe({ DATABASE_URL: url, PROMPTD_ADMIN_TOKEN: TOKEN });
  try {
    const api = (method: string, p: string, body?: unknown) =>
      fetch(`${srv.base}/admin/v1${p}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const detail = await (await api('GET', `/prompts/${prompt}`)).json();
    expect(detail.latestVersion).toBeGreaterThan(0);
    const next = await api('POST', `/prompts/${prompt}/versions`, { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'after the crash' } }] });
    expect(next.status).toBe(201);
    expect((await next.json()).version).toBe(detail.latestVersion + 1);
  } finally {
    await srv.stop();
  }
}

it('SIGKILL during a write storm: intact database, only whole versions, and the server serves', { timeout: 180_000 }, async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  let reported = 0;
  for (const round of [1, 2, 3]) {
    const writer = spawnWriter(url, 'storm', 1_000_000, 5);
    await writer.ready;
    // Kill at an arbitrary point while it is committing as fast as it can.
    await waitFor(() => writer.committed() >= reported + 5 + round * 7 || undefined, 60_000, `round ${round} writes; ${writer.stderr()}`);
    writer.child.kill('SIGKILL');
    expect(await writer.exited).toBeNull();
    reported = writer.committed();
    const core = await makeCore({ url });
    try {
      await expectIntact(core);
      const whole = await expectWholeVersions(core, () => ({ messages: MESSAGES, arguments: ARGS }));
      expect(whole.problems).toEqual([]);
      // Everything the writer reported as committed is there; at most the one in flight is extra.
      const latest = (await core.db.prisma.prompt.findUnique({ where: { name: 'storm' } }))!.latestVersion;
      expect(latest).toBeGreaterThanOrEqual(reported);
      expect(latest).toBeLessThanOrEqual(reported + 1);
      reported = latest;
    } finally {
      await core.close();
    }
  }
  await expectServerServes(url, 'storm');
});

it('SIGKILL during a large `promptd import`: every imported prompt is whole, a re-run completes it, and the server serves', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'promptd-crash-'));
  const COUNT = 5_000;
  writeLibrary(path.join(dir, 'lib'), COUNT);
  const url = await tempDbUrl();
  await migrateDatabase(url);
  const core = await makeCore({ url });
  try {
    const imp = runPromptd(['--database-url', url, 'import', path.join(dir, 'lib'), '--activate', '--quiet']);
    // Kill as soon as the first batch is visible: the rest of the import is in flight.
    const seen = await waitFor(async () => (await core.db.prisma.prompt.count()) || undefined, 60_000, `the import to start; ${imp.stderr()}`);
    imp.child.kill('SIGKILL');
    expect(await imp.exited).toBeNull();
    const present = await core.db.prisma.prompt.count();
    expect(seen).toBeGreaterThan(0);
    expect(present, 'the import finished before it could be killed').toBeLessThan(COUNT);
    await expectIntact(core);
    const shapeOf = (name: string) => libShape(Number(name.slice(4)));
    const whole = await expectWholeVersions(core, (name) => shapeOf(name));
    expect(whole.problems).toEqual([]);
    // All-or-nothing per prompt includes its activation.
    expect(await core.db.prisma.prompt.count({ where: { activeVersionId: null } })).toBe(0);

    const again = runPromptd(['--database-url', url, 'import', path.join(dir, 'lib'), '--activate', '--quiet']);
    expect(await again.exited, again.stderr()).toBe(0);
    const done = await expectWholeVersions(core, (name) => shapeOf(name));
    expect(done.problems).toEqual([]);
    expect([done.prompts, done.versions]).toEqual([COUNT, COUNT]);
    await expectIntact(core);
  } finally {
    await core.close();
  }
  await expectServerServes(url, libName(COUNT - 1));
});

it('the whole-version check notices a partially written version (so the tests above can fail)', async () => {
  const core = await makeCore();
  try {
    const { CreatePromptInputSchema } = await import('../../src/core/schemas.js');
    const { versionBody } = await import('./writer-child.js');
    await core.prompts.create(CreatePromptInputSchema.parse({ name: 'partial', ...versionBody(0) }), { name: 't' });
    expect((await expectWholeVersions(core, () => ({ messages: MESSAGES, arguments: ARGS }))).problems).toEqual([]);
    const one = await core.db.prisma.promptMessage.findFirstOrThrow({ select: { id: true } });
    await core.db.prisma.promptMessage.delete({ where: { id: one.id } });
    expect((await expectWholeVersions(core, () => ({ messages: MESSAGES, arguments: ARGS }))).problems).toEqual([`partial v1: ${MESSAGES - 1} messages, ${ARGS} arguments (want ${MESSAGES}, ${ARGS})`]);
  } finally {
    await core.close();
  }
});
