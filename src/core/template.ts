// Mustache templates: parsed once to find variables and syntax errors when a
// version is saved; rendered with HTML escaping off and argument values inserted
// literally (Mustache never re-renders a value, so `{{x}}` in a value stays).
import Mustache from 'mustache';

export interface TemplateAnalysis {
  variables: string[];
  error?: string;
}

type Span = [string, string, number, number, Span[]?, number?];

export function analyzeTemplate(text: string): TemplateAnalysis {
  let tokens: Span[];
  try {
    tokens = Mustache.parse(text) as unknown as Span[];
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

export function renderTemplate(text: string, values: Record<string, string>): string {
  // A null-prototype view: Mustache looks names up with `in`, which would otherwise
  // find Object.prototype members such as `constructor`.
  const view: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(values)) view[k] = v;
  return Mustache.render(text, view, undefined, { escape: identity });
}
