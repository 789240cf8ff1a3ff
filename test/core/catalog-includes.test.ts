// The catalog's reverse include index: which served prompts a change reaches, through
// pins, the production fallback and transitive includes.
import { describe, expect, it } from 'vitest';
import { dependentsIn, IncludeIndex, includeRefsOf, refsOfDoc } from '../../src/core/catalog-includes.js';
import type { Message, Version } from '../../src/core/types.js';

const t = (text: string): Message => ({ role: 'user', content: { type: 'text', text } });

describe('include index', () => {
  it('finds includes in templates and include messages; skips documents without any unparsed', () => {
    expect(includeRefsOf([t('{{> a}} {{> b@staging}} {{> c@3}}'), { role: 'user', content: { type: 'include', prompt: 'd', label: 'beta' } }])).toEqual([
      { prompt: 'a' }, { prompt: 'b', label: 'staging' }, { prompt: 'c', version: 3 }, { prompt: 'd', label: 'beta' },
    ]);
    let decoded = 0;
    const decode = (): Version => {
      decoded++;
      return { messages: [t('{{> a}}')] } as unknown as Version;
    };
    expect(refsOfDoc('[1,"plain {{x}}"]', decode)).toBeUndefined();
    expect(decoded).toBe(0);
    expect(refsOfDoc('[1,"{{> a}}"]', decode)).toEqual([{ prompt: 'a' }]);
    expect(decoded).toBe(1);
  });

  it('reaches includers transitively, honours pins and the production fallback, and forgets released versions', () => {
    const index = new IncludeIndex();
    // version id → prompt name
    const names = new Map([[1, 'mid'], [2, 'top'], [3, 'pinned'], [4, 'staged'], [5, 'other']]);
    index.add(1, [{ prompt: 'leaf' }]);
    index.add(2, [{ prompt: 'mid' }]);
    index.add(3, [{ prompt: 'leaf', version: 2 }]);
    index.add(4, [{ prompt: 'leaf', label: 'staging' }]);
    const production = { label: 'production', byName: new Map([['leaf', 9], ['mid', 1], ['top', 2], ['pinned', 3], ['staged', 4], ['other', 5]]) };
    const nameOf = (id: number) => names.get(id);

    expect([...dependentsIn(production, [{ name: 'leaf', scope: ['production'] }], index, nameOf)].sort()).toEqual(['mid', 'top']);
    expect([...dependentsIn(production, [{ name: 'leaf', scope: ['staging'] }], index, nameOf)]).toEqual(['staged']);
    expect([...dependentsIn(production, [{ name: 'leaf', scope: 'all' }], index, nameOf)].sort()).toEqual(['mid', 'pinned', 'staged', 'top']);
    expect([...dependentsIn(production, [{ name: 'other', scope: ['production'] }], index, nameOf)]).toEqual([]);

    // A staging view serving mid: leaf's production change reaches it only when leaf is not in the view itself.
    const staging = { label: 'staging', byName: new Map([['mid', 1]]) };
    expect([...dependentsIn(staging, [{ name: 'leaf', scope: ['production'] }], index, nameOf)]).toEqual(['mid']);
    const stagingWithLeaf = { label: 'staging', byName: new Map([['mid', 1], ['leaf', 7]]) };
    expect([...dependentsIn(stagingWithLeaf, [{ name: 'leaf', scope: ['production'] }], index, nameOf)]).toEqual([]);
    // A view pointing at another version of mid is not reached through version 1.
    expect([...dependentsIn({ label: 'production', byName: new Map([['mid', 8]]) }, [{ name: 'leaf', scope: ['production'] }], index, nameOf)]).toEqual([]);

    index.remove(1, [{ prompt: 'leaf' }]);
    expect([...dependentsIn(production, [{ name: 'leaf', scope: ['production'] }], index, nameOf)]).toEqual([]);
  });
});
