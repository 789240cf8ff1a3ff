import { describe, expect, it } from 'vitest';
import { DocArena, type DocRef } from '../../src/core/catalog-docs.js';

const ref = (): DocRef => ({ at: 0, len: 0 });

describe('DocArena (served documents outside the heap)', () => {
  it('gives back every document as stored: ASCII, accented, wide, empty and large ones', () => {
    const a = new DocArena();
    const docs = ['[1,"plain"]', '["café", "naïve"]', '["日本語のプロンプト", "😀"]', '', 'x'.repeat(600_000), 'é'.repeat(300_000)];
    const refs = docs.map((d) => {
      const r = ref();
      a.put(d, r);
      return r;
    });
    refs.forEach((r, i) => expect(a.get(r)).toBe(docs[i]));
    // CJK text is smaller as UTF-16 than as UTF-8.
    expect(refs[2]!.len % 4).toBe(2);
    expect(refs[0]!.len % 4).toBe(0);
  });

  it('compacts when released documents leave more holes than live bytes', () => {
    const a = new DocArena();
    const live = new Map<number, { r: DocRef; d: string }>();
    for (let i = 0; i < 40_000; i++) {
      const d = `[${i},"${'v'.repeat(i % 500)}"]`;
      const r = ref();
      a.put(d, r);
      live.set(i, { r, d });
      // Release most of them, as a long run of edits would.
      if (i % 10 !== 0) {
        const old = live.get(i - 1);
        if (old && (i - 1) % 10 !== 0) {
          a.drop(old.r);
          live.delete(i - 1);
        }
      }
      if (a.wasteful()) a.compact([...live.values()].map((x) => x.r));
    }
    for (const { r, d } of live.values()) expect(a.get(r)).toBe(d);
    const s = a.stats();
    expect(s.heldBytes - s.liveBytes).toBeLessThanOrEqual(Math.max(4 << 20, s.liveBytes / 2) + s.heldBytes / 8 + (1 << 20));
  });
});

describe('NameIndex (a view’s names in order, ids beside them)', () => {
  it('agrees with a Map and a sorted list through splices and bulk changes', async () => {
    const { NameIndex, compareNames } = await import('../../src/core/catalog-names.js');
    const ix = new NameIndex();
    const ref = new Map<string, number>();
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let step = 0; step < 3_000; step++) {
      const bulk = step % 500 === 0;
      if (bulk) ix.open();
      for (let k = 0; k < (bulk ? 200 : 1); k++) {
        const name = `p-${rnd(400)}`;
        if (rnd(3) === 0) {
          ix.delete(name);
          ref.delete(name);
        } else {
          const id = rnd(1_000_000);
          ix.set(name, id);
          ref.set(name, id);
        }
      }
      if (bulk) ix.close();
      expect(ix.size).toBe(ref.size);
    }
    expect(ix.names).toEqual([...ref.keys()].sort(compareNames));
    for (const [n, id] of ref) expect(ix.get(n)).toBe(id);
    expect(ix.get('absent')).toBeUndefined();
  });
});

describe('EntryTable (version id → name, views pointing at it, document)', () => {
  it('agrees with a Map through adds, renames, releases, rehashes and compactions', async () => {
    const { EntryTable } = await import('../../src/core/catalog-entries.js');
    const t = new EntryTable();
    const ref = new Map<number, { name: string; refs: number; doc: string }>();
    let seed = 11;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let step = 0; step < 60_000; step++) {
      // Clustered ids (consecutive, like a database's) and scattered ones, both probed.
      const id = rnd(2) ? rnd(3_000) : 1_000_000 + rnd(5_000) * 4_099;
      const have = ref.get(id);
      const op = rnd(5);
      if (!have) {
        const doc = `[${id},"${'d'.repeat(rnd(2_000))}","é${step}"]`;
        t.add(id, `p-${id}`, doc);
        ref.set(id, { name: `p-${id}`, refs: 1, doc });
      } else if (op < 2) {
        const name = rnd(2) ? have.name : `r-${step}`;
        expect(t.retain(id, name)).toBe(name === have.name);
        have.name = name;
        have.refs++;
      } else {
        have.refs--;
        expect(t.release(id)).toBe(have.refs === 0);
        if (have.refs === 0) ref.delete(id);
      }
      if (step % 5_000 === 0 || step === 59_999) {
        expect(t.size).toBe(ref.size);
        for (const [k, v] of ref) {
          expect(t.nameOf(k)).toBe(v.name);
          expect(t.docOf(k)).toBe(v.doc);
        }
      }
    }
    expect(t.has(-5)).toBe(false);
    expect(t.docOf(-5)).toBeUndefined();
    expect(t.release(-5)).toBe(false);
    // Documents released are given back once the holes outweigh what is live.
    const s = t.stats();
    expect(s.heldBytes - s.liveBytes).toBeLessThanOrEqual(Math.max(4 << 20, s.liveBytes / 2) + s.heldBytes / 8 + (1 << 20));
  });
});
