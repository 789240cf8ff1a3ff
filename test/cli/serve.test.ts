import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { runPromptd, startServe } from '../helpers/spawn.js';
import { tempSqliteUrl } from '../helpers/db.js';

describe('promptd serve (a real process)', () => {
  it('starts on an empty SQLite file (migrated, seeded, first-run token printed once) and again on the existing file', async () => {
    const url = tempSqliteUrl();
    const first = await startServe({ DATABASE_URL: url, PROMPTD_ADMIN_TOKEN: '' });
    const token = first.stderr().match(/\b(pd_[A-Za-z0-9_-]{20,})\b/)?.[1];
    expect(token, first.stderr()).toBeDefined();
    let res = await fetch(`${first.base}/admin/v1/prompts`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const seeded = (await res.json()).items.length;
    expect((await fetch(`${first.base}/admin/v1/prompts`)).status).toBe(401);
    expect((await fetch(`${first.base}/healthz`)).status).toBe(200);
    await first.stop();
    expect(existsSync(url.replace(/^file:/, ''))).toBe(true);

    const second = await startServe({ DATABASE_URL: url, PROMPTD_ADMIN_TOKEN: '' });
    expect(second.stderr()).not.toMatch(/pd_[A-Za-z0-9_-]{20,}/);
    res = await fetch(`${second.base}/admin/v1/prompts`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).items.length).toBe(seeded);
    await second.stop();
  });

  it('token create / list / revoke from the CLI; --help everywhere; usage errors exit 2', async () => {
    const url = tempSqliteUrl();
    const created = runPromptd(['token', 'create', 'ci-bot'], { DATABASE_URL: url });
    expect(await created.exited).toBe(0);
    const token = created.stdout().trim();
    expect(token).toMatch(/^pd_/);
    const listed = runPromptd(['token', 'list', '--json'], { DATABASE_URL: url });
    expect(await listed.exited).toBe(0);
    const list = JSON.parse(listed.stdout());
    expect(list).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain(token);
    const revoked = runPromptd(['token', 'revoke', String(list[0].id)], { DATABASE_URL: url });
    expect(await revoked.exited).toBe(0);
    const missing = runPromptd(['token', 'revoke', '999'], { DATABASE_URL: url });
    expect(await missing.exited).toBe(1);
    expect(missing.stderr()).toMatch(/token 999 not found/);
    expect(missing.stderr()).not.toMatch(/\n\s+at /);
    // Independent processes: started together, so a loaded machine pays one start-up, not six.
    const helps = [['--help'], ['serve', '--help'], ['migrate', '--help'], ['token', 'create', '--help'], ['mcp', '--help']].map((args) => ({ args, run: runPromptd(args) }));
    const bad = runPromptd(['no-such-command']);
    for (const { args, run } of helps) {
      expect(await run.exited, args.join(' ')).toBe(0);
      expect(run.stdout()).toMatch(/Usage: promptd/);
    }
    expect(await bad.exited).toBe(2);
  }, 180_000);
});
