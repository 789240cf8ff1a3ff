// GET /admin/v1/audit and /audit.csv: the change log plus token use, filtered by
// actor, entity and time; the CSV holds the same rows as the JSON pages, quoted per
// RFC 4180 and safe from formula injection. The core runs on an injected clock so
// that token use can move to the next hour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/create-db.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { makeClient, textPrompt, TOKEN } from '../helpers/http.js';
import { csvCell } from '../../src/rest/audit/csv.js';

// Far from the wall clock: writes other than token use are stamped with the real time.
let t = Date.parse('2030-01-01T12:10:00Z');
let core: TestCore;
let client: ReturnType<typeof makeClient>;
let editor: { id: number; token: string };
let formula: { id: number; token: string };

type Item = { id: number; at: string; actor: string; action: string; entity: string; entityKey: string; details: Record<string, unknown> | null };

const as = (token: string, method: string, path: string, body?: unknown) =>
  client.app.request(path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

beforeAll(async () => {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  core = await coreOn(url, { adminToken: TOKEN, now: () => new Date(t), poolMax: 4 });
  client = makeClient(core);
  editor = await (await client.call('POST', '/tokens', { name: 'editor' })).json();
  // A name a spreadsheet would run as a formula, with a quote and a comma.
  formula = await (await client.call('POST', '/tokens', { name: '=HYPERLINK("http://x",1), "b"' })).json();
  await client.call('POST', '/prompts', { ...textPrompt('greet'), activate: true });
  expect((await as(editor.token, 'POST', '/admin/v1/prompts', textPrompt('edited'))).status).toBe(201);
  expect((await as(editor.token, 'GET', '/admin/v1/prompts')).status).toBe(200);
  expect((await as(editor.token, 'GET', '/admin/v1/prompts/greet')).status).toBe(200);
  expect((await as(editor.token, 'GET', '/v1/prompts/greet')).status).toBe(200);
  expect((await as(formula.token, 'GET', '/admin/v1/prompts')).status).toBe(200);
  await core.tokenUse.idle();
}, 60_000);
afterAll(() => core.close());

const page = async (query: string) => {
  const res = await client.call('GET', `/audit${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { items: Item[]; nextCursor: string | null };
};
/** Every page of a query, through the cursors. */
async function all(query: string): Promise<Item[]> {
  const out: Item[] = [];
  let cursor: string | null = null;
  do {
    const p = await page(`${query}${query ? '&' : '?'}limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    out.push(...p.items);
    cursor = p.nextCursor;
  } while (cursor);
  return out;
}

/** RFC 4180, strictly: quoted fields double their quotes, rows end with CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error('unterminated quote');
        cell += text.slice(i, q);
        if (text[q + 1] === '"') {
          cell += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    } else {
      const end = text.slice(i).search(/[,\r]/);
      cell = end < 0 ? text.slice(i) : text.slice(i, i + end);
      i = end < 0 ? text.length : i + end;
    }
    row.push(cell);
    if (text[i] === ',') i++;
    else if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else if (i < text.length) throw new Error(`unexpected ${JSON.stringify(text[i])} at ${i}`);
  }
  if (row.length) throw new Error('last row not ended by CRLF');
  return rows;
}

describe('GET /admin/v1/audit', () => {
  it('records token use once per token, face and hour, and again the next hour', async () => {
    const used = await all(`?action=token.used&entity=token&key=${editor.id}`);
    expect(used.map((e) => e.details?.face).sort()).toEqual(['admin', 'read']);
    expect(used[0]).toMatchObject({ actor: `token:editor#${editor.id}`, entity: 'token', entityKey: String(editor.id), details: { name: 'editor', tokenId: editor.id, hour: '2030-01-01T12:00:00.000Z' } });
    expect(await core.db.prisma.apiToken.findUnique({ where: { id: editor.id } })).toMatchObject({ lastUsedAt: new Date(t) });
    // The configured admin token is audited too.
    expect((await all('?action=token.used&actor=admin')).map((e) => e.entityKey)).toContain('PROMPTD_ADMIN_TOKEN');
    t += 3_600_000;
    await as(editor.token, 'GET', '/admin/v1/prompts');
    await as(editor.token, 'GET', '/admin/v1/prompts');
    await core.tokenUse.idle();
    const later = await all(`?action=token.used&key=${editor.id}&from=2030-01-01T13:00:00Z`);
    expect(later).toHaveLength(1);
    expect(later[0]!.details).toMatchObject({ face: 'admin', hour: '2030-01-01T13:00:00.000Z' });
  });

  it('filters by actor: what one token changed and used', async () => {
    const mine = await all(`?actor=${encodeURIComponent(`token:editor#${editor.id}`)}`);
    // token.used is written in the background, so its place among the writes varies.
    expect(mine.map((e) => e.action).sort()).toEqual(['prompt.created', 'token.used', 'token.used', 'token.used']);
    expect(new Set(mine.map((e) => e.actor))).toEqual(new Set([`token:editor#${editor.id}`]));
    expect(mine.filter((e) => e.action === 'prompt.created').map((e) => e.entityKey)).toEqual(['edited']);
  });

  it('filters by entity and by time range (from inclusive, to exclusive)', async () => {
    // This hour's first admin request notes the admin token's use, in the background: let it land first.
    await page('?limit=1');
    await core.tokenUse.idle();
    const prompts = await all('?entity=prompt');
    expect(prompts.length).toBeGreaterThan(0);
    expect(new Set(prompts.map((e) => e.entity))).toEqual(new Set(['prompt']));
    const everything = await all('');
    const hourOne = await all('?from=2030-01-01T12:00:00Z&to=2030-01-01T13:00:00Z');
    const hourTwo = await all('?from=2030-01-01T13:00:00Z');
    expect(hourTwo.map((e) => [e.action, e.actor]).sort()).toEqual([['token.used', 'admin'], ['token.used', `token:editor#${editor.id}`]]);
    // Every event is in exactly one of "before 13:00" and "from 13:00"; the first hour holds the first hour's token use.
    const before = await all('?to=2030-01-01T13:00:00Z');
    expect(before.length + hourTwo.length).toBe(everything.length);
    expect(hourOne.map((e) => e.action).every((a) => a === 'token.used')).toBe(true);
    expect(hourOne.length).toBe(everything.filter((e) => e.action === 'token.used').length - 2);
    expect(hourOne.every((e) => e.at >= '2030-01-01T12:00:00' && e.at < '2030-01-01T13:00:00')).toBe(true);
    const bad = await client.app.request('/admin/v1/audit?from=yesterday', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(bad.status).toBe(400);
  });

  it('audit.csv holds the same rows as the JSON pages, quoted and formula-safe', async () => {
    const json = await all('');
    const res = await client.app.request('/admin/v1/audit.csv', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual(['id', 'at', 'actor', 'action', 'entity', 'entityKey', 'details']);
    expect(rows.slice(1)).toEqual(json.map((e) => [String(e.id), e.at, e.actor, e.action, e.entity, e.entityKey, e.details === null ? '' : JSON.stringify(e.details)].map((v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v))));
    // The formula-named token's actor is shown as text, never run.
    const actorCells = rows.slice(1).map((r) => r[2]!);
    expect(actorCells).toContain(`token:=HYPERLINK("http://x",1), "b"#${formula.id}`);
    const created = rows.find((r) => r[3] === 'token.created' && r[5] === String(formula.id))!;
    expect(created[6]).toContain('"name":"=HYPERLINK');
    // The same query as JSON: filters and limit.
    const filtered = await client.app.request(`/admin/v1/audit.csv?action=token.used&key=${editor.id}&limit=1`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const frows = parseCsv(await filtered.text());
    expect(frows.slice(1).map((r) => r[0])).toEqual([String((await page(`?action=token.used&key=${editor.id}&limit=1`)).items[0]!.id)]);
    expect((await client.app.request('/admin/v1/audit.csv?action=nope', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(400);
  });

  it('csvCell quotes per RFC 4180 and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('=A1,"x"')).toBe(`"'=A1,""x"""`);
    expect(csvCell(null)).toBe('');
    expect(csvCell(7)).toBe('7');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });

  it('webhooks never fire for audit-only events', async () => {
    const { subscribes } = await import('../../src/core/webhooks/events.js');
    expect(subscribes(['*'], 'token.used')).toBe(false);
    expect(subscribes(['token.*'], 'token.used')).toBe(false);
    expect(subscribes(['*'], 'settings.updated')).toBe(false);
    expect(subscribes(['token.*'], 'token.updated')).toBe(true);
  });
});
