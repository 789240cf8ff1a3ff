// The library's YAML reader (src/library/library-yaml.ts) reads with js-yaml where it
// can and with `yaml` otherwise, and `yaml` is what a file means. So on every file
// js-yaml accepts, `yaml` must accept it too and give the same value: checked on
// generated documents (values rendered in many YAML styles, then mutated with the
// characters YAML is touchy about), on hand-picked corners, and on the repository's
// own seed library.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseLibraryYaml } from '../../src/library/library-yaml.js';
import { seedDir } from '../../src/library/seed.js';

const byYaml = (text: string) => {
  const doc = YAML.parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  return doc.errors.length ? { errors: doc.errors.map((e) => e.message) } : { value: doc.toJS() as unknown };
};
/** The value, where the reader took js-yaml's fast path. */
const byJsYaml = (text: string): { value: unknown } | undefined => {
  const doc = parseLibraryYaml(text);
  return doc.document ? undefined : { value: doc.toJS() };
};

/** Wherever js-yaml accepts, `yaml` accepts with the same value. */
function agree(text: string): void {
  const fast = byJsYaml(text);
  if (!fast) return;
  expect({ text, ...byYaml(text) }).toEqual({ text, value: fast.value });
}

// Scalars YAML 1.2's core schema reads as something else than their text, or that
// need quoting, or that only differ from each other in a corner of the spec.
const TRICKY = [
  'yes', 'no', 'on', 'off', 'y', 'n', 'true', 'True', 'TRUE', 'tRue', 'false', 'null', 'Null', 'NULL', '~', '',
  '0', '-0', '+1', '012', '0o17', '0O17', '0x1F', '0X1f', '0b101', '1_000', '1e3', '1E+3', '.5', '5.', '-.inf', '.Inf', '.NAN', '.nan',
  '12:30', '2024-01-01', '2024-01-01T10:00:00Z', '1.0', '9007199254740993', '1e400',
  '<<', '__proto__', 'constructor', 'toString', '=', '-', '--', '---', '...', '?', ':', '- x', 'a: b', 'a:b', 'a #b', 'a# b',
  '#x', '%x', '@x', '`x', '!x', '!!str x', '&a x', '*a', '|', '>', '[x]', '{x}', '"x', "'x", 'x"', "x'", 'a\\nb', '\t', ' lead', 'trail ',
  '{{name}}', '{{#a}}b{{/a}}', '{% for x in y %}', 'é', '☺', '\u00a0', '\u2028', '\ufeff',
  'line 1\nline 2', 'a\n\n\nb', 'trail\n', 'trail\n\n', '\n lead', ' \n', 'a \n b', '- a\n- b', 'k: v\n  w', '#\n#',
];
const scalar = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 8 }),
  fc.integer().map(String),
  fc.double({ noNaN: true }).map(String),
);
type Tree = string | Tree[] | { [k: string]: Tree };
const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(scalar, tie('node'), { maxKeys: 4 }),
  ),
})).node;

// How a scalar may be written: plain (even where that changes its meaning), quoted, or a block scalar.
const STYLES = ['PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'] as const;
const rendered = fc
  .record({
    value: tree,
    style: fc.constantFrom(...STYLES),
    flow: fc.boolean(),
    indent: fc.constantFrom(1, 2, 3, 4),
  })
  .map(({ value, style, flow, indent }) => {
    const doc = new YAML.Document(value);
    YAML.visit(doc, {
      Scalar(_, n) {
        n.type = style;
      },
      Map(_, n) {
        n.flow = flow;
      },
      Seq(_, n) {
        n.flow = flow;
      },
    });
    try {
      return doc.toString({ indent, lineWidth: 0 });
    } catch {
      return YAML.stringify(value);
    }
  });

// Edits in the places YAML is strict about.
const EDITS = [' ', '  ', '\t', '\n', '\r\n', ':', ': ', '-', '- ', '#', ' #', '"', "'", '\\', '[', ']', '{', '}', ',', '?', '|', '>', '!', '&', '*', '%', '@', '`', '---', '...', '\u00a0', '\r', '\u0085', '\u2028', '\ufeff'];
const mutated = fc
  .tuple(rendered, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...EDITS), fc.boolean()), { maxLength: 3 }))
  .map(([text, edits]) => {
    let t = text;
    for (const [at, s, remove] of edits) {
      const i = t.length ? at % t.length : 0;
      t = remove ? t.slice(0, i) + t.slice(i + 1) : t.slice(0, i) + s + t.slice(i);
    }
    return t;
  });

describe('library YAML: js-yaml reads only what `yaml` reads the same way', () => {
  it('agrees on generated documents, as written and after edits', () => {
    fc.assert(fc.property(rendered, (t) => agree(t)), { numRuns: 1500, seed: 21 });
    fc.assert(fc.property(mutated, (t) => agree(t)), { numRuns: 3000, seed: 36 });
  });

  it('agrees on random documents in every run (a new seed each time: a failure prints it; YAML_FUZZ_RUNS=200000 for a long hunt)', () => {
    fc.assert(fc.property(mutated, (t) => agree(t)), { numRuns: Number(process.env.YAML_FUZZ_RUNS ?? 1000) });
  });

  it('agrees on the corners written out', () => {
    const corners = [
      'a: 1\na: 2\n', // duplicate key: both refuse
      '? [a, b]\n: c\n', // a complex key
      '{a: 1, b: [x, y], c: {d: e}}',
      'a: |-\n  x\n\n  y\nb: >+\n  folded\n  text\n\n',
      'a: |2\n    indented\n',
      'k: "\\x41\\u263A\\N\\_\\L\\P"',
      "k: 'it''s'",
      'k: !!str 12',
      'k: !!int "12"',
      'k: !!binary aGVsbG8=', // outside the core schema: `yaml` reads it
      'k: !custom x',
      'a: &x 1\nb: *x\n', // an alias: `yaml` reads it
      '%YAML 1.2\n---\na: 1\n',
      '%YAML 1.1\n---\na: yes\n',
      '--- a\n',
      'a: 1\n...\n',
      'a: 1\n---\nb: 2\n',
      '',
      '# only a comment\n',
      'a:\n- b\n- c\n',
      'a: b: c\n',
      '- a\nb: c\n',
      'a:\tb\n',
      'a: [b\n',
      'a: "b\n',
      '\ufeffa: 1\n',
      'a: 1 # c\n#d\n',
      '__proto__: {polluted: true}\n',
      '<<: {a: 1}\nb: 2\n',
      'a: 0x_1F\n',
      'a: 1:2\n',
      '"a\\\nb": c\n',
      // What earlier runs of the generated cases found the two reading differently:
      '>1-\n lead\n', // explicit indentation at the top level
      '?\n', // a null key
      '\tyes\n', // a tab before a top-level scalar
      '\r \n[]\n', // a carriage return alone
      '&@[]\n', // an anchor run into a flow collection
      '... ""\n', // content after a document end marker
      '\n3e323\n', // beyond a double
      `${'9'.repeat(400)}\n`,
      `a: 0x${'f'.repeat(300)}\nb: 0o${'7'.repeat(400)}\nc: -${'1'.repeat(320)}.5\n`,
      '\n\ufeff\n', // a byte order mark after the start
      '\ufeff\tyes\n', // and at the start, before a tab
      '\ufeff- {}\n', // or before a sequence
      ' --- {}\n', // an indented start marker
    ];
    for (const c of corners) agree(c);
  });

  it("agrees on the seed library's files, and reads them on the fast path", () => {
    const files = readdirSync(seedDir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f)).map((f) => path.join(seedDir, f));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      agree(text);
      expect(byJsYaml(text), f).toBeDefined(); // the common case takes the fast path
    }
  });

  it('sends aliases, outside tags and broken files to `yaml`, with its errors', () => {
    expect(parseLibraryYaml('a: 1\n').document).toBeUndefined();
    for (const text of ['a: &x 1\nb: *x\n', 'k: !!binary aGVsbG8=\n', '', 'a: "never closed\nb: 1\n']) {
      const doc = parseLibraryYaml(text);
      expect(doc.document).toBeDefined();
      expect(doc.errors).toEqual(YAML.parseDocument(text, { uniqueKeys: true, prettyErrors: true }).errors);
    }
    // An alias bomb is refused by `yaml`'s count of what the aliases expand to.
    const bomb = ['a: &a [x,x,x,x,x,x,x,x,x]', ...'bcdefg'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdef'[i]}`).join(',')}]`)].join('\n');
    expect(() => parseLibraryYaml(bomb).toJS()).toThrow(/alias/i);
  });
});
