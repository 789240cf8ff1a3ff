// Issue 24.5: token names were not validated. Two tokens could share a name (the
// change log's `token:alice` was ambiguous) and a name with a newline and ANSI
// escapes made `token list` print a fake row. Names are now unique, printable and
// at most 64 characters, and the actor names the token's id: `token:alice#3`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { makeClient } from '../helpers/http.js';
import { runPromptd } from '../helpers/spawn.js';
import { isDomainError } from '../../src/core/errors.js';

let url: string;
let core: TestCore;

const cli = async (...args: string[]) => {
  const p = runPromptd(['token', ...args], { DATABASE_URL: url });
  const code = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
};
const domainError = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (err: unknown) => err);
  if (!isDomainError(e)) throw new Error(`expected a domain error, got ${String(e)}`);
  return e;
};

beforeAll(async () => {
  url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { purgeIntervalMs: 0 });
});
afterAll(() => core?.close());

describe('token names', () => {
  it('control characters, ANSI escapes, bidi overrides, blank and overlong names are refused (422 naming `name`)', async () => {
    for (const name of ['evil\n   9  pd_fake…  admin', 'red\x1b[31m', 'tab\there', 'rtl\u202Eevil', '', ' padded', 'x'.repeat(65), 'nul\u0000']) {
      const e = await domainError(core.tokens.create(name));
      expect(e.code, JSON.stringify(name)).toBe('validation');
      expect(e.errors[0]!.path).toBe('name');
    }
    expect((await core.tokens.list()).length).toBe(0);
    for (const name of ['ci-bot', 'Zoë’s laptop', 'deploy (prod) #2', 'x'.repeat(64)]) await core.tokens.create(name);
  });

  it('names are unique: a second "ci-bot" is a conflict naming `name`, through the core and the CLI', async () => {
    const e = await domainError(core.tokens.create('ci-bot'));
    expect(e.code).toBe('conflict');
    expect(e.errors).toEqual([{ path: 'name', message: 'already exists' }]);
    const r = await cli('create', 'ci-bot');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('a token named "ci-bot" already exists');
    expect(r.stdout).toBe('');
  });

  it('the CLI refuses a name that would forge a `token list` row, and list never prints control characters', async () => {
    const r = await cli('create', 'x\n  99  pd_FAKE…  root  active');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('printable');
    // A row from before the rule (written straight to the database) prints escaped.
    await core.db.prisma.apiToken.create({ data: { name: 'legacy\n  98  pd_FAKE\x1b[2K', prefix: 'pd_legacy0', hash: 'legacy-hash' } });
    const list = await cli('list');
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(list.stdout.split('\n').filter((l) => l.includes('pd_FAKE'))).toHaveLength(1);
    expect(list.stdout).toContain('legacy\\u{a}  98  pd_FAKE\\u{1b}[2K');
  });

  it('the change log actor names the token by name and id', async () => {
    const { token, info } = await core.tokens.create('alice');
    const res = await makeClient(core).call('POST', '/prompts', { name: 'by-alice', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(201);
    expect((await res.json()).latest.author).toBe(`token:alice#${info.id}`);
    const created = (await core.feed.since(0, 1000)).filter((e) => e.entityKey === 'by-alice');
    expect(created.map((e) => e.actor)).toEqual([`token:alice#${info.id}`]);
    const tokenEvent = (await core.feed.since(0, 1000)).find((e) => e.action === 'token.created' && e.entityKey === String(info.id));
    expect(tokenEvent?.details).toEqual({ name: 'alice', tokenId: info.id, kind: 'admin', role: 'admin' });
  });
});
