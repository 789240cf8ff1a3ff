// Which URIs may be stored and served. MCP clients show icons and resource links in
// their UIs, so a `javascript:` link or a `file:` icon would be an attack on the
// person at the client. Icons follow the MCP Icon schema's intent (https, or an
// inline image); resource URIs keep custom schemes (`docs://`, `logs://`…), minus
// the schemes that carry script or inline documents in a browser.

/** Never stored nor served as a resource or link URI, whatever PROMPTD_URI_SCHEMES says. */
import { isLoopbackHost } from './loopback.js';

export const REFUSED_URI_SCHEMES: readonly string[] = [
  'javascript', 'vbscript', 'livescript', 'mocha', 'data', 'blob', 'filesystem', 'about', 'view-source', 'jar', 'mhtml',
];

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** The URI's scheme, lower-cased; undefined when it does not start with one (RFC 3986 §3.1). */
export function uriSchemeOf(uri: string): string | undefined {
  return SCHEME.exec(uri)?.[1]?.toLowerCase();
}

/**
 * PROMPTD_URI_SCHEMES: a comma-separated allow-list of schemes for stored resources,
 * resource templates and the URIs messages bind; unset, empty or `*` allows every
 * scheme except REFUSED_URI_SCHEMES. Throws on a malformed entry, so a typo fails
 * at start-up rather than refusing every write.
 */
export function parseUriSchemes(value: string | undefined): ReadonlySet<string> | null {
  const v = value?.trim();
  if (!v || v === '*') return null;
  const out = new Set<string>();
  for (const raw of v.split(',')) {
    const s = raw.trim().toLowerCase().replace(/:$/, '');
    if (!/^[a-z][a-z0-9+.-]*$/.test(s)) throw new Error(`PROMPTD_URI_SCHEMES: "${raw.trim()}" is not a URI scheme (expected e.g. "https,file,docs")`);
    out.add(s);
  }
  return out;
}

// The zod schemas that use this are module constants shared by every face (REST,
// import, CLI), so the setting is read from the environment when checked; the
// composition root parses it once at start-up (parseUriSchemes) to fail fast.
let memo: { raw: string | undefined; set: ReadonlySet<string> | null } | undefined;
type Env = Record<string, string | undefined>;
// Read through globalThis so the admin UI, which type-checks these shared schemas without Node's types, compiles too.
const processEnv = (): Env => (globalThis as { process?: { env: Env } }).process?.env ?? {};

function allowedSchemes(env: Env): ReadonlySet<string> | null {
  const raw = env.PROMPTD_URI_SCHEMES;
  if (!memo || memo.raw !== raw) memo = { raw, set: parseUriSchemes(raw) };
  return memo.set;
}

/** Why `uri` may not be a resource, resource template or bound URI; undefined when it may. */
export function uriSchemeProblem(uri: string, env: Env = processEnv()): string | undefined {
  const scheme = uriSchemeOf(uri);
  if (!scheme) return 'must start with a scheme (e.g. file:///, docs://)';
  if (REFUSED_URI_SCHEMES.includes(scheme)) return `the "${scheme}:" scheme is not allowed (it can run script or carry a document in a client)`;
  const allowed = allowedSchemes(env);
  if (allowed && !allowed.has(scheme)) return `the "${scheme}:" scheme is not allowed here (PROMPTD_URI_SCHEMES allows: ${[...allowed].join(', ')})`;
  return undefined;
}

/** The always-refused schemes only: the guard for URIs stored before these rules. */
export function isRefusedUri(uri: string): boolean {
  const scheme = uriSchemeOf(uri.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, ''));
  return scheme !== undefined && REFUSED_URI_SCHEMES.includes(scheme);
}


/** Icons: `https:`, `data:image/*`, and `http:` on a loopback host only. */
export function iconSrcProblem(src: string): string | undefined {
  if (/[\u0000-\u0020\u007f]/.test(src)) return 'must not contain spaces or control characters';
  const scheme = uriSchemeOf(src);
  if (scheme === 'data') {
    return /^data:image\/[A-Za-z0-9.+-]+[;,]/i.test(src) ? undefined : 'a data: icon must be an image (data:image/...)';
  }
  if (scheme === 'https' || scheme === 'http') {
    let url: URL;
    try {
      url = new URL(src);
    } catch {
      return 'is not a valid URL';
    }
    if (scheme === 'http' && !isLoopbackHost(url.hostname)) return 'http: icons are allowed only on loopback hosts; use https:';
    return undefined;
  }
  return 'icons must be https: URLs or data:image/... URIs';
}

export const isSafeIconSrc = (src: string) => iconSrcProblem(src) === undefined;
