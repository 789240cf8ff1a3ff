// Delivery signatures: HMAC-SHA256 over "<timestamp>.<body>" with the webhook's
// secret. The timestamp is signed too, so a captured delivery cannot be replayed
// later with a fresh X-Promptd-Timestamp; receivers reject stale timestamps.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-promptd-signature';
export const TIMESTAMP_HEADER = 'x-promptd-timestamp';
/** Default replay window receivers should allow (docs/webhooks.md). */
export const SIGNATURE_TOLERANCE_S = 300;

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does (tests and docs use it): checks the HMAC in constant time and the timestamp's age. */
export function verifySignature(
  secret: string,
  headers: { signature?: string | null; timestamp?: string | null },
  body: string,
  nowS = Math.floor(Date.now() / 1000),
  toleranceS = SIGNATURE_TOLERANCE_S,
): boolean {
  const t = Number(headers.timestamp);
  if (!headers.signature || !Number.isInteger(t) || Math.abs(nowS - t) > toleranceS) return false;
  const expected = Buffer.from(signatureOf(secret, t, body));
  const given = Buffer.from(headers.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
