// Mustache templates: parsed once to find variables and syntax errors when a
// version is saved; rendered with HTML escaping off and argument values inserted
// literally (Mustache never re-renders a value, so `{{x}}` in a value stays).
import Mustache from 'mustache';

export interface TemplateAnalysis {
  variables: string[];
  error?: string;
}

type Span = [string, string, number, number, Span[]?, number?];

// Our own writer with Mustache's template cache off: that cache is an unbounded
// map keyed by template text, so every template ever saved or rendered would stay
// in memory. Parsed templates are kept in the bounded cache below instead.
const writer = new Mustache.Writer();
(writer as unknown as { templateCache: undefined }).templateCache = undefined;

const CACHE_MAX = 2_000;
const cache = new Map<string, Span[]>();

/**
 * Mustache builds each text token one character at a time with `+=`, so its value
 * is a rope of hundreds of nodes that V8 must flatten again for every rendered
 * output that is serialised. A text token covers template[start, end), so the
 * flat slice of the template is the same string.
 */
function flattenText(spans: Span[], template: string): void {
  for (const t of spans) {
    if (t[0] === 'text') {
      const flat = template.slice(t[2], t[3]);
      if (flat === t[1]) t[1] = flat;
    }
    if (t[4]) flattenText(t[4], template);
  }
}

function compile(text: string): Span[] {
  let tokens = cache.get(text);
  if (tokens) return tokens;
  tokens = writer.parse(text) as Span[];
  flattenText(tokens, text);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(text, tokens);
  return tokens;
}

export function analyzeTemplate(text: string): TemplateAnalysis {
  let tokens: Span[];
  try {
    tokens = writer.parse(text) as Span[];
  } catch (e) {
    return { variables: [], error: (e as Error).message };
  }
  const vars = new Set<string>();
  let error: string | undefined;
  const walk = (spans: Span[]) => {
    for (const t of spans) {
      const [type, value] = t;
      if (type === '>') error ??= `partials ({{> ${value}}}) are not supported`;
      else if (type === '=') error ??= 'changing delimiters is not supported';
      else if (type === 'name' || type === '&' || type === '#' || type === '^') {
        if (value !== '.') vars.add(value.split('.')[0]!);
      }
      if (t[4]) walk(t[4]);
    }
  };
  walk(tokens);
  return { variables: [...vars], error };
}

const identity = (v: unknown) => String(v);
const config = { escape: identity };

export function renderTemplate(text: string, values: Record<string, string>): string {
  // A null-prototype view: Mustache looks names up with `in`, which would otherwise
  // find Object.prototype members such as `constructor`.
  const view: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(values)) view[k] = v;
  return writer.renderTokens(compile(text) as unknown as string[][], new Mustache.Context(view), undefined, text, config);
}

/** Number of parsed templates held (for tests of the bound). */
export const templateCacheSize = () => cache.size;
