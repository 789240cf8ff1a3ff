// Template tags across engines. promptd templates are Mustache with no partials and
// no delimiter changes, so a foreign tag is either translated (`{{#if x}}` → `{{#x}}`),
// kept as plain text when Mustache leaves it alone (`{% for %}`), or — when Mustache
// would misread it — kept inside a Mustache comment that renders nothing and that an
// export in the same engine turns back into the original tag:
//   {{!hbs json data}}   Handlebars tag `{{json data}}`
//   {{!jinja x | upper}} Jinja expression `{{x | upper}}`
//   {{!> name@label}}    an include (partial / Langfuse reference); see docs/formats.md
// Every such change is reported as a warning with its line.

export interface Tag {
  raw: string;
  /** text between the braces */
  inner: string;
  triple: boolean;
  index: number;
}

const MUSTACHE_TAG = /\{\{\{([\s\S]*?)\}\}\}|\{\{([\s\S]*?)\}\}/g;

export function tags(text: string): Tag[] {
  const out: Tag[] = [];
  for (const m of text.matchAll(MUSTACHE_TAG)) {
    out.push({ raw: m[0], inner: m[1] ?? m[2] ?? '', triple: m[1] !== undefined, index: m.index });
  }
  return out;
}

/** Rebuilds `text` with each tag replaced by `fn(tag, i, all)` (undefined keeps it). */
function rewrite(text: string, list: Tag[], fn: (t: Tag, i: number) => string | undefined): string {
  let out = '';
  let pos = 0;
  list.forEach((t, i) => {
    out += text.slice(pos, t.index) + (fn(t, i) ?? t.raw);
    pos = t.index + t.raw.length;
  });
  return out + text.slice(pos);
}

export const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

export type Warn = (index: number, message: string) => void;

const INCLUDE_NOTE = 'include kept as the comment {{!> …}} (renders nothing) until promptd composition resolves includes';

// ---------------------------------------------------------------- Handlebars (Dotprompt)

interface Open {
  v: string | null;
  inverted: boolean;
}

/** Handlebars → promptd Mustache. `{{role}}` markers must already be split off. */
export function fromHandlebars(text: string, warn: Warn): string {
  const stack: Open[] = [];
  const kept = (t: Tag, why: string) => {
    warn(t.index, `${t.raw}: ${why}; kept as the comment {{!hbs …}} (renders nothing), restored on Dotprompt export`);
    return `{{!hbs ${t.triple ? `{${t.inner}}` : t.inner}}}`;
  };
  return rewrite(text, tags(text), (t) => {
    if (!t.triple && t.inner.startsWith('!')) return undefined; // a comment in both engines
    let s = t.inner.trim();
    if (/^~|~$/.test(s)) {
      s = s.replace(/^~\s*|\s*~$/g, '');
      warn(t.index, `${t.raw}: whitespace control (~) is not supported and was removed`);
    }
    if (t.triple) return IDENT.test(s) ? `{{{${s}}}}` : kept(t, 'not a plain variable');
    if (s.startsWith('>')) {
      warn(t.index, `partial ${t.raw}: ${INCLUDE_NOTE}`);
      return `{{!> ${s.slice(1).trim()}}}`;
    }
    let m = /^#\s*(if|unless|each|with)\s+([A-Za-z_][A-Za-z0-9_]*)$/.exec(s);
    if (m) {
      const [, helper, v] = m as unknown as [string, string, string];
      if (helper === 'each') warn(t.index, `${t.raw}: promptd arguments are strings, so {{#each}} becomes a section that renders once when ${v} is not empty; restored on Dotprompt export`);
      if (helper === 'with') warn(t.index, `${t.raw}: {{#with}} becomes a section on ${v}; restored on Dotprompt export`);
      stack.push({ v, inverted: helper === 'unless' });
      // The comment right after the section names the helper, so an export writes it back.
      return helper === 'unless' ? `{{^${v}}}` : `{{#${v}}}${helper === 'each' || helper === 'with' ? `{{!${helper}}}` : ''}`;
    }
    m = /^([#^])\s*([A-Za-z_][A-Za-z0-9_]*)$/.exec(s);
    if (m) {
      stack.push({ v: m[2]!, inverted: m[1] === '^' });
      return `{{${m[1]}${m[2]}}}`;
    }
    if (/^#/.test(s)) {
      stack.push({ v: null, inverted: false });
      return kept(t, 'block helper promptd cannot run');
    }
    if (/^\//.test(s)) {
      const open = stack.pop();
      return open?.v ? `{{/${open.v}}}` : kept(t, 'closes a block helper promptd cannot run');
    }
    if (s === 'else' || s === '^') {
      const open = stack.at(-1);
      if (!open?.v) return kept(t, 'else of a block helper promptd cannot run');
      open.inverted = !open.inverted;
      return `{{/${open.v}}}{{${open.inverted ? '^' : '#'}${open.v}}}`;
    }
    if (s === 'this' || s === '.') return kept(t, 'the current list item; promptd arguments are strings and templates may not name "."');
    if (IDENT.test(s)) return `{{${s}}}`;
    if (PATH.test(s)) {
      warn(t.index, `${t.raw}: nested field access; promptd arguments are strings, so this renders empty`);
      return undefined;
    }
    return kept(t, /^@/.test(s) ? 'data variable promptd does not have' : 'helper promptd cannot run');
  });
}

/**
 * `{{/v}}{{^v}}` right after `{{#v}}` (or `{{/v}}{{#v}}` after `{{^v}}`) is how an
 * imported `else` reads in Mustache; exports turn the pair back into `else`.
 */
function isElse(list: Tag[], i: number, v: string, openedPositive: boolean): boolean {
  const t = list[i]!;
  const next = list[i + 1];
  if (!next || next.triple || next.index !== t.index + t.raw.length) return false;
  return next.inner.trim().replace(/\s+/g, '') === `${openedPositive ? '^' : '#'}${v}`;
}

/** promptd Mustache → Handlebars: sections become if/unless/else, kept tags come back. */
export function toHandlebars(text: string): string {
  const list = tags(text);
  const stack: { v: string; helper: 'if' | 'unless' | 'each' | 'with'; elsed?: boolean }[] = [];
  const skip = new Set<number>();
  return rewrite(text, list, (t, i) => {
    if (skip.has(i)) return '';
    const s = t.inner.trim();
    if (t.triple) return undefined;
    if (s.startsWith('!hbs ')) return `{{${t.inner.replace(/^\s*!hbs /, '')}}}`;
    if (s.startsWith('!>')) return `{{> ${s.slice(2).trim()}}}`;
    if (s.startsWith('!')) return undefined;
    if (s === '.') return '{{this}}';
    const m = /^([#^/])\s*(\S+)$/.exec(s);
    if (!m) return undefined;
    const [, kind, v] = m as unknown as [string, string, string];
    if (kind === '/') {
      const top = stack.at(-1);
      if (top && !top.elsed && isElse(list, i, top.v, top.helper !== 'unless')) {
        skip.add(i + 1);
        top.elsed = true;
        return '{{else}}';
      }
      const open = stack.pop();
      return `{{/${open?.helper ?? 'if'}}}`;
    }
    let helper: 'if' | 'unless' | 'each' | 'with' = kind === '#' ? 'if' : 'unless';
    const next = list[i + 1];
    const named = kind === '#' && next && !next.triple && next.index === t.index + t.raw.length ? /^!(each|with)$/.exec(next.inner.trim()) : null;
    if (named) {
      helper = named[1] as 'each' | 'with';
      skip.add(i + 1);
    }
    stack.push({ v, helper });
    return `{{#${helper} ${v}}}`;
  });
}

// ---------------------------------------------------------------- Jinja2 (Prompty)

const JINJA = /\{\{-?([\s\S]*?)-?\}\}|\{%-?([\s\S]*?)-?%\}|\{#([\s\S]*?)#\}/g;

/** Jinja2 → promptd Mustache: variables and `if` blocks translate; the rest is kept (see file comment). */
export function fromJinja(text: string, warn: Warn): string {
  const stack: Open[] = [];
  // Names bound by `{% for x in … %}` (and `loop`) are not arguments: their uses stay Jinja.
  const loops: string[][] = [];
  const bound = (s: string) => loops.some((l) => l.includes(s.split(/[.\s|[(]/)[0]!));
  return text.replace(JINJA, (raw: string, expr: string | undefined, stmt: string | undefined, comment: string | undefined, index: number) => {
    if (expr !== undefined) {
      const s = expr.trim();
      if (bound(s)) {
        warn(index, `${raw}: uses a loop variable; kept as the comment {{!jinja …}} (renders nothing), restored on Prompty export`);
        return `{{!jinja ${expr}}}`;
      }
      if (IDENT.test(s)) return `{{${s}}}`;
      if (PATH.test(s)) {
        warn(index, `${raw}: nested field access; promptd arguments are strings, so this renders empty`);
        return `{{${s}}}`;
      }
      warn(index, `${raw}: expression promptd cannot evaluate; kept as the comment {{!jinja …}} (renders nothing), restored on Prompty export`);
      return `{{!jinja ${expr}}}`;
    }
    if (stmt !== undefined) {
      const s = stmt.trim();
      let m = /^if\s+(not\s+)?([A-Za-z_][A-Za-z0-9_]*)$/.exec(s);
      if (m) {
        stack.push({ v: m[2]!, inverted: Boolean(m[1]) });
        return `{{${m[1] ? '^' : '#'}${m[2]}}}`;
      }
      const loop = /^for\s+([\w\s,]+?)\s+in\b/.exec(s);
      if (loop) loops.push([...loop[1]!.split(',').map((x) => x.trim()), 'loop']);
      else if (s === 'endfor') loops.pop();
      if (/^if\b/.test(s)) stack.push({ v: null, inverted: false });
      else if (s === 'else' && stack.at(-1)?.v) {
        const open = stack.at(-1)!;
        open.inverted = !open.inverted;
        return `{{/${open.v}}}{{${open.inverted ? '^' : '#'}${open.v}}}`;
      } else if (s === 'endif') {
        const open = stack.pop();
        if (open?.v) return `{{/${open.v}}}`;
      }
      m = /^(\w+)/.exec(s);
      warn(index, `${raw}: Jinja statement${m ? ` "${m[1]}"` : ''} promptd cannot run; kept verbatim (it appears as text when rendered)`);
      return raw;
    }
    const c = comment ?? '';
    if (c.includes('}}')) {
      warn(index, `${raw}: comment containing "}}" kept verbatim (it appears as text when rendered)`);
      return raw;
    }
    if (c.trim().startsWith('>')) warn(index, `${raw}: ${INCLUDE_NOTE}`);
    return `{{!${c}}}`;
  });
}

/** promptd Mustache → Jinja2. */
export function toJinja(text: string): string {
  const list = tags(text);
  const stack: { v: string; inverted: boolean; elsed?: boolean }[] = [];
  const skip = new Set<number>();
  return rewrite(text, list, (t, i) => {
    if (skip.has(i)) return '';
    const s = t.inner.trim();
    if (t.triple || s.startsWith('&')) return `{{ ${s.replace(/^&\s*/, '')} }}`;
    if (s.startsWith('!jinja ')) return `{{${t.inner.replace(/^\s*!jinja /, '')}}}`;
    if (s.startsWith('!')) return `{#${t.inner.replace(/^\s*!/, '')}#}`;
    const m = /^([#^/])\s*(\S+)$/.exec(s);
    if (!m) return undefined;
    const [, kind, v] = m as unknown as [string, string, string];
    if (kind === '/') {
      const top = stack.at(-1);
      if (top && !top.elsed && isElse(list, i, top.v, !top.inverted)) {
        skip.add(i + 1);
        top.elsed = true;
        return '{% else %}';
      }
      stack.pop();
      return '{% endif %}';
    }
    stack.push({ v, inverted: kind === '^' });
    return kind === '#' ? `{% if ${v} %}` : `{% if not ${v} %}`;
  });
}

// ---------------------------------------------------------------- plain-text formats

/** Mustache tags other than plain variables, for warnings when a format has no way to say them. */
export function nonVariableTags(text: string): Tag[] {
  return tags(text).filter((t) => !IDENT.test(t.inner.trim()));
}
