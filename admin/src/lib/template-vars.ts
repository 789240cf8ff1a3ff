// Finding {{variables}} in Mustache templates and {vars} in RFC 6570 URI templates.
import Mustache from 'mustache';

export interface Tag {
  start: number;
  end: number;
  kind: 'var' | 'section' | 'inverted' | 'close' | 'comment' | 'partial' | 'other';
  name: string; // the first segment of a dotted name
}

export interface TemplateScan { tags: Tag[]; names: string[]; error: string | null }

const KIND: Record<string, Tag['kind']> = {
  name: 'var', '&': 'var', '{': 'var', '#': 'section', '^': 'inverted', '/': 'close', '!': 'comment', '>': 'partial',
};

type Token = [string, string, number, number, Token[]?, number?];

/** Every tag in a Mustache template (with positions), the variable names it uses, and a parse error if any. */
export function scanTemplate(text: string): TemplateScan {
  try {
    const tags: Tag[] = [];
    const walk = (tokens: Token[]) => {
      for (const t of tokens) {
        const [type, value, start, end, children, closeStart] = t;
        if (type === 'text') continue;
        const kind = KIND[type] ?? 'other';
        tags.push({ start, end, kind, name: value.split('.')[0] ?? value });
        // Only sections have children; a partial's 5th element is its indentation (a string).
        if (Array.isArray(children) && (type === '#' || type === '^')) {
          walk(children);
          // The closing tag of a section: its position is the 6th element.
          if (closeStart !== undefined) {
            const close = /\{\{\s*\/\s*[^}]*\}\}/.exec(text.slice(closeStart));
            if (close && close.index === 0) tags.push({ start: closeStart, end: closeStart + close[0].length, kind: 'close', name: value });
          }
        }
      }
    };
    walk(Mustache.parse(text) as unknown as Token[]);
    tags.sort((a, b) => a.start - b.start);
    const names = [...new Set(tags.filter((t) => t.kind === 'var' || t.kind === 'section' || t.kind === 'inverted').map((t) => t.name))]
      .filter((n) => n !== '' && n !== '.');
    return { tags, names, error: null };
  } catch (err) {
    return { tags: fallbackTags(text), names: [], error: (err as Error).message };
  }
}

/** When the template does not parse, still highlight what looks like tags. */
function fallbackTags(text: string): Tag[] {
  const out: Tag[] = [];
  for (const m of text.matchAll(/\{\{\{?\s*([#^/&!>]?)\s*([^}]*?)\s*\}?\}\}/g)) {
    const sigil = m[1] ?? '';
    out.push({ start: m.index, end: m.index + m[0].length, kind: KIND[sigil || 'name'] ?? 'other', name: (m[2] ?? '').split('.')[0] ?? '' });
  }
  return out;
}

/** Mustache render with no HTML escaping, as the server does. `{{> name}}` (an include) renders as `partial(name)`. */
export function renderTemplate(text: string, view: Record<string, unknown>, partial: (name: string) => string = () => ''): string {
  return Mustache.render(text, view, partial, { escape: (s: string) => s });
}

/** Variable names of an RFC 6570 URI template, e.g. `logs://x?t={timeframe}` → [timeframe], `{+fileUri}` → [fileUri]. */
export function uriTemplateVars(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(/\{([+#./;?&]?)([^}]*)\}/g)) {
    for (const spec of (m[2] ?? '').split(',')) {
      const name = spec.trim().replace(/(\*|:\d+)$/, '');
      if (name && !out.includes(name)) out.push(name);
    }
  }
  return out;
}

export function isUriTemplate(uri: string): boolean {
  return /\{[^}]*\}/.test(uri);
}
