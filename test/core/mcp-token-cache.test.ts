// MCP client tokens are kept in memory once looked up (an MCP client presents its token on
// every request), and dropped on the change log's token events: at once on the instance
// that wrote them, on another instance once its change feed brings the event (two
// cores on one database; PostgreSQL with PROMPTD_TEST_DB=postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { openStore, type DbStore } from '../../src/db/store.js';
import { createTokenService } from '../../src/core/services/token-service.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';

type Tokens = DbStore['read']['tokens'];

/** A token service on `store` whose `byHash` reads are counted and may be held back. */
function countedService(store: DbStore, feed: TestCore['feed'], hold?: () => Promise<void>) {
  const reads = { n: 0 };
  const real = store.read.tokens;
  const tokens: Tokens = new Proxy(real, {
    get: (o, k) =>
      k === 'byHash'
        ? async (hash: string) => {
            reads.n++;
            const row = await o.byHash(hash);
            await hold?.();
            return row;
          }
        : Reflect.get(o, k),
  });
  const service = createTokenService({ store: { ...store, read: { ...store.read, tokens } }, feed });
  return { service, reads };
}

describe('MCP token cache', () => {
  let url: string;
  let a: TestCore;
  let b: TestCore;
  let storeA: DbStore;

  beforeAll(async () => {
    url = await tempDbUrl();
    await migrateDatabase(url);
    a = await coreOn(url);
    b = await coreOn(url);
    storeA = await openStore(url);
  }, 60_000);
  afterAll(async () => {
    await storeA?.close();
    await b?.close();
    await a?.close();
  });

  it('a token is read from the database once, then served from memory', async () => {
    const { token } = await a.tokens.create('kept', 'test', { kind: 'mcp', label: 'production' });
    await a.feed.poke();
    const { service, reads } = countedService(storeA, a.feed);
    for (let i = 0; i < 5; i++) expect(await service.authenticateMcp(token)).toMatchObject({ tokenName: 'kept', scope: { label: 'production' } });
    expect(reads.n).toBe(1);
    // Unknown tokens are not kept (a client guessing cannot fill the memory).
    for (let i = 0; i < 3; i++) expect(await service.authenticateMcp(`pdm_nope${i}`)).toBeNull();
    expect(reads.n).toBe(4);
  });

  it('a revocation on this instance takes effect at once', async () => {
    const { token, info } = await a.tokens.create('local-revoke', 'test', { kind: 'mcp' });
    expect(await a.tokens.authenticateMcp(token)).not.toBeNull();
    await a.tokens.revoke(info.id, 'test');
    expect(await a.tokens.authenticateMcp(token)).toBeNull();
  });

  it('a revocation or a rate change on another instance takes effect once the change feed brings it', async () => {
    const { token, info } = await a.tokens.create('remote', 'test', { kind: 'mcp' });
    expect(await a.tokens.authenticateMcp(token)).toMatchObject({ mcpRatePerMinute: null });
    await b.tokens.setRates(info.id, { mcpRatePerMinute: 42 }, 'test');
    await a.feed.poke();
    expect(await a.tokens.authenticateMcp(token)).toMatchObject({ mcpRatePerMinute: 42 });
    await b.tokens.revoke(info.id, 'test');
    await a.feed.poke();
    expect(await a.tokens.authenticateMcp(token)).toBeNull();
  });

  it('a lookup that raced a revocation answers once and is not kept', async () => {
    const { token, info } = await a.tokens.create('raced', 'test', { kind: 'mcp' });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let holding = true;
    const { service, reads } = countedService(storeA, a.feed, () => (holding ? gate : Promise.resolve()));
    const inFlight = service.authenticateMcp(token); // read the row, now held back
    await b.tokens.revoke(info.id, 'test');
    await a.feed.poke(); // the revocation reaches this instance while the lookup is in flight
    holding = false;
    release();
    expect(await inFlight).not.toBeNull(); // it was valid when read
    expect(await service.authenticateMcp(token)).toBeNull();
    expect(reads.n).toBe(2);
  });
});
