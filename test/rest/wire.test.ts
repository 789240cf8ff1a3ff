// wire() walks a value instead of JSON.stringify + JSON.parse; its answer must be the
// round trip's, value for value, including the edges JSON has opinions on.
import { describe, expect, it } from 'vitest';
import { wire } from '../../src/rest/wire.js';

const replacer = (_k: string, v: { data?: unknown; type?: unknown } | null) =>
  v instanceof Uint8Array || (v && v.type === 'Buffer') ? Buffer.from((v as { data?: Uint8Array }).data ?? (v as Uint8Array)).toString('base64') : v;
const roundTrip = (v: unknown) => JSON.parse(JSON.stringify(v, replacer) as string);

class Point {
  constructor(public x: number, public y?: number) {}
  get sum() {
    return this.x + (this.y ?? 0);
  }
}

const cases: Record<string, unknown> = {
  'a version': {
    version: 3, title: null, description: 'd', icons: [{ src: 'https://x/i.png', sizes: ['48x48'] }], createdAt: new Date('2026-11-27T10:00:00.123Z'),
    arguments: [{ name: 'who', required: true, choices: undefined, default: 2.5 }],
    messages: [{ role: 'user', content: { type: 'image', data: Buffer.from('89504e47', 'hex'), mimeType: 'image/png' } }],
    tests: [], nested: { deeper: { list: [1, 'two', false, null] } },
  },
  'blobs': { buffer: Buffer.from('hello'), bytes: new Uint8Array([1, 2, 3]), view: new Uint8Array(Buffer.from('abcdef').buffer, 2, 3), shaped: { type: 'Buffer', data: [104, 105] } },
  'numbers': { nan: NaN, inf: Infinity, ninf: -Infinity, negZero: -0, big: 1e300, small: -5e-324, int: 42 },
  'left out': { u: undefined, f: () => 1, s: Symbol('s'), kept: 'yes' },
  'arrays with holes and undefined': [undefined, () => 1, Symbol('x'), , 1], // eslint-disable-line no-sparse-arrays
  'dates': [new Date(0), new Date('2026-01-01T00:00:00Z'), new Date(NaN)],
  'toJSON of its own': { when: { toJSON: (k: string) => `key ${k}` }, list: [{ toJSON: () => ({ nested: new Date(5) }) }] },
  'boxed primitives': { n: new Number(3), s: new String('s'), b: new Boolean(false) }, // eslint-disable-line no-new-wrappers
  'class instances, Map and Set': { p: new Point(1, 2), q: new Point(3), map: new Map([[1, 2]]), set: new Set([1]) },
  'a __proto__ key': JSON.parse('{"__proto__": {"x": 1}, "y": 2}'),
  'key order': { b: 1, a: 2, 10: 'ten', 2: 'two' },
  'top-level scalars': 'text',
  'null': null,
  'an empty object': {},
};

describe('wire', () => {
  for (const [name, value] of Object.entries(cases)) {
    it(`equals the JSON round trip: ${name}`, () => {
      const got = wire(value);
      const want = roundTrip(value);
      expect(got).toStrictEqual(want);
      expect(JSON.stringify(got)).toBe(JSON.stringify(want));
      // Own property names, __proto__ included.
      if (got && typeof got === 'object') expect(Reflect.ownKeys(got)).toEqual(Reflect.ownKeys(want));
    });
  }

  it('throws where the round trip throws', () => {
    expect(() => roundTrip(undefined)).toThrow();
    expect(() => wire(undefined)).toThrow();
    expect(() => roundTrip({ n: 1n })).toThrow();
    expect(() => wire({ n: 1n })).toThrow();
  });

  it('does not share objects with its input', () => {
    const input = { list: [{ a: 1 }], obj: { b: 2 } };
    const got = wire(input) as typeof input;
    expect(got.list).not.toBe(input.list);
    expect(got.list[0]).not.toBe(input.list[0]);
    expect(got.obj).not.toBe(input.obj);
  });
});
