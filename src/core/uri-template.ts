// RFC 6570 URI templates: expansion through the `url-template` library; variable
// listing and reverse matching (URI → variables, for resources/read of template
// resources and completion) by a small parser of the same grammar.
import { parseTemplate } from 'url-template';

const EXPR = /\{([^{}]*)\}/g;
const OPERATORS = '+#./;?&';

export interface UriExpression {
  operator: string;
  names: string[];
}

export function isUriTemplate(uri: string): boolean {
  return uri.includes('{');
}

export function parseUriTemplate(template: string): { expressions: UriExpression[]; error?: string } {
  const stray = template.replace(EXPR, '');
  if (stray.includes('{') || stray.includes('}')) return { expressions: [], error: 'unbalanced "{" or "}" in URI template' };
  const expressions: UriExpression[] = [];
  for (const m of template.matchAll(EXPR)) {
    let body = m[1]!;
    let operator = '';
    if (body && OPERATORS.includes(body[0]!)) {
      operator = body[0]!;
      body = body.slice(1);
    }
    const names = body.split(',').map((v) => v.replace(/\*$/, '').replace(/:\d+$/, ''));
    if (!names.every((n) => /^[A-Za-z0-9_]+$/.test(n))) return { expressions: [], error: `invalid expression "{${m[1]}}" in URI template` };
    expressions.push({ operator, names });
  }
  return { expressions };
}

/**
 * Each variable occurrence with the most characters of its value it can expand to
 * (`{x:3}` takes 3), for estimating an expansion's size before expanding it.
 */
export function uriTemplateReferences(template: string): { name: string; prefix?: number }[] {
  const out: { name: string; prefix?: number }[] = [];
  for (const m of template.matchAll(EXPR)) {
    const body = m[1] && OPERATORS.includes(m[1][0]!) ? m[1].slice(1) : (m[1] ?? '');
    for (const spec of body.split(',')) {
      const p = /^(.*?):(\d+)$/.exec(spec);
      out.push(p ? { name: p[1]!, prefix: Number(p[2]) } : { name: spec.replace(/\*$/, '') });
    }
  }
  return out;
}

export function uriTemplateVariables(template: string): string[] {
  return [...new Set(parseUriTemplate(template).expressions.flatMap((e) => e.names))];
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Expands with RFC 6570 encoding: simple `{var}` percent-encodes reserved characters. */
export function expandUriTemplate(template: string, values: Record<string, string | undefined>): string {
  const ctx: Record<string, string> = Object.create(null);
  // Lone UTF-16 surrogates cannot be percent-encoded (encodeURIComponent throws):
  // they become U+FFFD, as any UTF-8 encoder would make them.
  for (const [k, v] of Object.entries(values)) if (v !== undefined) ctx[k] = v.replace(LONE_SURROGATE, '\ufffd');
  return parseTemplate(template).expand(ctx);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface UriMatcher {
  match(uri: string): Record<string, string> | null;
  variables: string[];
}

const SEGMENT: Record<string, string> = {
  '': '[^/?#&,]*',
  '+': '.*',
  '#': '.*',
  '.': '[^/?#.]*',
  '/': '[^/?#]*',
  ';': '[^/?#;]*',
};

/** Characters a variable of each operator can never contain when matched back from a URI. */
const EXCLUDED: Record<string, string> = { '': '/?#&,', '.': '/?#.', '/': '/?#', ';': '/?#;', '?': '&#', '&': '&#', '+': '', '#': '' };

/**
 * Matching a URI back against a template is a regular expression with one group per
 * variable. A group that can also eat the text after it (`{a}{b}`, `{a}-{b}`,
 * `{+a}/x`) makes the match backtrack; two or more such groups make it polynomial
 * (n^3 and up) and a long URI from a client pins the event loop. So a template may
 * have at most one ambiguous variable: every other one must be followed by the end of
 * the template or by a character it cannot contain.
 */
export function reverseMatchProblem(template: string): string | undefined {
  const exprs = [...template.matchAll(EXPR)];
  const ambiguous: string[] = [];
  for (const [i, m] of exprs.entries()) {
    const body = m[1] ?? '';
    const op = body && OPERATORS.includes(body[0]!) ? body[0]! : '';
    const names = body.slice(op ? 1 : 0).split(',');
    if (op === '+' || op === '#') for (let k = 1; k < names.length; k++) ambiguous.push(m[0]);
    const end = m.index! + m[0].length;
    if (end === template.length) continue;
    const next = exprs[i + 1];
    let follower = template[end]!;
    if (next && next.index === end) {
      const nextOp = next[1]?.[0] ?? '';
      follower = nextOp && '.;/?&#'.includes(nextOp) ? nextOp : '';
    }
    if (!follower || !EXCLUDED[op]!.includes(follower)) ambiguous.push(m[0]);
  }
  if (ambiguous.length <= 1) return undefined;
  return `${[...new Set(ambiguous)].join(', ')}: more than one variable can run into the text that follows it, so URIs cannot be matched back efficiently; separate variables with a character they cannot contain (e.g. "/")`;
}

export function compileUriMatcher(template: string): UriMatcher {
  const { expressions, error } = parseUriTemplate(template);
  if (error) return { match: () => null, variables: [] };
  let re = '^';
  const groups: string[] = [];
  let last = 0;
  let i = 0;
  for (const m of template.matchAll(EXPR)) {
    re += escapeRe(template.slice(last, m.index));
    last = m.index! + m[0].length;
    const { operator, names } = expressions[i++]!;
    if (operator === '?' || operator === '&') {
      re += names.map((n, j) => `(?:${j === 0 ? escapeRe(operator) : '&'}${escapeRe(n)}=([^&#]*))?`).join('');
      groups.push(...names);
    } else {
      const prefix = operator === '+' || operator === '' ? '' : escapeRe(operator);
      const sep = operator === '' || operator === '+' || operator === '#' ? ',' : operator === '/' ? '/' : operator;
      re += prefix + names.map(() => `(${SEGMENT[operator] ?? '[^/?#]*'})`).join(escapeRe(sep));
      groups.push(...names);
    }
  }
  re += escapeRe(template.slice(last)) + '$';
  const compiled = new RegExp(re);
  return {
    variables: groups,
    match(uri) {
      const m = compiled.exec(uri);
      if (!m) return null;
      // Null prototype: a variable named __proto__ must stay a plain key.
      const out: Record<string, string> = Object.create(null);
      groups.forEach((g, k) => {
        const v = m[k + 1];
        if (v !== undefined) {
          try {
            out[g] = decodeURIComponent(v);
          } catch {
            out[g] = v;
          }
        }
      });
      return out;
    },
  };
}
