// Opaque, tamper-evident keyset cursors: base64url(JSON payload) + "." + HMAC.
// A modified or forged cursor fails verification instead of silently restarting.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from './errors.js';

export interface CursorCodec {
  encode(kind: string, key: unknown): string;
  decode<T>(kind: string, cursor: string): T;
}

export function createCursorCodec(secret: string): CursorCodec {
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
  return {
    encode(kind, key) {
      const payload = Buffer.from(JSON.stringify({ k: kind, v: key })).toString('base64url');
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    decode<T>(kind: string, cursor: string): T {
      const fail = () => badRequest('invalid cursor: it was not issued by this server for this list (start again without a cursor)', [{ path: 'cursor', message: 'invalid or tampered cursor' }]);
      const [payload, sig, extra] = cursor.split('.');
      if (!payload || !sig || extra !== undefined || cursor.length > 2048) throw fail();
      const expected = sign(payload);
      const given = Buffer.from(sig, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw fail();
      let parsed: { k?: unknown; v?: unknown };
      try {
        parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw fail();
      }
      if (parsed.k !== kind) throw fail();
      return parsed.v as T;
    },
  };
}
