// Issue 24.7: two instances starting together on a fresh PostgreSQL database raced
// on a setting row; the loser logged `Unique constraint failed on the constraint:
// Setting_pkey` and kept running without listening. Settings are now inserted with
// "do nothing on conflict" and read back, and any start-up failure exits non-zero.
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { openStore } from '../../src/db/store.js';
import { createCore } from '../../src/core/index.js';
import { TEST_DB, tempDbUrl, tempPostgresUrl } from '../helpers/db.js';
import { runPromptd } from '../helpers/spawn.js';

describe('start-up', () => {
  it.runIf(TEST_DB === 'postgres')('cores starting together on a fresh PostgreSQL database all come up and agree on the cursor secret', async () => {
    const url = await tempPostgresUrl();
    await migrateDatabase(url);
    const stores = await Promise.all(Array.from({ length: 6 }, () => openStore(url, { poolMax: 2 })));
    try {
      for (let round = 0; round < 4; round++) {
        await stores[0]!.db.prisma.$executeRawUnsafe('DELETE FROM "Setting"');
        // Every store reads and writes the same keys at once, as createCore does first thing.
        const secrets = await Promise.all(stores.map((s) => s.setting('cursor_secret', () => `secret-of-${Math.random()}`)));
        expect(new Set(secrets).size, `round ${round}`).toBe(1);
      }
      const cores = await Promise.all(stores.map((store) => createCore({ store, purgeIntervalMs: 0 })));
      const cursor = cores[0]!.cursors.encode('x', 'y');
      for (const c of cores) expect(c.cursors.decode('x', cursor)).toBe('y');
      await Promise.all(cores.map((c) => c.close()));
    } finally {
      await Promise.all(stores.map((s) => s.close().catch(() => {})));
    }
  });

  it('`promptd serve` that cannot listen exits with status 1 instead of running without listening', async () => {
    const blocker: Server = createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)));
    try {
      const p = runPromptd(['serve', '--no-seed'], { DATABASE_URL: await tempDbUrl(), PORT: String(port), HOST: '127.0.0.1', PROMPTD_ADMIN_TOKEN: 'x' });
      const timer = setTimeout(() => p.child.kill('SIGKILL'), 60_000);
      const code = await p.exited;
      clearTimeout(timer);
      expect(code, p.stderr()).toBe(1);
      // The port is checked before the database is touched: one line naming it.
      expect(p.stderr()).toMatch(/port \d+ is already in use/);
    } finally {
      blocker.close();
    }
  }, 90_000);

  it('a failure after the database is open (here: a bad PROMPTD_DELETED_RETENTION_DAYS) closes it and exits 1', async () => {
    const p = runPromptd(['serve', '--no-seed'], { DATABASE_URL: await tempDbUrl(), PORT: '0', HOST: '127.0.0.1', PROMPTD_ADMIN_TOKEN: 'x', PROMPTD_DELETED_RETENTION_DAYS: 'soon' });
    const timer = setTimeout(() => p.child.kill('SIGKILL'), 60_000);
    const code = await p.exited;
    clearTimeout(timer);
    expect(code, p.stderr()).toBe(1);
    expect(p.stderr()).toContain('PROMPTD_DELETED_RETENTION_DAYS');
  }, 90_000);
});
