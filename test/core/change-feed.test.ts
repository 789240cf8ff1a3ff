import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Core } from '../../src/core/index.js';
import type { ChangeEvent } from '../../src/core/types.js';
import { actor, makeCore, tempDbUrl, TEST_DB } from '../helpers/db.js';
import { waitFor } from '../helpers/spawn.js';

// Two cores on one database stand for two processes/instances: each has its own
// connection, so B learns of A's writes only through the database.
let url: string;
let a: Core;
let b: Core;
const seenByB: ChangeEvent[] = [];

beforeAll(async () => {
  url = await tempDbUrl();
  a = await makeCore({ url });
  b = await makeCore({ url });
  await b.catalog.ready();
  b.feed.subscribe((events) => void seenByB.push(...events));
});
afterAll(async () => {
  await a.close();
  await b.close();
});

const prompt = (name: string, text: string) => ({ name, arguments: [], messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }], activate: true });

describe(`change feed across connections (${TEST_DB})`, () => {
  it("a write through A reaches B's feed and B's served catalog", async () => {
    await a.prompts.create(prompt('cross', 'from A'), actor);
    await waitFor(() => b.catalog.find('cross'), 5_000, 'B to serve the prompt');
    expect((await b.catalog.render('cross', {})).messages[0]!.content).toEqual({ type: 'text', text: 'from A' });
    expect(seenByB.map((e) => e.action)).toContain('prompt.activated');
    await a.prompts.createVersion('cross', { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'v2' } }], activate: true }, actor);
    await waitFor(async () => (await b.catalog.render('cross', {})).messages[0]!.content.type === 'text' && JSON.stringify(await b.catalog.render('cross', {})).includes('v2'), 5_000, 'B to serve v2');
  });

  it('events are delivered once each, in order', async () => {
    const before = seenByB.length;
    for (let i = 0; i < 20; i++) await a.prompts.create(prompt(`burst-${i}`, 'x'), actor);
    await waitFor(() => seenByB.length - before >= 40 || undefined, 5_000, '40 events');
    const ids = seenByB.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
  });

  it.runIf(TEST_DB === 'postgres')('after its LISTEN connection is killed, B reconnects and catches up from the change log', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const { rowCount } = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query ILIKE 'LISTEN promptd_changes%' AND datname = current_database() AND pid <> pg_backend_pid()`);
    expect(rowCount).toBeGreaterThanOrEqual(2);
    await admin.end();
    await a.prompts.create(prompt('while-down', 'missed?'), actor);
    await waitFor(() => b.catalog.find('while-down'), 10_000, 'B to catch up after reconnect');
    expect(seenByB.filter((e) => e.entityKey === 'while-down' && e.action === 'prompt.created')).toHaveLength(1);
  });
});
