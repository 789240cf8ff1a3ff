// Strong ETags for the read API: a hash of the exact JSON body sent, so anything that
// changes the bytes (a label move, a rename, a bound resource's new text in a render)
// changes the tag, and nothing else does.
import { createHash } from 'node:crypto';
import type { Context } from 'hono';

export function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** If-None-Match (RFC 9110 §13.1.2): `*`, or any listed tag equal by weak comparison. */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === opaque);
}

/**
 * Caches may keep the response but must revalidate it every time (no-cache), and
 * never serve one token's response to another (Vary: Authorization).
 */
export function setCacheHeaders(c: Context, etag: string): void {
  c.header('ETag', etag);
  c.header('Cache-Control', 'no-cache');
  c.header('Vary', 'Authorization');
}
