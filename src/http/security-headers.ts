// Response headers for the browser-facing routes (/admin, /admin/v1): a strict
// Content-Security-Policy (only our own scripts run: no inline script, no eval, no
// plugins, no <base> rewriting, no framing), nosniff and no Referer. Built on Hono's
// secureHeaders; HSTS is left to the TLS-terminating proxy, which knows the domain.
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

export const ADMIN_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // Inline style attributes/elements stay allowed: Swagger UI injects some, and CSS
  // cannot run script; every script source above stays 'self'.
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Prompt icons are remote https images (shown with no Referer); media previews are data: URLs.
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  mediaSrc: ["'self'", 'data:', 'blob:'],
  // blob: the Download link's object URL (made by the page itself) may be read back.
  connectSrc: ["'self'", 'blob:'],
  fontSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
};

export function adminSecurityHeaders() {
  return secureHeaders({
    contentSecurityPolicy: ADMIN_CSP,
    referrerPolicy: 'no-referrer',
    xContentTypeOptions: 'nosniff',
    xFrameOptions: 'DENY',
    strictTransportSecurity: false,
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
  });
}

/** The headers adminSecurityHeaders() sets, for answers written below Hono (src/rest/fast-version-write.ts). */
export async function adminSecurityHeadersList(): Promise<Array<[string, string]>> {
  const probe = new Hono().use(adminSecurityHeaders()).get('/', (c) => c.body(null, 204));
  return [...(await probe.request('/')).headers];
}
