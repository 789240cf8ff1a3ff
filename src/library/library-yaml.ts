// How every library file's YAML is read (prompt files, history files, resources.yaml,
// front matter of the other formats). `yaml` decides what a file means and explains what
// is wrong with it; js-yaml reads the files it is sure about, about twice as fast
// (a new import of 10,000 files spent a third of its CPU in `yaml`'s parser; section 36
// of bench/history.md).
//
// js-yaml goes first, on YAML 1.2's core schema like `yaml`, refusing duplicate keys
// like `uniqueKeys`. It leaves to `yaml` whatever the two could read differently or
// only `yaml` should judge:
//   - every alias: `yaml` counts what aliases expand to and refuses alias bombs, js-yaml only counts them;
//   - a key that is not a string (`?` keys, `null`, numbers): the two write them as object keys differently;
//   - directives (`%YAML 1.1` switches `yaml` to YAML 1.1's booleans), anchors and tags,
//     and the few spellings the two read differently (LEAVE_TO_YAML);
//   - a syntax error, an empty file.
// `yaml` reads those exactly as before, so its errors and positions are `yaml`'s. That
// the two agree on every file js-yaml accepts is tested against generated files
// (test/library/library-yaml.test.ts).
import { createRequire } from 'node:module';
import { CORE_SCHEMA, defineMappingTag, load } from 'js-yaml';
import type * as YAML from 'yaml';
import { yamlCapProblem } from './yaml-caps.js';

const require = createRequire(import.meta.url);
let yamlModule: typeof YAML | undefined;
/**
 * `yaml`, loaded when a file first needs it: loading it costs each thread ~25 ms, and an
 * import whose files all take the fast path (or are unchanged) never needs it.
 */
export const yamlLib = (): typeof YAML => (yamlModule ??= require('yaml') as typeof YAML);

/** What the readers need of a parsed document: its errors (`yaml`'s) and its value. */
export interface LibraryYaml {
  readonly errors: readonly YAML.YAMLError[];
  toJS(): unknown;
  /** `yaml`'s document, where `yaml` read the file (for error positions) */
  readonly document?: YAML.Document.Parsed;
}

const YAML_OPTIONS = { uniqueKeys: true, prettyErrors: true } as const;

type Mapping = Record<string, unknown>;
/** Plain objects with string keys only; any other key makes the load fail (and `yaml` read the file). */
const stringKeyedMap = defineMappingTag<Mapping>('tag:yaml.org,2002:map', {
  create: () => ({}),
  addPair(map, key, value) {
    if (typeof key !== 'string') return 'not a string key';
    // An own property like any other key, never the prototype (as `yaml` writes it).
    if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, configurable: true, writable: true });
    else map[key] = value;
    return '';
  },
  has: (map, key) => typeof key === 'string' && Object.hasOwn(map, key),
  keys: (map) => Object.keys(map),
  get: (map, key) => (typeof key === 'string' && Object.hasOwn(map, key) ? map[key] : undefined),
  identify: () => false,
});
const SCHEMA = CORE_SCHEMA.withTags(stringKeyedMap);
/**
 * Where js-yaml and `yaml` part ways, each found by the generated cases of the test:
 * a directive line, or a document end marker (`...`: the two read what follows one
 * differently); a tab in a line's indentation (`yaml` refuses one before a top-level
 * scalar, js-yaml does not); an anchor or tag where a token starts (the two split `&a[]`
 * differently; anchors only serve aliases, which `yaml` reads anyway); a block scalar
 * header with an indentation indicator (`|2`, `>-1`); a carriage return alone (a line
 * break to js-yaml, text to `yaml`); a number too large for a double (a string to
 * js-yaml, Infinity to `yaml`: a 3-digit exponent, 250 digits in a row); a byte order
 * mark (`yaml` refuses `\uFEFF- a`, and reads one after the start differently).
 * (Cheap tests only: a scan of every file for runs of hex digits took 5 µs per file.)
 */
const LEAVE_TO_YAML = /^(?:%|\.\.\.| *\t|[&!])|[\s,[\]{}][&!]|[|>][-+]?[1-9]|\r(?!\n)|\d[eE][-+]?\d{3}|\d{250}|0[xX][\da-fA-F]{250}|\uFEFF/m;
/** A file starting ` ---`: a start marker to js-yaml, text to `yaml`. */
const INDENTED_START = /^ +---/;

const LEFT = Symbol('left to yaml');

/** js-yaml's value of `text`, or LEFT where `yaml` is to read it. */
function fastValue(text: string): unknown {
  if (LEAVE_TO_YAML.test(text) || INDENTED_START.test(text)) return LEFT;
  try {
    return load(text, { schema: SCHEMA, maxAliases: 0 });
  } catch {
    return LEFT;
  }
}

/**
 * The document in `text`; read it with `errors` first, then `toJS()` (which may throw, as `yaml`'s does).
 * A file over the node or nesting caps (yaml-caps.ts) is refused before either parser reads it.
 */
export function parseLibraryYaml(text: string): LibraryYaml {
  const over = yamlCapProblem(text);
  if (over) return { errors: [new (yamlLib().YAMLParseError)([0, 0], 'RESOURCE_EXHAUSTION', over)], toJS: () => undefined };
  const value = fastValue(text);
  if (value !== LEFT) return { errors: [], toJS: () => value };
  const document = yamlLib().parseDocument(text, YAML_OPTIONS);
  return { errors: document.errors, toJS: () => document.toJS(), document };
}
