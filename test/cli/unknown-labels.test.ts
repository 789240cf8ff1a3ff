// #37.4 through the CLI (real child processes): a --label that names a label to read or
// scope by must exist; otherwise exit 2 naming the known labels.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDbWithStaging } from '../helpers/db.js';
import { assertBuilt, promptd } from './helpers.js';

describe('promptd --label names a known label', () => {
  let url: string;
  beforeAll(async () => {
    assertBuilt();
    url = await tempDbWithStaging();
  });

  it('token create --mcp --label: unknown is refused (exit 2) naming the known labels; no token is made', async () => {
    const env = { DATABASE_URL: url };
    let r = promptd(['token', 'create', 'typo', '--mcp', '--label', 'stagign'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--label stagign: label "stagign" is not known; known labels: latest, production, staging');
    r = promptd(['token', 'create', 'ok', '--mcp', '--label', 'staging'], { env });
    expect(r.code, r.stderr).toBe(0);
    const listed = JSON.parse(promptd(['token', 'list', '--json'], { env }).stdout) as { name: string }[];
    expect(listed.map((t) => t.name)).toEqual(['ok']);
  }, 60_000);

  it('check --label: a label the files never name is exit 2 (it checked as production before)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pd-check-labels-'));
    mkdirSync(path.join(dir, 'prompts'));
    writeFileSync(path.join(dir, 'prompts', 'greet.yaml'), 'name: greet\nlabels: [staging]\nmessages:\n  - role: user\n    text: hi\n');
    let r = promptd(['check', dir, '--label', 'stagign']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('label "stagign" is not known; known labels: latest, production, staging');
    for (const label of ['staging', 'production', 'latest']) {
      r = promptd(['check', dir, '--label', label]);
      expect(r.code, `${label}: ${r.stderr}`).toBe(0);
    }
  }, 60_000);

  it('mcp --label: unknown exits 2 naming the known labels', () => {
    const r = promptd(['mcp', '--label', 'stagign'], { env: { DATABASE_URL: url }, input: '' });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('label "stagign" is not known; known labels: latest, production, staging');
  }, 60_000);
});
