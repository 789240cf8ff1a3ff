// Mustache templates: parsed once to find variables and syntax errors when a
// version is saved; rendered with HTML escaping off and argument values inserted
// literally (Mustache never re-renders a value, so `{{x}}` in a value stays).
// Every walk over the token tree is iterative: templates nest as deep as a client
// or an old stored version makes them, and recursion would overflow the stack.
import Mustache from 'mustache';
import { DomainError } from './errors.js';
import { LIMITS } from './schemas.js';
import { includeRefProblem } from './include-ref.js';

export interface TemplateAnalysis {
  /** declared-argument candidates: every plain name the template uses */
  variables: string[];
  /** `{{> ref}}` includes, as written (parse with parseIncludeRef) */
  includes: string[];
  /** why the template cannot be saved (syntax, unsupported features, limits); empty when it can */
  errors: string[];
}

type Span = [string, string, number, number, Span[]?, number?];

/** What rendering a parsed template can do, computed once per template text. */
export interface TemplateInfo {
  tokens: Span[];
  /** name → how many tags write its value ({{x}}, {{{x}}}, {{&x}}), in sections or not */
  writes: Map<string, number>;
  /** every plain name used, in order of first use */
  names: string[];
  /** variable tags of any kind (values, sections, inverted sections) */
  references: number;
  /** deepest nesting of sections */
  depth: number;
  /** `{{x.y}}` and `{{.}}`: they read properties of a value */
  dotted: string[];
  /** includes (`{{> name}}`, `{{> name@label}}`, `{{> name@3}}`), distinct, in order of first use */
  partials: string[];
  /** a partial tag written other than `{{>` (e.g. `{{ > x}}`): refused, so stores can find includes by that substring */
  loosePartial?: string;
  delimiters: boolean;
}

const TAGS = new Set(['name', '&', '#', '^']);

/** Pre-order walk with an explicit stack. */
function forEachToken(tokens: Span[], visit: (t: Span, depth: number) => void): void {
  const stack: { spans: Span[]; i: number; depth: number }[] = [{ spans: tokens, i: 0, depth: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.spans.length) {
      stack.pop();
      continue;
    }
    const t = top.spans[top.i++]!;
    visit(t, top.depth);
    // A partial's t[4] is its indentation (a string), not children.
    if (Array.isArray(t[4])) stack.push({ spans: t[4], i: 0, depth: top.depth + 1 });
  }
}

/**
 * Mustache strips the line of a standalone partial (`{{> x}}` alone on its line, its
 * indentation and newline), expecting the partial to bring its own. An include
 * inserts finished text without one, so the newline is kept: slot 7 of the token holds
 * what the writer appends after the text.
 */
function standalone(t: Span, text: string): void {
  const start = t[2];
  const end = t[3];
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const nl = text.indexOf('\n', end);
  const lineEnd = nl < 0 ? text.length : nl;
  if (text.slice(lineStart, start).trim() || text.slice(end, lineEnd).trim()) return;
  (t as unknown as unknown[])[7] = nl < 0 ? '' : text.slice(text[nl - 1] === '\r' ? nl - 1 : nl, nl + 1);
}

function inspect(tokens: Span[], text?: string): TemplateInfo {
  const info: TemplateInfo = { tokens, writes: new Map(), names: [], references: 0, depth: 0, dotted: [], partials: [], delimiters: false };
  const names = new Set<string>();
  const dotted = new Set<string>();
  const partials = new Set<string>();
  forEachToken(tokens, (t, depth) => {
    const [type, value, start, , children] = t;
    if (Array.isArray(children) && depth + 1 > info.depth) info.depth = depth + 1;
    if (type === '>') {
      partials.add(value);
      if (text !== undefined && text.slice(start, start + 3) !== '{{>') info.loosePartial ??= value;
      if (text !== undefined) standalone(t, text);
    } else if (type === '=') info.delimiters = true;
    else if (TAGS.has(type)) {
      info.references++;
      if (value.includes('.')) dotted.add(value);
      else {
        names.add(value);
        if (type === 'name' || type === '&') info.writes.set(value, (info.writes.get(value) ?? 0) + 1);
      }
    }
  });
  info.names = [...names];
  info.dotted = [...dotted];
  info.partials = [...partials];
  return info;
}

/**
 * Our own writer with Mustache's template cache off: that cache is an unbounded
 * map keyed by template text, so every template ever saved or rendered would stay
 * in memory. Turning it off needs a private field, and flattenText relies on the
 * token layout; both are checked here, so a mustache upgrade that changes them
 * fails at start-up instead of silently caching or mis-rendering.
 */
export function checkedWriter(Writer: new () => Mustache.Writer = Mustache.Writer): Mustache.Writer {
  const w = new Writer();
  const fail = (what: string) => {
    throw new Error(`core/template.ts: the installed mustache no longer matches what this module relies on (${what}); review it against the new version`);
  };
  if (!Object.hasOwn(w, 'templateCache')) fail('Writer#templateCache is gone');
  (w as unknown as { templateCache: undefined }).templateCache = undefined;
  const probe = '{{#s}}x{{/s}}';
  const a = w.parse(probe) as unknown;
  if (a === w.parse(probe)) fail('parse() still caches with templateCache unset');
  if (JSON.stringify(a) !== '[["#","s",0,6,[["text","x",6,7]],7]]') fail('tokens are no longer [type, value, start, end, children, closeStart]');
  return w;
}

/**
 * Includes are rendered before the template (they may need the store) and handed in
 * as finished text: the writer inserts that text as it is, instead of parsing it as a
 * template (Mustache's own partials), so nothing an argument value put into an
 * included prompt is ever evaluated.
 */
class IncludingWriter extends Mustache.Writer {
  override renderPartial(token: string[], _context: Mustache.Context, partials?: Mustache.PartialsOrLookupFn): string {
    const text = typeof partials === 'function' ? (partials(token[1]!) ?? '') : '';
    const after = (token as unknown[])[7];
    return typeof after === 'string' ? `${token[4] ?? ''}${text}${after}` : text;
  }
}

const writer = checkedWriter(IncludingWriter);

const CACHE_MAX = 2_000;
const cache = new Map<string, TemplateInfo>();

/**
 * Mustache builds each text token one character at a time with `+=`, so its value
 * is a rope of hundreds of nodes that V8 must flatten again for every rendered
 * output that is serialised. A text token covers template[start, end), so the
 * flat slice of the template is the same string.
 */
function flattenText(spans: Span[], template: string): void {
  forEachToken(spans, (t) => {
    if (t[0] === 'text') {
      const flat = template.slice(t[2], t[3]);
      if (flat === t[1]) t[1] = flat;
    }
  });
}

/** Parsed (and cached) template; throws on a syntax error. */
export function templateInfo(text: string): TemplateInfo {
  let info = cache.get(text);
  if (info) return info;
  const tokens = writer.parse(text) as Span[];
  flattenText(tokens, text);
  info = inspect(tokens, text);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(text, info);
  return info;
}

const dottedMessage = (name: string) =>
  name === '.'
    ? '{{.}} is not supported; use the argument\'s name'
    : `{{${name}}}: names with "." are not supported (they read properties of the argument's value); use the argument's name`;

/** Why a stored template must not be rendered (saved before today's rules); undefined when it may. */
export function renderProblem(info: TemplateInfo): string | undefined {
  if (info.depth > LIMITS.sectionDepth) return `sections are nested ${info.depth} levels deep; the limit is ${LIMITS.sectionDepth}`;
  if (info.dotted.length) return dottedMessage(info.dotted[0]!);
  return undefined;
}

export function analyzeTemplate(text: string): TemplateAnalysis {
  let info: TemplateInfo;
  try {
    // Not through the render cache: saving must not fill it with templates that may never be served.
    info = inspect(writer.parse(text) as Span[], text);
  } catch (e) {
    return { variables: [], includes: [], errors: [`template does not parse: ${(e as Error).message}`] };
  }
  const errors: string[] = [];
  if (info.loosePartial !== undefined) errors.push(`write an include as {{> ${info.loosePartial}}} ("{{>" with nothing between the braces and ">")`);
  for (const p of info.partials) {
    const problem = includeRefProblem(p);
    if (problem) errors.push(problem);
  }
  if (info.delimiters) errors.push('changing delimiters is not supported');
  if (info.depth > LIMITS.sectionDepth) errors.push(`sections are nested ${info.depth} levels deep; the limit is ${LIMITS.sectionDepth}`);
  if (info.references > LIMITS.referencesPerTemplate) {
    errors.push(`the template has ${info.references} variable tags; the limit is ${LIMITS.referencesPerTemplate}`);
  }
  for (const d of info.dotted) errors.push(dottedMessage(d));
  return { variables: info.names, includes: info.partials, errors };
}

export interface WrittenEstimate {
  /** characters the values will add to the output, at most */
  chars: number;
  /** the name that adds the most */
  top?: { name: string; writes: number; chars: number };
}

/**
 * Upper bound of the characters argument values add when rendered: values are
 * strings, so a section renders its body at most once and every tag writes at
 * most once; sections and inverted sections are counted as if they all render.
 */
export function estimateWrites(info: TemplateInfo, values: Record<string, string | undefined>, into?: Map<string, number>): WrittenEstimate {
  let chars = 0;
  let top: WrittenEstimate['top'];
  for (const [name, writes] of info.writes) {
    const v = Object.hasOwn(values, name) ? values[name] : undefined;
    if (!v) continue;
    const c = writes * v.length;
    chars += c;
    into?.set(name, (into.get(name) ?? 0) + c);
    if (!top || c > top.chars) top = { name, writes, chars: c };
  }
  return { chars, top };
}

const NO_INCLUDES = () => '';
const identity = (v: unknown) => String(v);
const config = { escape: identity };

/**
 * Renders with a null-prototype view: Mustache looks names up with `in`, which
 * would otherwise find Object.prototype members such as `constructor`. Refuses
 * (DomainError 'validation') templates saved before today's rules and outputs
 * whose values would add more than `budget` characters.
 */
export function renderTemplate(
  text: string,
  values: Record<string, string | number | boolean>,
  budget: number = LIMITS.renderedArgumentChars,
  /** `{{> ref}}` → the included text, already rendered (inserted as is) */
  includes?: (ref: string) => string,
): string {
  const info = templateInfo(text);
  const problem = renderProblem(info);
  if (problem) throw new DomainError('validation', `this template cannot be rendered: ${problem}; save it again`);
  // Typed values (numbers, booleans) render as their text; `false` and 0 skip a section.
  const view: Record<string, string | number | boolean> = Object.create(null);
  const asText: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(values)) {
    view[k] = v;
    asText[k] = String(v);
  }
  const { chars, top } = estimateWrites(info, asText);
  if (chars > budget && top) {
    const message = `"${top.name}" is written ${top.writes} times; with this value that adds ${chars} characters, over the limit of ${budget}`;
    throw new DomainError('validation', message, [{ path: top.name, message }]);
  }
  return writer.renderTokens(info.tokens as unknown as string[][], new Mustache.Context(view), includes ?? NO_INCLUDES, text, config);
}

/** Number of parsed templates held (for tests of the bound). */
export const templateCacheSize = () => cache.size;
