// Issue 15.7: lastUsedAt was never set; two instances starting together on an
// empty database each created a first-run admin token; `token revoke pd_` said "not
// found" when two tokens matched; revoking a revoked token said nothing of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { startServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { makeClient } from '../helpers/http.js';
import { runPromptd } from '../helpers/spawn.js';

let url: string;
let core: TestCore;
let clock = new Date('2030-01-01T00:00:00Z');

const cli = async (...args: string[]) => {
  const p = runPromptd(['token', ...args], { DATABASE_URL: url });
  const code = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
};

beforeAll(async () => {
  url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { purgeIntervalMs: 0, now: () => clock });
});
afterAll(() => core?.close());

describe('tokens', () => {
  it('lastUsedAt is set on use, in the background and at most once a minute per token', async () => {
    const { token, info } = await core.tokens.create('used');
    expect(info.lastUsedAt).toBeNull();
    const { call } = makeClient(core);
    const get = () => call('GET', '/prompts', undefined, { authorization: `Bearer ${token}` });
    const lastUsed = async () => (await core.tokens.list()).find((t) => t.id === info.id)!.lastUsedAt?.toISOString();

    expect((await get()).status).toBe(200);
    await core.tokens.idle();
    expect(await lastUsed()).toBe(clock.toISOString());

    const first = clock;
    clock = new Date(first.getTime() + 30_000);
    expect((await get()).status).toBe(200);
    await core.tokens.idle();
    expect(await lastUsed()).toBe(first.toISOString());

    clock = new Date(first.getTime() + 61_000);
    expect((await get()).status).toBe(200);
    await core.tokens.idle();
    expect(await lastUsed()).toBe(clock.toISOString());
  });

  it('`token revoke` with a prefix two tokens share is ambiguous (exit 1, one line) and revokes nothing', async () => {
    await core.tokens.create('second');
    const r = await cli('revoke', 'pd_');
    expect(r.code).toBe(1);
    // Besides the `database …` line every command prints (issue 15), the error is one line.
    expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('promptd: database '))).toHaveLength(1);
    expect(r.stderr).toMatch(/"pd_" is ambiguous: it matches \d+ tokens/);
    expect((await core.tokens.list()).every((t) => t.revokedAt === null)).toBe(true);
  });

  it('a unique prefix revokes; revoking again says it was already revoked', async () => {
    const { info } = await core.tokens.create('short-lived');
    const r = await cli('revoke', info.prefix);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`revoked token #${info.id} "short-lived"`);
    const again = await cli('revoke', String(info.id));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`token #${info.id} "short-lived" was already revoked at \\d{4}-`));
    expect((await cli('revoke', 'pd_nothing')).stderr).toContain('not found');
  });

  it('servers starting together on an empty database create exactly one first-run admin token', async () => {
    const fresh = await tempDbUrl();
    await migrateDatabase(fresh);
    const shown: string[] = [];
    const servers = await Promise.all(
      [1, 2, 3].map(() => startServer({ databaseUrl: fresh, port: 0, seed: false, logger: createLogger('silent'), onFirstRunToken: (t) => shown.push(t) })),
    );
    try {
      expect(shown).toHaveLength(1);
      const tokens = await servers[0]!.core.tokens.list();
      expect(tokens.map((t) => t.name)).toEqual(['first-run']);
      // Any instance accepts it.
      for (const s of servers) expect((await fetch(`${s.url}/admin/v1/prompts`, { headers: { authorization: `Bearer ${shown[0]}` } })).status).toBe(200);
      // Once it is revoked (lost), the next start makes a new one under a free name.
      await servers[0]!.core.tokens.revoke(String(tokens[0]!.id));
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
    const again: string[] = [];
    const s = await startServer({ databaseUrl: fresh, port: 0, seed: false, logger: createLogger('silent'), onFirstRunToken: (t) => again.push(t) });
    try {
      expect(again).toHaveLength(1);
      expect((await s.core.tokens.list()).map((t) => t.name)).toEqual(['first-run', 'first-run-2']);
    } finally {
      await s.close();
    }
  });
});
