// Includes over MCP (docs/contracts.md#includes), on SQLite and PostgreSQL: the SDK's
// real Client sees spliced content, never an include; argument values stay literal
// through includes; a change to an included prompt reaches the sessions serving its
// includers (as list_changed), on this core and on another core on the same database
// (what another process or instance looks like).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { migrateDatabase } from '../../src/db/create-db.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import { actor, connect, countListChanged, createPrompt, createVersion } from './helpers.js';

const text = (t: string) => ({ role: 'user', content: { type: 'text', text: t } });
const req = (name: string) => ({ name, required: true });
const texts = (r: { messages: { role: string; content: unknown }[] }) => r.messages.map((m) => [m.role, (m.content as { type: string; text?: string }).text ?? (m.content as { type: string }).type]);

describe('includes over MCP', () => {
  let a: TestCore;
  let b: TestCore;

  beforeAll(async () => {
    const url = await tempDbUrl();
    await migrateDatabase(url);
    a = await coreOn(url, { poolMax: 4 });
    b = await coreOn(url, { poolMax: 4 });
    await createPrompt(a, { name: 'house-style', arguments: [req('tone')], messages: [text('Be {{tone}}.')], activate: true });
    await createPrompt(a, { name: 'review', arguments: [req('tone'), req('code')], messages: [text('{{> house-style}}\nReview: {{code}}')], activate: true });
    await createPrompt(a, {
      name: 'bundle',
      arguments: [req('tone'), req('snippet')],
      messages: [text('Start'), { role: 'user', content: { type: 'include', prompt: 'review', arguments: { code: '<<{{snippet}}>>' } } }, { role: 'assistant', content: { type: 'text', text: 'End' } }],
      activate: true,
    });
    await createPrompt(a, { name: 'secret', messages: [text('TOP SECRET')], activate: true });
    await createPrompt(a, { name: 'unrelated', messages: [text('u1')], activate: true });
    // review is also served under staging (same version): its house-style falls back to production there.
    await a.labels.set('review', 'staging', 1, actor);
  }, 120_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a text include is rendered with the includer\'s arguments and inserted in place; values stay literal', async () => {
    const c = await connect(a);
    try {
      const r = await c.client.getPrompt({ name: 'review', arguments: { tone: 'terse {{> secret}}', code: '{{> secret}} {{tone}}' } });
      expect(texts(r)).toEqual([['user', 'Be terse {{> secret}}.\nReview: {{> secret}} {{tone}}']]);
    } finally {
      await c.close();
    }
  });

  it('an include message splices all the included prompt\'s rendered messages, with mapped arguments', async () => {
    const c = await connect(a);
    try {
      const r = await c.client.getPrompt({ name: 'bundle', arguments: { tone: 'kind', snippet: 'x = {{y}}' } });
      expect(texts(r)).toEqual([
        ['user', 'Start'],
        ['user', 'Be kind.\nReview: <<x = {{y}}>>'],
        ['assistant', 'End'],
      ]);
      expect(JSON.stringify(r)).not.toContain('include');
      // The includer's own required arguments are still checked: -32602 naming it.
      const err = await c.client.getPrompt({ name: 'bundle', arguments: { tone: 'kind' } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32602);
      expect((err as McpError).message).toContain('snippet');
    } finally {
      await c.close();
    }
  });

  it('a change to an included prompt notifies sessions of its includers on this core and on another one', async () => {
    // Staging sessions: house-style is not in the staging view, so only the include makes its change visible there.
    const here = await connect(a, { label: 'staging' });
    const there = await connect(b, { label: 'staging' });
    try {
      for (const s of [here, there]) {
        expect(texts(await s.client.getPrompt({ name: 'review', arguments: { tone: 't', code: 'c' } }))).toEqual([['user', 'Be t.\nReview: c']]);
      }
      const ch = countListChanged(here.client);
      const ct = countListChanged(there.client);

      // Control: a production change no staging prompt includes is not announced to staging sessions.
      await createVersion(a, 'unrelated', { messages: [text('u2')], activate: true });
      await a.feed.poke();
      await b.feed.poke();
      await here.client.ping();
      await there.client.ping();
      expect([ch.count(), ct.count()]).toEqual([0, 0]);

      await createVersion(a, 'house-style', { arguments: [req('tone')], messages: [text('Always be {{tone}}!')], activate: true });
      await ch.waitFor(1, 20_000);
      await ct.waitFor(1, 20_000);
      for (const s of [here, there]) {
        expect(texts(await s.client.getPrompt({ name: 'review', arguments: { tone: 't', code: 'c' } }))).toEqual([['user', 'Always be t!\nReview: c']]);
      }
    } finally {
      await here.close();
      await there.close();
    }
  });

  it('a production session on the other core renders the new included text through two levels of includes', async () => {
    const c = await connect(b);
    try {
      await c.client.listPrompts({});
      const seen: string[] = [];
      const counter = countListChanged(c.client);
      await createVersion(a, 'house-style', { arguments: [req('tone')], messages: [text('Be very {{tone}}.')], activate: true });
      await counter.waitFor(1, 20_000);
      const r = await c.client.getPrompt({ name: 'bundle', arguments: { tone: 'calm', snippet: 's' } });
      seen.push(...texts(r).map((x) => x[1]!));
      expect(seen).toEqual(['Start', 'Be very calm.\nReview: <<s>>', 'End']);
    } finally {
      await c.close();
    }
  });
});
