// `promptd token create --rate-mcp --rate-writes`: a token's own rate limits from the
// CLI (docs/rate-limits.md), shown by `token list`; out-of-range values are usage errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { loadConfig } from '../../src/config.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { runPromptd } from '../helpers/spawn.js';

let url: string;
let core: TestCore;

const cli = async (...args: string[]) => {
  const p = runPromptd(['token', ...args], { DATABASE_URL: url });
  const code = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
};

beforeAll(async () => {
  url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { purgeIntervalMs: 0 });
});
afterAll(() => core?.close());

describe('token rate limits from the CLI', () => {
  it('token create --rate-mcp 100 --rate-writes 10 stores them, recorded in the change log; list shows them', async () => {
    const r = await cli('create', 'agent', '--rate-mcp', '100', '--rate-writes', '10');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^pd_/);
    const agent = (await core.tokens.list()).find((t) => t.name === 'agent')!;
    expect(agent).toMatchObject({ mcpRatePerMinute: 100, writeRatePerMinute: 10 });
    const [created] = (await core.activity.list({ action: 'token.created' })).items;
    expect(created?.details).toMatchObject({ name: 'agent', mcpRatePerMinute: 100, writeRatePerMinute: 10 });
    const list = await cli('list');
    expect(list.stdout).toMatch(/agent .*rates mcp 100\/min writes 10\/min/);
    const plain = await cli('create', 'plain');
    expect(plain.code).toBe(0);
    expect((await core.tokens.list()).find((t) => t.name === 'plain')).toMatchObject({ mcpRatePerMinute: null, writeRatePerMinute: null });
  });

  it('a value out of range is a usage error naming the flag, and creates nothing', async () => {
    const r = await cli('create', 'bad', '--rate-writes', '0');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--rate-writes takes a whole number of requests per minute from 1 to 1000000 (got "0")');
    expect((await core.tokens.list()).some((t) => t.name === 'bad')).toBe(false);
  });

  it('PROMPTD_RATE_LIMITS: on unless off', () => {
    expect(loadConfig({}).rateLimits).toBe(true);
    expect(loadConfig({ PROMPTD_RATE_LIMITS: 'off' }).rateLimits).toBe(false);
    expect(loadConfig({ PROMPTD_RATE_LIMITS: '0' }).rateLimits).toBe(false);
    expect(loadConfig({ PROMPTD_RATE_LIMITS: 'on' }).rateLimits).toBe(true);
  });
});
