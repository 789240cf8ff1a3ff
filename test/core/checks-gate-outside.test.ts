// Issue #36.6: the check gate of a protected label (PUT label, promote, activate, a
// version written with activate, an import with --activate) runs before the write transaction, so a check in progress (here a pattern held until the
// test lets it go) blocks no other write; the move is written only if what the checks read is unchanged, else the
// checks run again, and a state that keeps changing ends in a 409. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { DomainError, type VersionInput } from '../../src/core/index.js';
import { createRegexRunner, type RegexRunner } from '../../src/core/checks/regex-runner.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { importLibrary } from '../../src/library/apply.js';
import { tempDir, writeFiles } from '../library/helpers.js';

const actor = { name: 'test' };
const v = (text: string, matches?: string): VersionInput => ({
  arguments: [], messages: [{ role: 'user', content: { type: 'text', text } }], tests: matches ? [{ name: 'shape', arguments: {}, expect: [{ matches }] }] : [],
});

/** A runner whose next pattern waits for `release()`; `started` resolves when it is asked. */
function heldRunner(real: RegexRunner) {
  let hold: { started: () => void; released: Promise<void> } | undefined;
  let onCall: (() => Promise<void>) | undefined;
  const runner = {
    calls: 0,
    /** Holds the next call; resolves `started` when it begins. */
    holdNext() {
      let release!: () => void;
      let started!: () => void;
      const began = new Promise<void>((r) => (started = r));
      hold = { started, released: new Promise<void>((r) => (release = r)) };
      return { began, release };
    },
    /** Runs before every call's answer (a concurrent write, say). */
    each(fn: (() => Promise<void>) | undefined) {
      onCall = fn;
    },
    async test(source: string, text: string, limits?: Parameters<RegexRunner['test']>[2]) {
      runner.calls++;
      const h = hold;
      hold = undefined;
      if (h) {
        h.started();
        await h.released;
      }
      await onCall?.();
      return real.test(source, text, limits);
    },
    close: () => real.close(),
  };
  return runner;
}

let core: TestCore;
const real = createRegexRunner();
const runner = heldRunner(real);
beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { checks: { regex: () => runner } });
  // p@2 includes inc: what inc's production serves is something p@2's checks read.
  await core.prompts.create({ name: 'inc', ...v('i1'), activate: true }, actor);
  await core.prompts.createVersion('inc', v('i2'), actor);
  await core.prompts.create({ name: 'p', ...v('one'), activate: true }, actor);
  await core.prompts.createVersion('p', v('two {{> inc}}', '^two i[12]$'), actor);
});
afterAll(async () => {
  await core.close();
  await real.close();
});

describe('the gate runs outside the write transaction', () => {
  it('a write made while a check runs is not blocked by it; the move then re-checks what changed and lands', async () => {
    const { began, release } = runner.holdNext();
    runner.calls = 0;
    let moved = false;
    const move = core.labels.set('p', 'production', 2, actor).then((r) => ((moved = true), r));
    await began;
    // The check holds its pattern: an unrelated write and a write to the same prompt both commit.
    await core.prompts.create({ name: 'unrelated', ...v('x') }, actor);
    await core.labels.set('p', 'staging', 1, actor);
    await core.labels.set('inc', 'production', 2, actor);
    expect(moved).toBe(false);
    expect(runner.calls).toBe(1);
    release();
    const r = await move;
    // inc's production moved while the checks ran: they saw a state that is gone, so they
    // ran again (p's own staging pointer is nothing they read).
    expect(runner.calls).toBe(2);
    expect(r.version).toBe(2);
    expect((await core.labels.list('p')).items).toEqual([{ label: 'production', version: 2 }, { label: 'staging', version: 1 }]);
  });

  it('a write that changes nothing the checks read does not make them run again', async () => {
    await core.labels.set('p', 'production', 1, actor);
    const other = core.labels.set('p', 'staging', 2, actor);
    const { began, release } = runner.holdNext();
    runner.calls = 0;
    const move = core.labels.set('p', 'production', 2, actor);
    await began;
    await core.prompts.create({ name: 'unrelated-2', ...v('x') }, actor);
    await other;
    release();
    expect((await move).version).toBe(2);
    expect(runner.calls).toBe(1);
  });

  it('a state that changes every time the checks run is a 409 after three attempts, nothing moved', async () => {
    await core.labels.set('p', 'production', 1, actor);
    let flip = 0;
    runner.each(async () => {
      await core.labels.set('inc', 'production', (flip++ % 2) + 1, actor);
    });
    runner.calls = 0;
    try {
      const e = await core.labels.set('p', 'production', 2, actor).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).code).toBe('conflict');
      expect((e as DomainError).message).toMatch(/changed 3 times while they ran/);
      expect(runner.calls).toBe(3);
    } finally {
      runner.each(undefined);
    }
    expect((await core.prompts.get('p')).activeVersion).toBe(1);
  });

  it('activating a version (the production alias) runs its checks outside the transaction too', async () => {
    await core.labels.set('p', 'production', 1, actor);
    const { began, release } = runner.holdNext();
    runner.calls = 0;
    let done = false;
    const activation = core.prompts.activate('p', 2, actor).then((r) => ((done = true), r));
    await began;
    await core.prompts.create({ name: 'unrelated-3', ...v('x') }, actor);
    expect(done).toBe(false);
    release();
    expect((await activation).activeVersion).toBe(2);
    expect(runner.calls).toBe(1);
  });

  it('a failing check still refuses the move (409 naming the test case)', async () => {
    await core.prompts.createVersion('p', v('three', '^two$'), actor);
    const e = await core.labels.set('p', 'production', 3, actor).then(() => undefined, (x: unknown) => x);
    expect((e as DomainError).code).toBe('conflict');
    expect((e as DomainError).errors).toEqual([{ path: 'p@3.tests[0]', message: expect.stringMatching(/does not match/) }]);
    const a = await core.prompts.activate('p', 3, actor).then(() => undefined, (x: unknown) => x);
    expect((a as DomainError).errors).toEqual([{ path: 'p@3.tests[0]', message: expect.stringMatching(/does not match/) }]);
    // Forced by an admin: moved, the failure recorded in the event (as inside the transaction before).
    expect((await core.prompts.activate('p', 3, actor, { force: true })).activeVersion).toBe(3);
  });

  it('a new version written with activate runs its checks (on the version to be) outside the transaction', async () => {
    await core.labels.set('p', 'production', 1, actor);
    const before = (await core.prompts.get('p')).latestVersion;
    const { began, release } = runner.holdNext();
    runner.calls = 0;
    let done = false;
    const write = core.prompts.createVersion('p', { ...v('four', '^four$'), activate: true }, actor).then((r) => ((done = true), r));
    await began;
    // Nothing of the write is stored yet, and other writes commit meanwhile.
    expect((await core.prompts.get('p')).latestVersion).toBe(before);
    await core.prompts.create({ name: 'unrelated-4', ...v('x') }, actor);
    expect(done).toBe(false);
    release();
    expect((await write).created.version).toBe(before + 1);
    expect((await core.prompts.get('p')).activeVersion).toBe(before + 1);
    expect(runner.calls).toBe(1);
  });

  it('a new prompt created with activate likewise; a write to what the checks read makes them run again', async () => {
    const { began, release } = runner.holdNext();
    runner.calls = 0;
    let done = false;
    const write = core.prompts.create({ name: 'fresh', ...v('fresh', '^fresh$'), activate: true }, actor).then((r) => ((done = true), r));
    await began;
    await core.prompts.create({ name: 'unrelated-5', ...v('x') }, actor);
    expect(done).toBe(false);
    release();
    expect((await write).activeVersion).toBe(1);
    expect(runner.calls).toBe(1);

    // p's head changes while its new version is checked: the checks ran on a state that is gone.
    const held = runner.holdNext();
    runner.calls = 0;
    const next = core.prompts.createVersion('p', { ...v('five', '^five$'), activate: true }, actor);
    await held.began;
    await core.labels.set('p', 'staging', 1, actor);
    held.release();
    const r = await next;
    expect(runner.calls).toBe(2);
    expect((await core.prompts.get('p')).activeVersion).toBe(r.created.version);
  });

  it('a new version whose check fails is refused with nothing written, unless forced', async () => {
    const before = (await core.prompts.get('p')).latestVersion;
    const e = await core.prompts.createVersion('p', { ...v('six', '^seven$'), activate: true }, actor).then(() => undefined, (x: unknown) => x);
    expect((e as DomainError).code).toBe('conflict');
    expect((e as DomainError).errors).toEqual([{ path: `p@${before + 1}.tests[0]`, message: expect.stringMatching(/does not match/) }]);
    expect((await core.prompts.get('p')).latestVersion).toBe(before);
    const c = await core.prompts.create({ name: 'fails', ...v('a', '^b$'), activate: true }, actor).then(() => undefined, (x: unknown) => x);
    expect((c as DomainError).code).toBe('conflict');
    await expect(core.prompts.get('fails')).rejects.toMatchObject({ code: 'not_found' });
    // An invalid version is still a 422 before any check runs.
    runner.calls = 0;
    const bad = await core.prompts.createVersion('p', { ...v('x', '(a+)+$'), arguments: [{ name: 'a', required: false }, { name: 'a', required: false }], activate: true }, actor).then(() => undefined, (x: unknown) => x);
    expect((bad as DomainError).code).toBe('validation');
    expect(runner.calls).toBe(0);
    const forced = await core.prompts.createVersion('p', { ...v('six', '^seven$'), activate: true, force: true }, actor);
    expect(forced.created.version).toBe(before + 1);
    expect((await core.prompts.get('p')).activeVersion).toBe(before + 1);
  });

  it('an import with --activate runs its checks outside the transaction too', async () => {
    const dir = writeFiles(tempDir('pd-gate-'), {
      'prompts/imported.yaml': `name: imported
messages:
  - role: user
    text: imported text
tests:
  - name: shape
    expect:
      - matches: "^imported text$"
`,
    });
    const { began, release } = runner.holdNext();
    runner.calls = 0;
    let done = false;
    const run = importLibrary(core, dir, { activate: true }).then((r) => ((done = true), r));
    await began;
    await core.prompts.create({ name: 'unrelated-6', ...v('x') }, actor);
    expect(done).toBe(false);
    release();
    expect((await run).counts).toMatchObject({ created: 1, activated: 1 });
    expect((await core.prompts.get('imported')).activeVersion).toBe(1);
    expect(runner.calls).toBe(1);
  });

  it('an import whose check fails leaves exactly that prompt unwritten', async () => {
    const out = await core.bulk.apply([
      { name: 'bulk-ok', mode: 'create', expectLatest: 0, versions: [v('ok', '^ok$')], activate: 1 },
      { name: 'bulk-bad', mode: 'create', expectLatest: 0, versions: [v('bad', '^good$')], activate: 1 },
    ], actor);
    expect(out.map((o) => o.ok)).toEqual([true, false]);
    expect(((out[1] as { error: DomainError }).error).code).toBe('conflict');
    expect((await core.prompts.get('bulk-ok')).activeVersion).toBe(1);
    await expect(core.prompts.get('bulk-bad')).rejects.toMatchObject({ code: 'not_found' });
  });
});
