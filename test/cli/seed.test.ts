// Issue 37 item 2: `promptd seed` fills in missing seed prompts and never takes a
// team's edit out of production without --force (it said "new version code-review
// v2 → v3, activated v3" with the seed text). On both databases.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/spawn.js';
import { tempDbUrl } from '../helpers/db.js';
import { assertBuilt, promptdAsync, tempCwd } from './helpers.js';

beforeAll(assertBuilt);

const seedDir = path.join(path.dirname(BIN), '..', 'seed');

describe('promptd seed', () => {
  // Migrating a fresh PostgreSQL database alone takes ~10 s.
  it('leaves an edited seed prompt served as the team left it, names it, and replaces it only with --force', { timeout: 240_000 }, async () => {
    const cwd = tempCwd();
    const env = { DATABASE_URL: await tempDbUrl() };
    const run = (...args: string[]) => promptdAsync(args, { cwd, env });
    const first = await run('seed', '-q');
    expect(first.code, first.stderr).toBe(0);

    mkdirSync(path.join(cwd, 'lib', 'prompts'), { recursive: true });
    const file = path.join(cwd, 'lib', 'prompts', 'code-review.yaml');
    cpSync(path.join(seedDir, 'prompts', 'code-review.yaml'), file);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^description: .*$/m, 'description: Our team review.'));
    const imp = await run('import', 'lib', '--activate');
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.stdout).toMatch(/new version\s+code-review v1 → v2, activated v2/);

    const again = await run('seed');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toMatch(/code-review/);
    expect(again.stdout).toMatch(/imported: 0 created, 0 new versions, \d+ unchanged, 0 activated, 0 errors/);
    expect(again.errors).toEqual(["skipped code-review: changed since seeded (v2 is by import); --force replaces it with the seed's"]);
    const json = JSON.parse((await run('seed', '--dry-run', '--json')).stdout) as { skipped: unknown[] };
    expect(json.skipped).toEqual([{ kind: 'prompt', name: 'code-review', reason: 'v2 is by import' }]);
    const served = async () => {
      expect((await run('export', 'out', '--force')).code).toBe(0);
      return readFileSync(path.join(cwd, 'out', 'prompts', 'code-review.yaml'), 'utf8');
    };
    expect(await served()).toContain('Our team review.');

    const forced = await run('seed', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/new version\s+code-review v2 → v3, activated v3/);
    expect(await served()).not.toContain('Our team review.');
  });

  it('--help says what seed leaves alone and what --force does', async () => {
    const help = (await promptdAsync(['seed', '--help'])).stdout;
    expect(help).toMatch(/never replaces your edits without --force/);
    expect(help).toMatch(/--force\s+also replace seed prompts and resources someone changed/);
    const readme = readFileSync(path.join(path.dirname(BIN), '..', 'README.md'), 'utf8');
    expect(readme).not.toMatch(/seed\s+load seed\/ \(idempotent\)/);
    expect(readme).toMatch(/promptd seed\s+.*--force/);
  });
});
