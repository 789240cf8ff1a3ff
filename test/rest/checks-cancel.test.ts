// Issue #36.6: a REST check's patterns stop when its client goes away (the request's
// signal reaches the pattern runner), so a reader cannot leave checks running for
// nobody. A runner holds the first pattern until the test has aborted the request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { CANCELLED, createRegexRunner, type RegexLimits } from '../../src/core/checks/regex-runner.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

const real = createRegexRunner();
let began!: () => void;
const started = new Promise<void>((r) => (began = r));
let release!: () => void;
const released = new Promise<void>((r) => (release = r));
const signals: (AbortSignal | undefined)[] = [];
const runner = {
  async test(source: string, text: string, limits?: RegexLimits) {
    signals.push(limits?.signal);
    if (signals.length === 1) {
      began();
      await released;
    }
    return real.test(source, text, limits);
  },
  close: () => real.close(),
};

let core: TestCore;
beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { adminToken: TOKEN, checks: { regex: () => runner } });
  const tests = Array.from({ length: 3 }, (_, i) => ({ name: `t${i}`, arguments: {}, expect: [{ matches: '^(a|a)*$' }] }));
  await core.prompts.create({ name: 'p', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'aaaa' } }], tests }, { name: 'test' });
});
afterAll(async () => {
  await core.close();
  await real.close();
});

describe('POST …/check when the client goes away', () => {
  it('the patterns not yet run are not run: each is "not judged", cancelled', async () => {
    const { app } = makeClient(core);
    const client = new AbortController();
    const answer = app.request('/admin/v1/prompts/p/versions/1/check', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, signal: client.signal });
    await started;
    client.abort();
    release();
    const res = await answer;
    expect(res.status).toBe(200);
    const report = (await res.json()) as { tests: { expectations: { passed: boolean; message: string | null }[] }[] };
    expect(report.tests.flatMap((t) => t.expectations)).toEqual(Array.from({ length: 3 }, () => expect.objectContaining({ passed: false, message: CANCELLED })));
    expect(signals.every((s) => s?.aborted)).toBe(true);
  });
});
