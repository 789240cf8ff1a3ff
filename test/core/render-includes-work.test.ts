// Issue #36.4: the work of one rendering's includes is counted and bounded. 8 levels
// of 6 includes (49 prompts) inside a false section rendered 6^8 includes before; now
// the graph is resolved once per prompt version, includes in sections that are not
// shown are not rendered, shown ones once per prompt version and values, and a graph
// past the budget is refused. Assertions are on counted work, never on time.
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/core/errors.js';
import { renderVersion } from '../../src/core/render.js';
import { INCLUDE_BUDGET, newIncludeWork, type IncludeContext, type IncludeTarget } from '../../src/core/render-includes.js';
import type { Message, Version } from '../../src/core/types.js';

const version = (messages: Message[], args: string[] = []): Version => ({
  version: 1, title: null, description: null, icons: null, note: null, author: null, createdAt: new Date(0), tests: [],
  arguments: args.map((name) => ({ name, title: null, description: null, required: false, choices: null, maxLength: null, type: 'string', default: null })),
  messages,
});
const text = (t: string): Message => ({ role: 'user', content: { type: 'text', text: t } });

/** `levels` levels of `width` prompts, each including every prompt of the next level inside {{#z}}…{{/z}}. */
function layered(levels: number, width: number, wrap = (inner: string) => `{{#z}}${inner}{{/z}}`) {
  const prompts = new Map<string, Version>();
  const level = (k: number) => Array.from({ length: width }, (_, j) => `l${k}-${j}`);
  for (let k = 1; k <= levels; k++) {
    for (const name of level(k)) prompts.set(name, version([text(k === levels ? 'x' : wrap(level(k + 1).map((n) => `{{> ${n}}}`).join('')))]));
  }
  const root = version([text(`Hello.${wrap(level(1).map((n) => `{{> ${n}}}`).join(''))}`)], ['z']);
  return { prompts, root };
}

function context(prompts: Map<string, Version>) {
  const counts = { resolves: 0 };
  const work = newIncludeWork();
  const ctx: IncludeContext = {
    label: 'latest',
    work,
    async resolve(ref): Promise<IncludeTarget | null> {
      counts.resolves++;
      const v = prompts.get(ref.prompt);
      return v ? { name: ref.prompt, version: v } : null;
    },
  };
  return { ctx, work, counts };
}
const none = { resolve: async () => null };

describe('the work of one rendering', () => {
  it('8 levels of 6 in false sections: 48 resolves, no include rendered, the output as written', async () => {
    const { prompts, root } = layered(8, 6);
    const { ctx, work, counts } = context(prompts);
    const r = await renderVersion('root', root, {}, none, ctx);
    expect(r.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello.' } }]);
    expect(counts.resolves).toBe(48);
    expect(work.reached.size).toBe(48);
    expect(work.renders).toBe(0);
  });

  it('the same sections shown: each prompt rendered once (48), the output complete (6^8 leaves)', async () => {
    const { prompts, root } = layered(8, 6);
    const { ctx, work, counts } = context(prompts);
    const r = await renderVersion('root', root, { z: 'yes' }, none, ctx);
    const out = (r.messages[0]!.content as { text: string }).text;
    expect(out).toBe(`Hello.${'x'.repeat(6 ** 8)}`);
    expect(counts.resolves).toBe(48);
    expect(work.renders).toBe(48);
  });

  it('width 10 (~10^8 renders before): 80 resolves; shown, it stops at the size limit after a bounded count', async () => {
    const { prompts, root } = layered(8, 10);
    const hidden = context(prompts);
    await renderVersion('root', root, {}, none, hidden.ctx);
    expect([hidden.counts.resolves, hidden.work.renders]).toEqual([80, 0]);
    const shown = context(prompts);
    const e = await renderVersion('root', root, { z: 'yes' }, none, shown.ctx).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).message).toMatch(/its includes render more than 16777216 characters in all/);
    expect(shown.work.renders).toBeLessThanOrEqual(80);
  });

  it('include messages are rendered once per prompt version and arguments', async () => {
    const prompts = new Map<string, Version>([['leaf', version([text('[{{v}}]')], ['v'])]]);
    const inc = (v: string): Message => ({ role: 'user', content: { type: 'include', prompt: 'leaf', arguments: { v } } });
    prompts.set('mid', version([inc('a'), inc('a'), inc('b')]));
    const root = version([{ role: 'user', content: { type: 'include', prompt: 'mid' } }, { role: 'user', content: { type: 'include', prompt: 'mid' } }]);
    const { ctx, work } = context(prompts);
    const r = await renderVersion('root', root, {}, none, ctx);
    expect(r.messages.map((m) => (m.content as { text: string }).text)).toEqual(['[a]', '[a]', '[b]', '[a]', '[a]', '[b]']);
    // mid once, leaf with a once and with b once.
    expect(work.renders).toBe(3);
  });

  it(`a graph reaching more than ${INCLUDE_BUDGET.prompts} prompt versions is refused (409 naming where)`, async () => {
    const { prompts, root } = layered(8, 13);
    const { ctx, work } = context(prompts);
    const e = await renderVersion('root', root, {}, none, ctx).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe('conflict');
    expect((e as DomainError).message).toMatch(/its includes reach more than 100 prompt versions \(at root → l1-9\)/);
    expect(work.reached.size).toBe(INCLUDE_BUDGET.prompts + 1);
    expect(work.renders).toBe(0);
  });

  it('cycles and depth are still found through shared (memoised) prompts', async () => {
    const prompts = new Map<string, Version>([
      ['a', version([text('{{> b}}{{> c}}')])],
      ['b', version([text('{{> c}}')])],
      ['c', version([text('{{#z}}{{> a}}{{/z}}')])],
    ]);
    const { ctx } = context(prompts);
    const e = await renderVersion('root', version([text('{{> a}}')]), {}, none, ctx).then(() => undefined, (x: unknown) => x);
    expect((e as DomainError).message).toMatch(/include cycle root → a → b → c → a/);
    // A chain of 9 below a shared prompt: too deep whichever way it is reached.
    const deep = new Map<string, Version>();
    for (let i = 0; i < 9; i++) deep.set(`d${i}`, version([text(i === 8 ? 'end' : `{{> d${i + 1}}}`)]));
    deep.set('side', version([text('{{> d1}}')]));
    const second = context(deep);
    const d = await renderVersion('root', version([text('{{> d1}}{{> side}}')]), {}, none, second.ctx).then(() => undefined, (x: unknown) => x);
    expect((d as DomainError).message).toMatch(/includes nest deeper than 8 levels \(root → side → d1 → d2 → d3 → d4 → d5 → d6 → d7 → d8\)/);
  });
});
