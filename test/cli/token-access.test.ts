// `promptd token create --role` and `--mcp --label --tag` as a real child process
// (docs/access.md): the role and scope are stored, listed, and enforced.
import { beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { coreOn, tempDbUrl, tempDbWithStaging } from '../helpers/db.js';
import { assertBuilt, promptd } from './helpers.js';

describe('promptd token create: roles and MCP tokens', () => {
  let url: string;
  beforeAll(async () => {
    assertBuilt();
    // An MCP token's label must exist (#37.4): a prompt carries staging.
    url = await tempDbWithStaging();
  });

  it('--role, --mcp --label --tag, and usage errors', async () => {
    const env = { DATABASE_URL: url };
    let r = promptd(['token', 'create', 'docs-bot', '--role', 'reader'], { env });
    expect(r.code, r.stderr).toBe(0);
    const readerToken = r.stdout.trim();
    expect(readerToken).toMatch(/^pd_/);
    expect(r.stderr).toContain('created reader token');
    r = promptd(['token', 'create', 'cursor-team-a', '--mcp', '--label', 'staging', '--tag', 'team-a', '--tag', 'support'], { env });
    expect(r.code, r.stderr).toBe(0);
    const mcpToken = r.stdout.trim();
    expect(mcpToken).toMatch(/^pdm_/);
    r = promptd(['token', 'create', 'plain'], { env });
    expect(r.code).toBe(0);

    const listed = JSON.parse(promptd(['token', 'list', '--json'], { env }).stdout) as { name: string; role: string | null; kind: string; scope: unknown }[];
    expect(listed.map((t) => [t.name, t.kind, t.role, t.scope])).toEqual([
      ['docs-bot', 'admin', 'reader', null],
      ['cursor-team-a', 'mcp', null, { label: 'staging', tags: ['support', 'team-a'] }],
      ['plain', 'admin', 'admin', null],
    ]);

    for (const args of [['--role', 'owner'], ['--mcp', '--role', 'editor']]) {
      r = promptd(['token', 'create', 'bad', ...args], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.errors.join('\n')).toMatch(/--role|--mcp|--label|--tag/);
    }
    r = promptd(['token', 'create', 'bad-tag', '--mcp', '--tag', 'Not A Tag'], { env });
    expect(r.code).toBe(1);
    expect(r.errors.join('\n')).toContain('tags[0]');

    // Enforced: the reader token reads and may not write; the MCP token is not an admin token.
    const core = await coreOn(url);
    try {
      expect(await core.tokens.authenticate(readerToken)).toMatchObject({ role: 'reader', display: 'token "docs-bot"' });
      expect(await core.tokens.authenticate(mcpToken)).toBeNull();
      expect(await core.tokens.authenticateMcp(mcpToken)).toMatchObject({ tokenName: 'cursor-team-a', scope: { label: 'staging', tags: ['support', 'team-a'] } });
      expect(await core.tokens.authenticateMcp(readerToken)).toBeNull();
    } finally {
      await core.close();
    }
  }, 150_000); // seven child processes

  it('issue 37.14: the first MCP token says on stderr, before it is created, that anonymous MCP access ends; --app (36.12) does not', async () => {
    const own = await tempDbUrl();
    await migrateDatabase(own);
    const env = { DATABASE_URL: own };
    const note = /first MCP client token.*anonymous MCP access ends.*revoke every MCP token/;
    // An app token's label must exist too (#37.4).
    const other0 = await tempDbWithStaging();
    let r = promptd(['token', 'create', 'an-admin'], { env });
    expect(r.stderr).not.toMatch(note);
    r = promptd(['token', 'create', 'first', '--mcp'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(note);
    // Before it is created: the note comes first.
    expect(r.stderr.search(note)).toBeLessThan(r.stderr.indexOf('created mcp'));
    r = promptd(['token', 'create', 'second', '--mcp'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(note);
    // An app token (issue 36.12) is not an MCP token: no note, and it reads /v1 in its scope only.
    r = promptd(['token', 'create', 'shop', '--app', '--label', 'staging', '--tag', 'shop'], { env: { DATABASE_URL: other0 } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^pda_/);
    expect(r.stderr).toContain('created app staging [shop] token');
    expect(r.stderr).not.toMatch(note);
    r = promptd(['token', 'create', 'both', '--app', '--mcp'], { env: { DATABASE_URL: other0 } });
    expect(r.code).toBe(2);
    // With PROMPTD_MCP_TOKEN, /mcp needed a token already.
    const other = await tempDbUrl();
    await migrateDatabase(other);
    r = promptd(['token', 'create', 'first', '--mcp'], { env: { DATABASE_URL: other, PROMPTD_MCP_TOKEN: 'shared' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(note);
  }, 120_000);
});
